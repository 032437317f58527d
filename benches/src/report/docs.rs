//! The figures the README and the docs quote, written by the run so that
//! they cannot drift from the tree.
//!
//! Two kinds of marks, both invisible where the markdown is rendered:
//!
//! - a block, `<!-- run: KEY -->` … `<!-- /run -->`: the lines between
//!   are the run's text for `KEY`: `answer` (the README's answer),
//!   `provenance` (toolchain, arch and crate versions), or a section of
//!   `summary.md` by its headings' slugs (`token-family-exact-shape`, or
//!   `message-family/full` for a subsection);
//! - a figure, `<!-- ROW FIELD -->123`: the number after it is `FIELD`
//!   (`cus`, `so_bytes`, `account_bytes`, ...) of the record `ROW` of
//!   `results.json` (`<!-- borsh::full cus -->106`).
//!
//! `make docs` rewrites both from a run; `benches/tests/docs.rs` fails on
//! any that differs from this tree's run.

use std::{
    collections::BTreeMap,
    fs,
    path::{Path, PathBuf},
};

use super::{Run, answer};

/// The block marks' opening and closing text.
const OPEN: &str = "<!-- run: ";
const CLOSE: &str = "<!-- /run -->";

/// Every block a document may hold, by key, from one run.
pub fn blocks(run: &Run) -> BTreeMap<String, String> {
    let mut out = sections(&run.summary_markdown());
    out.insert("answer".into(), answer::markdown(run));
    out.insert("provenance".into(), run.provenance.stable_markdown());
    out
}

/// A heading's slug: lowercase ASCII letters and digits, the rest one `-`.
pub fn slug(heading: &str) -> String {
    let mut out = String::new();
    for c in heading.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

/// Each `##` section of a summary (to the next `##`) and each `###`
/// subsection (to the next heading), by slug, without its heading line and
/// without the blank lines around it.
pub fn sections(summary: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut section: Option<(String, Vec<&str>)> = None;
    let mut subsection: Option<(String, Vec<&str>)> = None;
    let finish = |part: Option<(String, Vec<&str>)>, out: &mut BTreeMap<String, String>| {
        if let Some((key, lines)) = part {
            out.insert(key, lines.join("\n").trim_matches('\n').to_string() + "\n");
        }
    };
    for line in summary.lines() {
        if let Some(title) = line.strip_prefix("## ") {
            finish(subsection.take(), &mut out);
            finish(section.take(), &mut out);
            section = Some((slug(title), Vec::new()));
        } else if let Some(title) = line.strip_prefix("### ") {
            finish(subsection.take(), &mut out);
            let parent = section
                .as_ref()
                .map_or(String::new(), |(key, _)| key.clone());
            subsection = Some((format!("{parent}/{}", slug(title)), Vec::new()));
            if let Some((_, lines)) = section.as_mut() {
                lines.push(line);
            }
        } else {
            for part in [section.as_mut(), subsection.as_mut()]
                .into_iter()
                .flatten()
            {
                part.1.push(line);
            }
        }
    }
    finish(subsection, &mut out);
    finish(section, &mut out);
    out
}

/// A report committed beside the code (a `make ...-baseline` writes it):
/// its text after the title up to the first section, keyed `prefix`, and
/// each section and subsection, keyed `prefix/slug` as [`sections`] keys
/// them. A missing file is an error naming the command that writes it.
pub fn committed_report(
    root: &Path,
    file: &str,
    prefix: &str,
    writer: &str,
) -> Result<BTreeMap<String, String>, String> {
    let text = fs::read_to_string(root.join(file))
        .map_err(|e| format!("reading {file}: {e}; `{writer}` writes it (then commit it)"))?;
    let body = text.split_once('\n').map_or("", |(_, rest)| rest);
    let preamble = body.split("\n## ").next().unwrap_or_default();
    let mut out: BTreeMap<String, String> = sections(body)
        .into_iter()
        .map(|(key, text)| (format!("{prefix}/{key}"), text))
        .collect();
    out.insert(
        prefix.to_string(),
        preamble.trim_matches('\n').to_string() + "\n",
    );
    Ok(out)
}

/// One block in a document: its key, and the byte range of its body (from
/// after the opening mark's line to the closing mark).
#[derive(Debug, PartialEq, Eq)]
pub struct Block {
    pub key: String,
    pub body: std::ops::Range<usize>,
    /// The line the block opens on, from 1.
    pub line: usize,
}

/// The blocks of `text`, or what is wrong with their marks.
pub fn find_blocks(text: &str) -> Result<Vec<Block>, String> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(found) = text[at..].find(OPEN) {
        let open = at + found;
        let line = text[..open].matches('\n').count() + 1;
        let end_of_mark = text[open..].find("-->").map(|e| open + e).ok_or(format!(
            "line {line}: a block mark that does not end with `-->`"
        ))?;
        let key = text[open + OPEN.len()..end_of_mark].trim().to_string();
        let body_start = text[end_of_mark..]
            .find('\n')
            .map_or(text.len(), |n| end_of_mark + n + 1);
        let close = text[body_start..]
            .find(CLOSE)
            .map(|c| body_start + c)
            .ok_or(format!("line {line}: block `{key}` has no `{CLOSE}`"))?;
        if let Some(nested) = text[body_start..close].find(OPEN) {
            let nested_line = text[..body_start + nested].matches('\n').count() + 1;
            return Err(format!(
                "line {line}: block `{key}` is not closed before another opens on line {nested_line}"
            ));
        }
        out.push(Block {
            key,
            body: body_start..close,
            line,
        });
        at = close + CLOSE.len();
    }
    Ok(out)
}

/// One figure mark: the record's row and field, the number written after
/// it (as written), and its byte range.
#[derive(Debug, PartialEq, Eq)]
pub struct Figure {
    pub row: String,
    pub field: String,
    pub written: String,
    pub number: std::ops::Range<usize>,
    pub line: usize,
}

/// The figure marks of `text`: `<!-- ROW FIELD -->` with a number right
/// after it. Block marks and other comments (more or fewer than two
/// words, or no number after) are not figures.
pub fn find_figures(text: &str) -> Vec<Figure> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(found) = text[at..].find("<!-- ") {
        let open = at + found;
        let Some(end) = text[open..].find(" -->").map(|e| open + e) else {
            break;
        };
        at = end + 4;
        let words: Vec<&str> = text[open + 5..end].split_whitespace().collect();
        let [row, field] = words[..] else { continue };
        if row.ends_with(':') || !row.contains("::") {
            continue;
        }
        let digits = text[at..]
            .char_indices()
            .take_while(|(_, c)| c.is_ascii_digit() || *c == ',')
            .last()
            .map_or(0, |(i, c)| i + c.len_utf8());
        let written = text[at..at + digits].trim_end_matches(',');
        if written.is_empty() {
            continue;
        }
        out.push(Figure {
            row: row.to_string(),
            field: field.to_string(),
            written: written.to_string(),
            number: at..at + written.len(),
            line: text[..open].matches('\n').count() + 1,
        });
    }
    out
}

/// A record's field as the docs write it: `1,234` where the text groups
/// digits, else `1234`.
fn formatted(value: u64, grouped: bool) -> String {
    if grouped {
        crate::numbers::thousands(value)
    } else {
        value.to_string()
    }
}

/// Each record of a run's `results.json`, by row.
pub fn records(results: &serde_json::Value) -> BTreeMap<String, &serde_json::Value> {
    results["results"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|r| Some((r["row"].as_str()?.to_string(), r)))
        .collect()
}

/// Whether a figure's field is one only a profile says (`make profile`):
/// `frame:NAME` (the CUs of the stacks through a frame whose name starts
/// with `NAME`) or `category:NAME` (the row's CUs in that category). A
/// run of `make bench` leaves them alone; `benches::profile::figures`
/// checks and writes them.
pub fn is_profile_field(field: &str) -> bool {
    field.starts_with("frame:") || field.starts_with("category:")
}

/// The record a figure names, or which row of the run it is not.
pub fn record_of<'a>(
    records: &BTreeMap<String, &'a serde_json::Value>,
    figure: &Figure,
) -> Result<&'a serde_json::Value, String> {
    records.get(&figure.row).copied().ok_or(format!(
        "`{}` is no record of the run (results.json's `row`)",
        figure.row
    ))
}

/// A figure's value from `results.json`'s records: `None` for a profile's
/// field, which is not a record's number.
pub fn record_value<'a>(
    records: &'a BTreeMap<String, &serde_json::Value>,
) -> impl Fn(&Figure) -> Result<Option<u64>, String> + 'a {
    move |figure| {
        if is_profile_field(&figure.field) {
            return Ok(None);
        }
        let record = record_of(records, figure)?;
        record[&figure.field].as_u64().map(Some).ok_or(format!(
            "record `{}` has no number `{}`",
            figure.row, figure.field
        ))
    }
}

/// `text` with every block (where `blocks` is given) and every figure
/// `value` has a number for as the run writes it, and what differed
/// (`file:line: ...`), or the first mark that names nothing the run has.
pub fn rewrite(
    file: &str,
    text: &str,
    blocks: Option<&BTreeMap<String, String>>,
    value: &dyn Fn(&Figure) -> Result<Option<u64>, String>,
) -> Result<(String, Vec<String>), String> {
    let mut edits: Vec<(std::ops::Range<usize>, String)> = Vec::new();
    let mut changed = Vec::new();
    if let Some(blocks) = blocks {
        for block in find_blocks(text).map_err(|e| format!("{file}: {e}"))? {
            let Some(wanted) = blocks.get(&block.key) else {
                return Err(format!(
                    "{file}:{}: block `{}` names no block of the run; the keys are: {}",
                    block.line,
                    block.key,
                    blocks.keys().cloned().collect::<Vec<_>>().join(", ")
                ));
            };
            if text[block.body.clone()] != **wanted {
                changed.push(format!("{file}:{}: block `{}`", block.line, block.key));
                edits.push((block.body, wanted.clone()));
            }
        }
    }
    for figure in find_figures(text) {
        let Some(value) = value(&figure).map_err(|e| format!("{file}:{}: {e}", figure.line))?
        else {
            continue;
        };
        let wanted = formatted(value, figure.written.contains(','));
        if figure.written != wanted {
            changed.push(format!(
                "{file}:{}: `{} {}` is {wanted}, written {}",
                figure.line, figure.row, figure.field, figure.written
            ));
            edits.push((figure.number, wanted));
        }
    }
    edits.sort_by_key(|(range, _)| std::cmp::Reverse(range.start));
    let mut out = text.to_string();
    for (range, with) in edits {
        out.replace_range(range, &with);
    }
    Ok((out, changed))
}

/// The documents that carry marks: the README and every `docs/*.md`.
pub fn files(root: &Path) -> Result<Vec<PathBuf>, String> {
    let mut out = vec![root.join("README.md")];
    let dir = root.join("docs");
    let mut docs: Vec<PathBuf> = fs::read_dir(&dir)
        .map_err(|e| format!("reading {}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    out.extend(docs);
    Ok(out)
}

/// Every document's marks against `run` and `committed` (blocks of
/// results committed beside the code, such as the toolchain matrix's):
/// what differs (`file:line: ...`), each rewritten in place where `write`.
pub fn update(
    root: &Path,
    run: &Run,
    committed: BTreeMap<String, String>,
    write: bool,
) -> Result<Vec<String>, String> {
    let mut blocks = blocks(run);
    blocks.extend(committed);
    let results = run.results_json();
    let records = records(&results);
    update_with(root, Some(&blocks), &record_value(&records), write)
}

/// Every document's blocks (where `blocks` is given) and the figures
/// `value` has a number for: what differs, rewritten in place where
/// `write`.
pub fn update_with(
    root: &Path,
    blocks: Option<&BTreeMap<String, String>>,
    value: &dyn Fn(&Figure) -> Result<Option<u64>, String>,
    write: bool,
) -> Result<Vec<String>, String> {
    let mut changed = Vec::new();
    for path in files(root)? {
        let name = path
            .strip_prefix(root)
            .unwrap_or(&path)
            .display()
            .to_string();
        let text =
            fs::read_to_string(&path).map_err(|e| format!("reading {}: {e}", path.display()))?;
        let (new, differs) = rewrite(&name, &text, blocks, value)?;
        if write && new != text {
            fs::write(&path, new).map_err(|e| format!("writing {}: {e}", path.display()))?;
        }
        changed.extend(differs);
    }
    Ok(changed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_are_keyed_by_their_headings() {
        let summary =
            "# T\n\n- a\n\n## Token family, `exact` shape\n\nx\n\n### full\n\ny\n\n## Next\nz\n";
        let s = sections(summary);
        assert_eq!(s["token-family-exact-shape"], "x\n\n### full\n\ny\n");
        assert_eq!(s["token-family-exact-shape/full"], "y\n");
        assert_eq!(s["next"], "z\n");
    }

    #[test]
    fn a_block_and_a_figure_are_rewritten_and_reported() {
        let text = "a\n<!-- run: k -->\nold\n<!-- /run -->\nb <!-- x::full cus -->12 CUs\n";
        let blocks = BTreeMap::from([("k".to_string(), "new\n".to_string())]);
        let results = serde_json::json!({"results": [{"row": "x::full", "cus": 1234}]});
        let records = records(&results);
        let (out, changed) = rewrite("f.md", text, Some(&blocks), &record_value(&records)).unwrap();
        assert_eq!(
            out,
            "a\n<!-- run: k -->\nnew\n<!-- /run -->\nb <!-- x::full cus -->1234 CUs\n"
        );
        assert_eq!(
            changed,
            [
                "f.md:2: block `k`",
                "f.md:5: `x::full cus` is 1234, written 12"
            ]
        );
        let (again, changed) =
            rewrite("f.md", &out, Some(&blocks), &record_value(&records)).unwrap();
        assert_eq!((again, changed.len()), (out, 0));
    }

    #[test]
    fn a_profile_figure_is_left_to_the_profile() {
        let text = "<!-- x::full frame:decode -->12 and <!-- x::full category:copies -->3\n";
        let results = serde_json::json!({"results": [{"row": "x::full", "cus": 1234}]});
        let records = records(&results);
        let (out, changed) = rewrite("f.md", text, None, &record_value(&records)).unwrap();
        assert_eq!((out.as_str(), changed.len()), (text, 0));
        assert!(is_profile_field("frame:decode") && !is_profile_field("cus"));
    }

    #[test]
    fn a_committed_report_gives_its_preamble_and_sections() {
        let dir = std::env::temp_dir().join(format!("committed-report-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        fs::write(
            dir.join("r.md"),
            "# Title\n\n- machine: m\n\n## Sizes\n\n| a |\n\n### Small\n\nx\n",
        )
        .unwrap();
        let blocks = committed_report(&dir, "r.md", "r", "make r-baseline").unwrap();
        assert_eq!(blocks["r"], "- machine: m\n");
        assert_eq!(blocks["r/sizes"], "| a |\n\n### Small\n\nx\n");
        assert_eq!(blocks["r/sizes/small"], "x\n");
        let e = committed_report(&dir, "none.md", "r", "make r-baseline").unwrap_err();
        assert!(
            e.starts_with("reading none.md: ")
                && e.ends_with("; `make r-baseline` writes it (then commit it)"),
            "{e}"
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_mark_that_names_nothing_is_refused_by_line() {
        let blocks = BTreeMap::new();
        let results = serde_json::json!({"results": []});
        let records = records(&results);
        let e = rewrite(
            "f.md",
            "x\n<!-- run: nope -->\n<!-- /run -->\n",
            Some(&blocks),
            &record_value(&records),
        )
        .unwrap_err();
        assert!(e.starts_with("f.md:2: block `nope` names no block"), "{e}");
        let e = rewrite(
            "f.md",
            "<!-- a::b cus -->1\n",
            Some(&blocks),
            &record_value(&records),
        )
        .unwrap_err();
        assert!(e.starts_with("f.md:1: `a::b` is no record"), "{e}");
        let e = find_blocks("<!-- run: a -->\n").unwrap_err();
        assert_eq!(e, "line 1: block `a` has no `<!-- /run -->`");
    }
}
