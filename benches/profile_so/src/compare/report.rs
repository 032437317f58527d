//! What a comparison writes into `target/benches/profile/<new stem>/diff/`:
//! `summary.md` (plain markdown a CI job can post on a pull request),
//! `results.json`, and per fixture compared its differential folded
//! stacks (`<stem>.diff.folded`: each stack's base and new CUs) and
//! flamegraph (`<stem>.svg`: the new profile, coloured by growth and
//! shrinkage against the base).

use std::{collections::BTreeMap, fmt::Write as _, path::Path};

use benches::{
    compare::{self, CostChangeRecord, TOP_FRAMES},
    profile::{
        Profile,
        output::{self, folded},
    },
};
use serde::Serialize;

use super::{
    builds::{self, Compared, Comparison, headline, percent, signed},
    gate::{self, Limit},
};
use crate::report::fixture_stem;

/// Writes every file into `dir` (emptied first).
pub fn write(dir: &Path, diff: &Comparison, limit: Option<Limit>) -> Result<(), String> {
    if dir.exists() {
        std::fs::remove_dir_all(dir).map_err(|e| format!("emptying {}: {e}", dir.display()))?;
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
    let mut files = vec![
        ("summary.md".to_string(), markdown(diff, limit)),
        ("results.json".to_string(), json(diff, limit)),
    ];
    for c in &diff.compared {
        let (new, base) = profiles_of(diff, &c.fixture);
        let folded = differential(base, new)?;
        let title = format!(
            "{}: {} CUs, {} against the base's {}",
            c.fixture,
            c.cost.cus,
            signed(c.cost.change()),
            c.cost.base_cus
        );
        let subtitle = "red: more CUs than the base build, blue: fewer".to_string();
        let svg = output::draw(&c.fixture, title, Some(subtitle), &folded)?;
        files.push((format!("{}.svg", fixture_stem(&c.fixture)), svg));
        files.push((format!("{}.diff.folded", fixture_stem(&c.fixture)), folded));
    }
    for (file, text) in files {
        let path = dir.join(file);
        std::fs::write(&path, text).map_err(|e| format!("writing {}: {e}", path.display()))?;
    }
    Ok(())
}

/// The new and the base profile of `fixture`.
fn profiles_of<'d>(diff: &'d Comparison, fixture: &str) -> (&'d Profile, &'d Profile) {
    let of = |run: &'d crate::Run| {
        &run.profiled
            .iter()
            .find(|p| p.fixture == fixture)
            .expect("a compared fixture ran in both builds")
            .profile
    };
    (of(&diff.new), of(&diff.base))
}

/// The differential folded stacks: `a;b;c <base CUs> <new CUs>`.
pub fn differential(base: &Profile, new: &Profile) -> Result<String, String> {
    let mut out = Vec::new();
    inferno::differential::from_readers(
        inferno::differential::Options::default(),
        folded(base).as_bytes(),
        folded(new).as_bytes(),
        &mut out,
    )
    .map_err(|e| format!("the differential folded stacks: {e}"))?;
    String::from_utf8(out).map_err(|e| format!("the differential folded stacks: {e}"))
}

/// `summary.md`.
pub fn markdown(diff: &Comparison, limit: Option<Limit>) -> String {
    let line = |out: &mut String, text: String| writeln!(out, "{text}").expect("a String");
    let (new, base) = (&diff.new, &diff.base);
    let mut out = String::new();
    line(
        &mut out,
        format!(
            "# `{}` against its base: {} fixtures compared\n",
            new.so.name,
            diff.compared.len()
        ),
    );
    line(
        &mut out,
        format!(
            "- new: `{}` (sha256 `{}`), named by {}",
            new.so.path.display(),
            new.so.sha256,
            new.naming.describe()
        ),
    );
    line(
        &mut out,
        format!(
            "- base: `{}` (sha256 `{}`), named by {}",
            base.so.path.display(),
            base.so.sha256,
            base.naming.describe()
        ),
    );
    line(&mut out, format!("- {}", diff.matching.describe()));
    line(
        &mut out,
        format!(
            "- {} behaviour changes (kept out of the costs), {} fixtures not run by both",
            diff.behaviour.len(),
            diff.unpaired.len()
        ),
    );
    let instructions = builds::by_instruction(&diff.compared);
    if let Some(limit) = limit {
        let over = gate::over(limit, &diff.compared);
        match over.is_empty() {
            true => line(
                &mut out,
                format!("- MAX_INCREASE={}: no call past it", limit.describe()),
            ),
            false => {
                line(
                    &mut out,
                    format!(
                        "- **MAX_INCREASE={}: {} calls past it**",
                        limit.describe(),
                        over.len()
                    ),
                );
                for o in over {
                    line(&mut out, format!("  - {o}"));
                }
            }
        }
    }
    out.push_str("\n## The change, per instruction\n\n");
    for c in &instructions {
        line(&mut out, format!("- {}", headline(c)));
    }
    out.push_str("\n| instruction | fixtures | base CUs | new CUs | change | % |\n|---|---:|---:|---:|---:|---:|\n");
    for c in &instructions {
        line(
            &mut out,
            format!(
                "| `{}` | {} | {} | {} | {} | {} |",
                c.instruction,
                c.fixtures,
                c.cost.base_cus,
                c.cost.cus,
                signed(c.cost.change()),
                percent(c.cost.change(), c.cost.base_cus)
            ),
        );
    }
    out.push_str(
        "\nWhere an instruction has several fixtures, its CUs and changes are their sums.\n",
    );
    out.push_str("\n## By category\n\nEach instruction's change split by category; they sum to it.\n\n| instruction | category | change |\n|---|---|---:|\n");
    for c in &instructions {
        for (name, change) in &c.cost.categories_change {
            line(
                &mut out,
                format!("| `{}` | {name} | {} |", c.instruction, signed(*change)),
            );
        }
    }
    if matches!(diff.matching, builds::Matching::Frames(_)) {
        out.push_str(&format!("\n## Frames whose self CUs changed most\n\nEach frame with its caller (`caller → frame`), its self CUs in both builds; the {} largest changes, then the rest as one line; they sum to the instruction's change.\n", TOP_FRAMES));
        for c in &instructions {
            out.push_str(&frames_table(c));
        }
    }
    if !diff.behaviour.is_empty() {
        out.push_str("\n## Behaviour changes\n\nThe two builds answer these fixtures differently: not a change in cost, so not in the tables above.\n\n| fixture | instruction | what differs |\n|---|---|---|\n");
        for b in &diff.behaviour {
            line(
                &mut out,
                format!("| `{}` | `{}` | {} |", b.fixture, b.instruction, b.differs),
            );
        }
    }
    let refused = diff.not_compared();
    if !refused.is_empty() {
        out.push_str("\n## Not compared\n\n| fixture | why |\n|---|---|\n");
        for r in refused {
            line(&mut out, format!("| `{}` | {} |", r.fixture, r.reason));
        }
    }
    out.push_str("\n## By fixture\n\n| fixture | instruction | base CUs | new CUs | change | flamegraph |\n|---|---|---:|---:|---:|---|\n");
    for c in &diff.compared {
        let stem = fixture_stem(&c.fixture);
        line(
            &mut out,
            format!(
                "| `{}` | `{}` | {} | {} | {} | [{stem}.svg]({stem}.svg) |",
                c.fixture,
                c.instruction,
                c.cost.base_cus,
                c.cost.cus,
                signed(c.cost.change())
            ),
        );
    }
    out
}

/// One instruction's frames table, under its heading.
fn frames_table(c: &Compared) -> String {
    format!(
        "\n### `{}`: {} CUs\n\n{}",
        c.instruction,
        signed(c.cost.change()),
        compare::frames_table(&c.cost.frames_change, ("base", "new"))
    )
}

#[derive(Serialize)]
struct Record<'a> {
    fixture: &'a str,
    instruction: &'a str,
    #[serde(flatten)]
    cost: CostChangeRecord<'a>,
    flamegraph: String,
}

#[derive(Serialize)]
struct Results<'a> {
    so: String,
    sha256: &'a str,
    naming: &'static str,
    base: String,
    base_sha256: &'a str,
    base_naming: &'static str,
    /// `dwarf` or `symbols` (frames matched by name), or `totals`.
    matching: &'static str,
    matching_detail: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_increase: Option<String>,
    /// The calls past `max_increase`.
    over: Vec<String>,
    records: Vec<Record<'a>>,
    behaviour_changes: Vec<BTreeMap<&'static str, &'a str>>,
    not_compared: Vec<&'a crate::Refused>,
}

/// `results.json`.
pub fn json(diff: &Comparison, limit: Option<Limit>) -> String {
    let records = diff
        .compared
        .iter()
        .map(|c| Record {
            fixture: &c.fixture,
            instruction: &c.instruction,
            cost: c.cost.record(),
            flamegraph: format!("{}.svg", fixture_stem(&c.fixture)),
        })
        .collect();
    let results = Results {
        so: diff.new.so.path.display().to_string(),
        sha256: &diff.new.so.sha256,
        naming: diff.new.naming.kind(),
        base: diff.base.so.path.display().to_string(),
        base_sha256: &diff.base.so.sha256,
        base_naming: diff.base.naming.kind(),
        matching: diff.matching.kind(),
        matching_detail: diff.matching.describe(),
        max_increase: limit.map(|l| l.describe()),
        over: limit
            .map(|l| gate::over(l, &diff.compared))
            .unwrap_or_default(),
        records,
        behaviour_changes: diff
            .behaviour
            .iter()
            .map(|b| {
                BTreeMap::from([
                    ("fixture", b.fixture.as_str()),
                    ("instruction", b.instruction.as_str()),
                    ("differs", b.differs.as_str()),
                ])
            })
            .collect(),
        not_compared: diff.not_compared(),
    };
    serde_json::to_string_pretty(&results).expect("the results serialize") + "\n"
}
