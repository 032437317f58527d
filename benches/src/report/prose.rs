//! The numbers a document states in its prose that no mark holds to a run.
//!
//! A figure the run writes is a mark or inside a block ([`super::docs`]);
//! what is left is read here as a reader sees it: without the run-written
//! blocks, the experiments (`<!-- experiments -->` to `<!-- /experiments
//! -->`: modified builds, each described in place with how to reproduce
//! it), the findings of `make idl` runs ([`IDL_RUNS`]), what `make
//! deployed` writes ([`DEPLOYED`]), the figure marks and their numbers, comments, code (fenced,
//! indented, inline), link targets and addresses. Of its numbers, those
//! whose form says they are no measurement are left out: a list item's
//! number, a version (`1.2.2`, `0.31`), a name (a framework's title with
//! its major version, `LLVM 23`, `1.x`) and an index (`[0]`). The rest is what `benches/tests/docs.rs`
//! holds to its allowlist of facts that are not the run's.

use super::docs::find_figures;

/// The marks around figures of `make idl` runs: the findings on IDLs,
/// which a run of their own measures again, not `make bench`.
pub const IDL_RUNS: (&str, &str) = ("<!-- idl-runs -->", "<!-- /idl-runs -->");

/// Around what `make deployed` writes (`make deployed DOCS=1`): the
/// README's measured ratio of this route to the deployed Token-2022, and
/// docs/toolchain.md's tables of it; profile-so's tests hold them.
pub const DEPLOYED: (&str, &str) = ("<!-- deployed -->", "<!-- /deployed -->");

/// A number in a document's prose.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProseNumber {
    /// As written (`1,400`, `10%`, `1.3x`).
    pub written: String,
    /// Its line, counted from 1.
    pub line: usize,
    /// The line's prose (what [`prose`] leaves of it).
    pub context: String,
}

/// `text`'s prose, a line per line of `text` (so line numbers hold), with
/// what a mark, a block, a comment, code or a link target holds blanked.
pub fn prose(text: &str) -> Vec<String> {
    let mut blank = vec![false; text.len()];
    fn hide(blank: &mut [bool], range: std::ops::Range<usize>) {
        blank[range].iter_mut().for_each(|b| *b = true);
    }
    for figure in find_figures(text) {
        hide(&mut blank, figure.number);
    }
    for (open, close) in [
        ("<!-- run: ", "<!-- /run -->"),
        ("<!-- idl-example: ", "<!-- /idl-example -->"),
        // A change measured once in a modified build, each said in place
        // with how to reproduce it: no run of this tree writes them.
        ("<!-- experiments -->", "<!-- /experiments -->"),
        // Figures read off `make idl` runs' own reports (published IDLs
        // outside this tree, each named by repository and commit, and the
        // example IDLs' runs): no `results.json` record holds them, and
        // `benches/tests/docs.rs` keeps them to docs/idl-findings.md.
        (IDL_RUNS.0, IDL_RUNS.1),
        DEPLOYED,
        ("<!--", "-->"),
    ] {
        let mut at = 0;
        while let Some(start) = text[at..].find(open).map(|s| at + s) {
            let end = text[start..]
                .find(close)
                .map_or(text.len(), |e| start + e + close.len());
            hide(&mut blank, start..end);
            at = end;
        }
    }
    // Code blocks, fenced or indented, line by line.
    let (mut fenced, mut indented, mut previous_blank) = (false, false, true);
    let mut offset = 0;
    for line in text.split('\n') {
        let range = offset..offset + line.len();
        offset += line.len() + 1;
        let fence = line.trim_start().starts_with("```");
        indented =
            (line.starts_with("    ") || line.starts_with('\t')) && (previous_blank || indented);
        previous_blank = line.trim().is_empty();
        if fence || fenced || indented {
            hide(&mut blank, range);
        }
        if fence {
            fenced = !fenced;
        }
    }
    // Inline code, which may run over a line's end (not a paragraph's).
    let mut open: Option<usize> = None;
    for (i, c) in text.char_indices() {
        if blank[i] {
            continue;
        }
        match (c, open) {
            ('`', None) => open = Some(i),
            ('`', Some(start)) => {
                hide(&mut blank, start..i + 1);
                open = None;
            }
            ('\n', Some(_)) if text[i + 1..].starts_with('\n') => open = None,
            _ => {}
        }
    }
    let mut out = Vec::new();
    let mut offset = 0;
    for line in text.split('\n') {
        let start = offset;
        offset += line.len() + 1;
        let kept: String = line
            .char_indices()
            .map(|(i, c)| if blank[start + i] { ' ' } else { c })
            .collect();
        out.push(strip_links(&kept));
    }
    out
}

/// A line without link targets and addresses.
fn strip_links(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while !rest.is_empty() {
        if let Some(target) = rest.strip_prefix("](") {
            rest = target.find(')').map_or("", |end| &target[end + 1..]);
            out.push(']');
        } else if rest.starts_with("http://") || rest.starts_with("https://") {
            rest = rest
                .find(|c: char| c.is_whitespace() || c == ')' || c == '>')
                .map_or("", |end| &rest[end..]);
        } else {
            let c = rest.chars().next().expect("not empty");
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

/// Every number of `text`'s prose whose form does not say it is no
/// measurement.
pub fn numbers(text: &str) -> Vec<ProseNumber> {
    let mut found = Vec::new();
    for (n, line) in prose(text).iter().enumerate() {
        let bytes = line.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let before = i.checked_sub(1).map(|b| bytes[b]);
            // A range's end (`570-730`) is a number; `Apache-2.0` is not.
            let range_end =
                before == Some(b'-') && i.checked_sub(2).is_some_and(|b| bytes[b].is_ascii_digit());
            let starts = bytes[i].is_ascii_digit()
                && (range_end
                    || !before.is_some_and(|b| b.is_ascii_alphanumeric() || b"_.-/^".contains(&b)));
            if !starts {
                i += 1;
                continue;
            }
            let mut end = i;
            while end < bytes.len()
                && (bytes[end].is_ascii_digit()
                    || (b",.".contains(&bytes[end])
                        && bytes.get(end + 1).is_some_and(u8::is_ascii_digit)))
            {
                end += 1;
            }
            let suffix = match bytes.get(end) {
                Some(b'%') => 1,
                Some(b'x') if !bytes.get(end + 1).is_some_and(u8::is_ascii_alphanumeric) => 1,
                _ => 0,
            };
            if !no_measurement(line, i, end) {
                found.push(ProseNumber {
                    written: line[i..end + suffix].to_string(),
                    line: n + 1,
                    context: line.split_whitespace().collect::<Vec<_>>().join(" "),
                });
            }
            i = end.max(i + 1);
        }
    }
    found
}

/// Whether the number at `start..end` of `line` is, by its form, a list
/// item's number, a version, a name or an index.
fn no_measurement(line: &str, start: usize, end: usize) -> bool {
    let (before, number, mut after) = (&line[..start], &line[start..end], &line[end..]);
    let hex = after.starts_with('x') && after[1..].starts_with(|c: char| c.is_ascii_alphanumeric());
    // A range's start (`1.9-5.7x`) is read with its end's unit.
    if let Some(rest) = after
        .strip_prefix('-')
        .filter(|r| r.starts_with(|c: char| c.is_ascii_digit()))
    {
        after = rest.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.' || c == ',');
    }
    let list_item = before.trim().is_empty() && after.starts_with(". ");
    // A framework's title with its major version (programs/frameworks.toml),
    // or LLVM's.
    let titled = |title: &str| {
        let words = title.split_once(' ').map_or(title, |(word, _)| word);
        before.ends_with(&format!("{words} "))
            && title.len() > words.len()
            && title[words.len() + 1..].starts_with(|c: char| c.is_ascii_digit())
    };
    let name = after.starts_with(".x")
        || before.ends_with("LLVM ")
        || crate::Framework::registered().any(|f| titled(f.title()));
    let index = before.ends_with('[') && after.starts_with(']');
    let dots = number.matches('.').count();
    let unit = [" KB", " KiB", " MB", " MiB", " GB", " bytes", " CUs", " s"]
        .iter()
        .any(|u| after.starts_with(u));
    let version = dots >= 2
        || (dots == 1 && !after.starts_with(['x', '%']) && !unit && !number.contains(','));
    list_item || name || index || version || hex
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(text: &str) -> Vec<String> {
        numbers(text).into_iter().map(|n| n.written).collect()
    }

    #[test]
    fn marks_blocks_code_and_links_hold_no_prose_number() {
        let text = "a <!-- x::full cus -->12 CUs and `7` and [b](c/3.md)\n\
                    <!-- run: k -->\n| 5 |\n<!-- /run -->\n\
                    <!-- experiments -->\n- costs 7\n<!-- /experiments -->\n\
                    ```\n9\n```\n\n    make 4\n\nsee https://a.b/6 then 8 bytes\n";
        let found = numbers(text);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!((found[0].written.as_str(), found[0].line), ("8", 14));
    }

    #[test]
    fn versions_names_indices_and_list_items_are_no_measurements() {
        let text = "1. anchor-lang 1.2.2, spec 0.1.0, before 0.30, Anchor 2, Anchor 1.x, \
                    account [0], sBPF v3, Apache-2.0\n";
        assert_eq!(written(text), Vec::<String>::new());
    }

    #[test]
    fn counts_ratios_percentages_and_sizes_are_numbers() {
        let text = "it costs 1,400 CUs, 1.3x the cheapest, 10% of it, the 5.4 KB one, 3 of 4, \
                    570-730 CUs, 1.9-5.7x, at 0x2000N008.\n";
        assert_eq!(
            written(text),
            [
                "1,400", "1.3x", "10%", "5.4", "3", "4", "570", "730", "1.9", "5.7x"
            ]
        );
    }
}
