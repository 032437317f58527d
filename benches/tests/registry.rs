//! A framework is one declaration (`programs/frameworks.toml`): its name
//! and title are written nowhere else in the harness's shared code, the
//! Makefile or the scripts, so adding a framework needs no edit there
//! (docs/adding-a-framework.md).

use std::path::{Path, PathBuf};

use benches::Framework;

/// What the check reads: the harness's code, the Makefile and the scripts.
const SCOPE: [&str; 7] = [
    "Makefile",
    ".ci/run",
    "benches",
    "benches/src",
    "benches/fixtures/src",
    "benches/litesvm/src",
    "benches/wire/src",
];

/// Where a framework's name belongs besides the registry: its oracle (one
/// module each, and their table).
const ITS_OWN: &str = "benches/src/frameworks/";

/// Code that names frameworks on purpose, and why.
const NAMED_ON_PURPOSE: [(&str, &str); 4] = [
    (
        "benches/src/anchor_versions/",
        "make anchor-versions: the Anchor 1.x programs on every anchor-lang release",
    ),
    (
        "benches/src/bin/anchor_versions.rs",
        "make anchor-versions' command",
    ),
    (
        "benches/src/report/page/page.js",
        "the page's chart of make anchor-versions",
    ),
    (
        "benches/src/report/summary/frameworks.rs",
        "the report's sections of one framework's own programs: arguments and events",
    ),
];

/// The Makefile's targets built on one framework, and why: their
/// paragraphs (a rule with the comments above it) may name it.
const TARGETS_ON_PURPOSE: [(&str, &str); 1] = [(
    "anchor-",
    "make anchor-versions and anchor-copies: Anchor 1.x on several releases",
)];

/// The Makefile without the paragraphs of [`TARGETS_ON_PURPOSE`] (each
/// line kept, emptied, so that line numbers hold).
fn without_targets_on_purpose(makefile: &str) -> String {
    let mut out = Vec::new();
    for paragraph in makefile.split("\n\n") {
        let on_purpose = paragraph.lines().any(|line| {
            TARGETS_ON_PURPOSE
                .iter()
                .any(|(prefix, _)| line.starts_with(prefix) && line.contains(':'))
        });
        out.push(match on_purpose {
            true => "\n".repeat(paragraph.lines().count().saturating_sub(1)),
            false => paragraph.to_string(),
        });
    }
    out.join("\n\n")
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The files in scope: `benches`' own scripts (not its subfolders, nor
/// its data), every file below the other folders.
fn files_in_scope() -> Vec<(String, String)> {
    let root = root();
    let mut out = Vec::new();
    for scope in SCOPE {
        let path = root.join(scope);
        if path.is_file() {
            out.push(path);
        } else if scope == "benches" {
            out.extend(
                std::fs::read_dir(&path)
                    .unwrap()
                    .flatten()
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|e| e == "sh")),
            );
        } else {
            walk(&path, &mut out);
        }
    }
    out.into_iter()
        .filter_map(|path| {
            let mut text = std::fs::read_to_string(&path).ok()?;
            // A module's unit tests are its tests.
            if let Some(at) = text.find("\n#[cfg(test)]") {
                text.truncate(at);
            }
            if path.ends_with("Makefile") {
                text = without_targets_on_purpose(&text);
            }
            let relative = path
                .strip_prefix(&root)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            Some((relative, text))
        })
        .collect()
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            walk(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// Where `word` is written in `text` as a word of its own (no letter or
/// digit either side), case ignored: the lines' numbers.
fn lines_naming(text: &str, word: &str) -> Vec<usize> {
    let word = word.to_lowercase();
    text.lines()
        .enumerate()
        .filter(|(_, line)| {
            let line = line.to_lowercase();
            line.match_indices(&word).any(|(at, _)| {
                let before = line[..at].chars().next_back();
                let after = line[at + word.len()..].chars().next();
                !before.is_some_and(|c| c.is_ascii_alphanumeric())
                    && !after.is_some_and(|c| c.is_ascii_alphanumeric())
            })
        })
        .map(|(n, _)| n + 1)
        .collect()
}

/// Every registered framework's name (as a folder and as a make target)
/// and title appear in the harness's shared code, the Makefile and the
/// scripts nowhere but in its oracle and the files that name frameworks
/// on purpose.
#[test]
fn a_frameworks_name_is_written_only_where_it_is_declared() {
    let files = files_in_scope();
    assert!(files.iter().any(|(path, _)| path == "Makefile"));
    let mut found = Vec::new();
    for framework in Framework::registered() {
        let words = [
            framework.name().to_string(),
            framework.name().replace('_', "-"),
            framework.title().to_string(),
        ];
        for (path, text) in &files {
            if path.starts_with(ITS_OWN)
                || NAMED_ON_PURPOSE.iter().any(|(p, _)| path.starts_with(p))
            {
                continue;
            }
            for word in &words {
                for line in lines_naming(text, word) {
                    found.push(format!("{path}:{line}: {word}"));
                }
            }
        }
    }
    found.sort();
    found.dedup();
    assert!(
        found.is_empty(),
        "a framework's name written outside programs/frameworks.toml and its oracle; declare it in the registry instead:\n{}",
        found.join("\n")
    );
}

/// Each file that names frameworks on purpose still exists and still does
/// (so the list cannot outlive the reason).
#[test]
fn each_file_named_on_purpose_still_names_a_framework() {
    let files = files_in_scope();
    for (prefix, why) in NAMED_ON_PURPOSE {
        let names = files
            .iter()
            .filter(|(path, _)| path.starts_with(prefix))
            .any(|(_, text)| {
                Framework::registered().any(|f| !lines_naming(text, f.name()).is_empty())
            });
        assert!(
            names,
            "{prefix} ({why}) names no framework: take it off the list"
        );
    }
}

/// A target on purpose's paragraph is left out, and every line keeps its
/// number.
#[test]
fn a_target_on_purposes_paragraph_is_left_out() {
    let makefile = "a: ## x\n\n# steel\nanchor-versions: ## steel\n\tcargo\n\nb: ## steel\n";
    let kept = without_targets_on_purpose(makefile);
    assert_eq!(kept.lines().count(), makefile.lines().count());
    assert_eq!(lines_naming(&kept, "steel"), vec![7]);
}

/// The check finds a name written as a word, whatever its case, and not
/// inside another word.
#[test]
fn a_name_is_found_as_a_word() {
    let text = "build-steel: x\nsteelworks\n# Steel's floor\nhopper-lang";
    assert_eq!(lines_naming(text, "steel"), vec![1, 3]);
    assert_eq!(lines_naming(text, "hopper"), vec![4]);
}
