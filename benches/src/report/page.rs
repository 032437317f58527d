//! `report.html`: the whole run as one page to explore, self-contained
//! (styles, script and data inline; no request leaves the file). Built from
//! the files the other stages wrote (`results.json`, `answer.md`,
//! `wire.json`, each `make idl` run's `results.json`, each `make profile
//! SO=` run's `summary.md`), so `make bench`, `make idl` and `make profile
//! SO=` all refresh it. The page's HTML is a `minijinja` template;
//! its tables and charts are a small script of this project's own
//! (`page/{base,table,charts,page}.js`, inlined as one script in that
//! order).

use std::{
    fs,
    path::{Path, PathBuf},
};

use minijinja::{Environment, context};
use serde_json::{Value, json};

const TEMPLATE: &str = include_str!("page/page.html");
const STYLE: &str = include_str!("page/page.css");
/// The script's parts, in the order they are inlined: the helpers, the
/// table, the charts, then the page that draws with them.
const SCRIPT: &str = concat!(
    include_str!("page/base.js"),
    include_str!("page/table.js"),
    include_str!("page/charts.js"),
    include_str!("page/page.js"),
);
/// The page's file, in the benches folder.
pub const FILE: &str = "report.html";

/// One `make idl` run as the page shows it.
struct IdlRun {
    program: String,
    records: Vec<Value>,
    /// Its summary's fixed-capacity section as HTML, where the run sized
    /// its variable accounts (`ACCOUNTS=`, `CAPACITY=`: its
    /// `capacities.json`).
    capacities: Option<String>,
}

/// Writes `report.html` into `benches_dir` (`target/benches/`) from the
/// files there; returns its path.
pub fn write(benches_dir: &Path) -> Result<PathBuf, String> {
    let read_json = |name: &str| -> Result<Option<Value>, String> {
        let path = benches_dir.join(name);
        match fs::read_to_string(&path) {
            Ok(text) => serde_json::from_str(&text)
                .map(Some)
                .map_err(|e| format!("{}: {e}", path.display())),
            Err(_) => Ok(None),
        }
    };
    let results = read_json("results.json")?;
    let wire = read_json("wire.json")?;
    // The Anchor release matrix: a `make anchor-versions` run's, or the
    // committed one (`benches/anchor_versions.json`, two folders up).
    let anchor_versions = match read_json("anchor_versions.json")? {
        Some(run) => Some(run),
        None => read_json("../../benches/anchor_versions.json")?,
    };
    let answer = fs::read_to_string(benches_dir.join("answer.md")).unwrap_or_default();
    let runs = idl_runs(&benches_dir.join("idl"))?;
    let profiles = program_profiles(&benches_dir.join("profile"));
    let html = render(
        results.as_ref(),
        &answer,
        wire.as_ref(),
        anchor_versions.as_ref(),
        &runs,
        &profiles,
    )?;
    let path = benches_dir.join(FILE);
    // Whole: make idl's runs (several at once in the tests) and the profile
    // each write the page.
    crate::files::write_whole(&path, &html)?;
    Ok(path)
}

/// Every run under `idl_dir` with a `results.json`, by program name.
fn idl_runs(idl_dir: &Path) -> Result<Vec<IdlRun>, String> {
    let Ok(entries) = fs::read_dir(idl_dir) else {
        return Ok(Vec::new());
    };
    let mut runs = Vec::new();
    for dir in entries.filter_map(Result::ok).map(|e| e.path()) {
        let path = dir.join("results.json");
        let Ok(text) = fs::read_to_string(&path) else {
            continue;
        };
        let records: Vec<Value> =
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let program = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let capacities = dir
            .join("capacities.json")
            .is_file()
            .then(|| capacities_html(&dir))
            .flatten();
        runs.push(IdlRun {
            program,
            records,
            capacities,
        });
    }
    runs.sort_by(|a, b| a.program.cmp(&b.program));
    Ok(runs)
}

/// A `make idl` run's fixed-capacity section of its `summary.md`, as
/// HTML: from its heading to the next of its level.
fn capacities_html(dir: &Path) -> Option<String> {
    let summary = fs::read_to_string(dir.join("summary.md")).ok()?;
    let (_, section) = summary.split_once(CAPACITY_HEADING)?;
    let section = section.split("\n## ").next().unwrap_or(section);
    let (_, body) = section.split_once('\n')?;
    Some(markdown_to_html(&body.replace("### ", "#### ")))
}

/// The heading of a `make idl` run's fixed-capacity section (written by
/// the `idl` crate's `capacity::report`).
pub const CAPACITY_HEADING: &str = "\n## Fixed capacity: your variable accounts sized";

/// Whether `dir` holds a `make profile SO=` run: its `results.json` names
/// the `.so`'s sha256 (the benchmark's own profile folders have none).
pub fn is_program_profile(dir: &Path) -> bool {
    fs::read_to_string(dir.join("results.json")).is_ok_and(|text| text.contains("\"sha256\""))
}

/// Each `make profile SO=` run under `profile_dir` (a folder whose
/// `results.json` names the `.so`'s sha256), by name: its summary as
/// HTML, down to the table of fixtures (whose links are the folder's);
/// where it was compared with a base build (`BASE=`: its `diff/`), that
/// comparison's summary after it, the same way.
fn program_profiles(profile_dir: &Path) -> Vec<(String, String)> {
    let Ok(entries) = fs::read_dir(profile_dir) else {
        return Vec::new();
    };
    let mut profiles: Vec<(String, String)> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|dir| is_program_profile(dir))
        .filter_map(|dir| {
            let mut html = summary_html(&dir)?;
            let diff = dir.join("diff");
            if is_program_profile(&diff)
                && let Some(against) = summary_html(&diff)
            {
                html.push_str("<h4>Against its base build (<code>BASE=</code>; its files: the run's <code>diff/</code>)</h4>\n");
                html.push_str(&against.replace("<h4>", "<h5>").replace("</h4>", "</h5>"));
            }
            let name = dir.file_name()?.to_string_lossy().into_owned();
            Some((name, html))
        })
        .collect();
    profiles.sort();
    profiles
}

/// A run folder's `summary.md` as HTML, its title and its table of
/// fixtures (or traces) left out.
fn summary_html(dir: &Path) -> Option<String> {
    let summary = fs::read_to_string(dir.join("summary.md")).ok()?;
    let body = summary.split_once('\n').map_or("", |(_, rest)| rest);
    // The table of fixtures (or of traces: `TRACES=`), whose links are
    // the folder's.
    let body = body
        .split("\n## By fixture")
        .next()
        .and_then(|b| b.split("\n## By trace").next())
        .unwrap_or(body);
    Some(markdown_to_html(&body.replace("## ", "#### ")))
}

/// The page's HTML.
fn render(
    results: Option<&Value>,
    answer: &str,
    wire: Option<&Value>,
    anchor_versions: Option<&Value>,
    runs: &[IdlRun],
    profiles: &[(String, String)],
) -> Result<String, String> {
    let mut records = results
        .and_then(|r| r["results"].as_array())
        .cloned()
        .unwrap_or_default();
    // A `make idl PROFILE=1` run's records carry frames too: one table of
    // names for all.
    let mut idl: Vec<(&str, Vec<Value>)> = runs
        .iter()
        .map(|run| (run.program.as_str(), run.records.clone()))
        .collect();
    let idl_records = idl.iter_mut().flat_map(|(_, records)| records.iter_mut());
    let frame_names = intern_frames(records.iter_mut().chain(idl_records));
    let provenance: Vec<(String, String)> = results
        .and_then(|r| r["provenance"].as_object())
        .map(|p| {
            p.iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k.replace('_', " "), provenance_value(v)))
                .collect()
        })
        .unwrap_or_default();
    let data = json!({
        "records": records,
        "floor": results.map(|r| r["floor"].clone()).unwrap_or(Value::Null),
        "frameNames": frame_names,
        "wire": wire.map(|w| w["rows"].clone()).unwrap_or(Value::Null),
        "anchorVersions": anchor_versions.cloned().unwrap_or(Value::Null),
        "idl": idl
            .iter()
            .map(|(program, records)| json!({ "program": program, "records": records }))
            .collect::<Vec<_>>(),
    });
    let mut env = Environment::new();
    env.add_template("page.html", TEMPLATE)
        .map_err(|e| format!("the page's template: {e}"))?;
    let template = env.get_template("page.html").expect("added above");
    template
        .render(context! {
            answer => markdown_to_html(answer),
            legend => markdown_to_html(&super::legend::markdown()),
            provenance => provenance,
            records => records.len(),
            runs => runs
                .iter()
                .map(|r| (r.program.clone(), r.records.len(), r.capacities.clone()))
                .collect::<Vec<_>>(),
            profiles => profiles.to_vec(),
            style => STYLE,
            script => SCRIPT,
            data => script_safe(&data.to_string()),
        })
        .map_err(|e| format!("the page's template: {e}"))
}

/// Replaces each record's `frames` (frame -> self CUs, after `make
/// profile` or `make idl PROFILE=1`) by `[[index, CUs], ...]` into the returned names: hundreds of
/// records share a few hundred frames, whose names would otherwise be
/// inlined thousands of times.
fn intern_frames<'a>(records: impl IntoIterator<Item = &'a mut Value>) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let mut index: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for record in records {
        let Some(frames) = record.get("frames").and_then(Value::as_object) else {
            continue;
        };
        let interned: Vec<Value> = frames
            .iter()
            .map(|(frame, cus)| {
                let i = *index.entry(frame.clone()).or_insert_with(|| {
                    names.push(frame.clone());
                    names.len() - 1
                });
                json!([i, cus])
            })
            .collect();
        record["frames"] = Value::Array(interned);
    }
    names
}

/// A provenance entry as one line: crate versions as `name version, ...`.
fn provenance_value(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Object(map) => map
            .iter()
            .map(|(k, v)| format!("{k} {}", v.as_str().unwrap_or_default()))
            .collect::<Vec<_>>()
            .join(", "),
        other => other.to_string(),
    }
}

/// The answer's markdown (its tables among it) as HTML, without the
/// comments that fence it in the README. Its links are the README's,
/// relative to the repository's root: the page, two folders down in
/// `target/benches/`, reaches them through `../../`.
fn markdown_to_html(markdown: &str) -> String {
    use pulldown_cmark::{CowStr, Event, Options, Parser, Tag, html};
    let parser = Parser::new_ext(markdown, Options::ENABLE_TABLES)
        .filter(|event| !matches!(event, Event::Html(_) | Event::InlineHtml(_)))
        .map(|event| match event {
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                title,
                id,
            }) if !dest_url.contains("://") && !dest_url.starts_with('#') => {
                Event::Start(Tag::Link {
                    link_type,
                    dest_url: CowStr::from(format!("../../{dest_url}")),
                    title,
                    id,
                })
            }
            other => other,
        });
    let mut out = String::new();
    html::push_html(&mut out, parser);
    out
}

/// JSON inside a `<script>` element: no `</` can close it early.
fn script_safe(json: &str) -> String {
    json.replace("</", "<\\/").replace("<!--", "<\\!--")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `make profile SO=` run's summary is on the page, down to its
    /// fixtures' table; a benchmark row's folder is not a run.
    #[test]
    fn a_program_profile_run_is_shown_by_instruction() {
        let dir = tempfile::tempdir().unwrap();
        let run = dir.path().join("my_program");
        fs::create_dir_all(&run).unwrap();
        fs::write(run.join("results.json"), r#"{"sha256": "ab"}"#).unwrap();
        fs::write(
            run.join("summary.md"),
            "# `my_program`: 1 fixtures profiled\n\n- named by: x\n\n## By instruction\n\n| instruction | CUs |\n|---|---:|\n| `0x03` | 1475 |\n\n## By fixture\n\n| fixture |\n|---|\n| [a.svg](a.svg) |\n",
        )
        .unwrap();
        let row = dir.path().join("borsh");
        fs::create_dir_all(&row).unwrap();
        fs::write(row.join("summary.md"), "# not a run\n").unwrap();
        let profiles = program_profiles(dir.path());
        assert_eq!(profiles.len(), 1);
        let (name, html) = &profiles[0];
        assert_eq!(name, "my_program");
        assert!(html.contains("<h4>By instruction</h4>"), "{html}");
        assert!(html.contains(">1475</td>"), "{html}");
        assert!(
            !html.contains("a.svg") && !html.contains("fixtures profiled"),
            "{html}"
        );
        let page = render(None, "", None, None, &[], &profiles).unwrap();
        assert!(page.contains(r#"id="profile-my_program""#), "{page}");

        // Compared with a base build: that summary follows, its own
        // fixtures' table left out too.
        let diff = run.join("diff");
        fs::create_dir_all(&diff).unwrap();
        fs::write(
            diff.join("results.json"),
            r#"{"sha256": "ab", "base_sha256": "cd"}"#,
        )
        .unwrap();
        fs::write(
            diff.join("summary.md"),
            "# `my_program` against its base: 1 fixtures compared\n\n## The change, per instruction\n\n- `0x03`: +12 CUs (+0.8%): decode +12\n\n## By fixture\n\n| [b.svg](b.svg) |\n",
        )
        .unwrap();
        let (_, html) = &program_profiles(dir.path())[0];
        assert!(
            html.contains(">1475</td>") && html.contains("Against its base build"),
            "{html}"
        );
        assert!(
            html.contains("<h5>The change, per instruction</h5>"),
            "{html}"
        );
        assert!(html.contains("+12 CUs (+0.8%): decode +12"), "{html}");
        assert!(
            !html.contains("b.svg") && !html.contains("fixtures compared"),
            "{html}"
        );
    }

    #[test]
    fn frames_are_named_once_and_keep_their_cus() {
        let mut records = vec![
            json!({"row": "a", "frames": {"decode": 7, "memcpy": 2}}),
            json!({"row": "b", "frames": {"memcpy": 5}}),
            json!({"row": "c"}),
        ];
        let names = intern_frames(&mut records);
        assert_eq!(names, ["decode", "memcpy"]);
        assert_eq!(records[0]["frames"], json!([[0, 7], [1, 2]]));
        assert_eq!(records[1]["frames"], json!([[1, 5]]));
        assert_eq!(records[2].get("frames"), None);
    }

    #[test]
    fn data_cannot_close_its_script_element() {
        assert_eq!(script_safe(r#"{"a":"</script>"}"#), r#"{"a":"<\/script>"}"#);
    }

    #[test]
    fn the_answer_keeps_its_table_and_drops_its_fences() {
        let html = markdown_to_html(
            "<!-- answer -->\n| a | b |\n|---|---|\n| 1 | 2 |\n<!-- /answer -->\n",
        );
        assert!(html.contains("<table>"), "{html}");
        assert!(html.contains("<td>2</td>"), "{html}");
        assert!(!html.contains("<!--"), "{html}");
    }

    #[test]
    fn the_answers_links_reach_the_repository_from_target_benches() {
        let html = markdown_to_html("[a](docs/a.md) [b](https://x.org/b) [c](#c)\n");
        assert!(html.contains(r#"href="../../docs/a.md""#), "{html}");
        assert!(html.contains(r#"href="https://x.org/b""#), "{html}");
        assert!(html.contains(r##"href="#c""##), "{html}");
    }
}
