//! A profile's files: folded stacks (`a;b;c <CUs>`, the format flamegraph
//! tools read), an SVG flamegraph (inferno) and a table of frames.

use std::{collections::BTreeMap, fmt::Write as _, path::Path};

use super::{attribute::Profile, profiler::ProfiledRow};

/// A frame as one field of a folded line: `;` separates frames there, so
/// one inside a name (`[u8; 32]`) becomes `,` (`[u8, 32]`), and a line's
/// count follows its last space, which a name may hold.
pub fn folded_frame(frame: &str) -> String {
    frame.replace(';', ",")
}

/// The folded stacks, one line each, sorted.
pub fn folded(profile: &Profile) -> String {
    let mut out = String::new();
    for (stack, cus) in &profile.stacks {
        let frames: Vec<String> = stack.iter().map(|f| folded_frame(f)).collect();
        writeln!(out, "{} {cus}", frames.join(";")).expect("writing to a String");
    }
    out
}

/// Each frame's CUs: `self` where it is the innermost frame, `total`
/// where it is anywhere on the stack (once per stack, recursion or not).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FrameCus {
    pub own: u64,
    pub total: u64,
}

pub fn frames(profile: &Profile) -> BTreeMap<String, FrameCus> {
    let mut frames: BTreeMap<String, FrameCus> = BTreeMap::new();
    for (stack, &cus) in &profile.stacks {
        let mut seen: Vec<&String> = Vec::new();
        for frame in stack {
            if !seen.contains(&frame) {
                seen.push(frame);
                frames.entry(frame.clone()).or_default().total += cus;
            }
        }
        if let Some(last) = stack.last() {
            frames.entry(last.clone()).or_default().own += cus;
        }
    }
    frames
}

/// The frames table in markdown, dearest first by self CUs.
pub fn frames_table(row: &str, profile: &Profile) -> String {
    let total = profile.total();
    let mut rows: Vec<(String, FrameCus)> = frames(profile).into_iter().collect();
    rows.sort_by(|a, b| {
        b.1.own
            .cmp(&a.1.own)
            .then(b.1.total.cmp(&a.1.total))
            .then(a.0.cmp(&b.0))
    });
    let mut out = format!(
        "# `{row}`: {total} CUs by frame\n\nSelf: CUs spent in the frame itself; total: with everything it called or inlined.\n\n| frame | self | total | % of the row |\n|---|---:|---:|---:|\n"
    );
    for (frame, cus) in rows {
        let share = if total == 0 {
            0.0
        } else {
            100.0 * cus.total as f64 / total as f64
        };
        writeln!(
            out,
            "| `{}` | {} | {} | {share:.1}% |",
            frame.replace('|', "\\|"),
            cus.own,
            cus.total
        )
        .expect("writing to a String");
    }
    out
}

/// The flamegraph of `profile` as SVG, titled `row`.
pub fn svg(row: &str, profile: &Profile) -> Result<String, String> {
    let title = format!("{row}: {} CUs", profile.total());
    draw(row, title, None, &folded(profile))
}

/// A flamegraph of folded stacks (`folded`; with two counts a line, a
/// differential one) as SVG, its frames counted in CUs; `name` names it
/// in an error.
pub fn draw(
    name: &str,
    title: String,
    subtitle: Option<String>,
    folded: &str,
) -> Result<String, String> {
    let mut options = inferno::flamegraph::Options::default();
    options.title = title;
    options.subtitle = subtitle;
    options.count_name = "CUs".into();
    options.name_type = "Frame:".into();
    let mut out = Vec::new();
    inferno::flamegraph::from_lines(&mut options, folded.lines(), &mut out)
        .map_err(|e| format!("{name}: drawing its flamegraph: {e}"))?;
    String::from_utf8(out).map_err(|e| format!("{name}: its flamegraph is not UTF-8: {e}"))
}

/// A row's files' stem under the profile folder: the row's name with
/// `::` as a folder (`token/exact/borsh::read_owner` ->
/// `token/exact/borsh/read_owner`).
pub fn row_stem(row: &str) -> String {
    row.replace("::", "/")
}

/// Writes `<stem>.folded`, `.svg` and `.md` of every row under `dir`.
pub fn write(dir: &Path, rows: &[ProfiledRow]) -> Result<(), String> {
    for ProfiledRow { row, profile, .. } in rows {
        let stem = dir.join(row_stem(row));
        let parent = stem.parent().expect("a stem under dir");
        let stem = stem.to_string_lossy();
        std::fs::create_dir_all(parent)
            .map_err(|e| format!("creating {}: {e}", parent.display()))?;
        let files = [
            ("folded", folded(profile)),
            ("svg", svg(row, profile)?),
            ("md", frames_table(row, profile)),
        ];
        for (extension, text) in files {
            let path = format!("{stem}.{extension}");
            std::fs::write(&path, text).map_err(|e| format!("writing {path}: {e}"))?;
        }
    }
    Ok(())
}
