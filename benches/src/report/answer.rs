//! The README's first screen: which crate for which kind of account, from
//! one run's measurements (`make bench` writes it to
//! target/benches/answer.md; a test holds the README's copy to this tree's
//! numbers, so it cannot go stale).

use std::fmt::Write as _;

use crate::{
    Family, Framework, Shape,
    numbers::thousands,
    report::{Measurement, Run},
};

/// One question a program author asks, and the rows that answer it.
struct Question {
    account: &'static str,
    /// What the row measures: the token shape, message size or metadata
    /// instance, in words.
    measured: &'static str,
    operation_text: &'static str,
    family: Family,
    operation: &'static str,
    /// The token shape, message size or metadata instance.
    group: Group,
}

#[derive(Clone, Copy)]
enum Group {
    Shape(Shape),
    Size(usize),
    Instance(&'static str),
}

const QUESTIONS: [Question; 7] = [
    Question {
        account: "fixed size (a 160-byte token account)",
        measured: "`exact` shape: the length checked to the byte first",
        operation_text: "read one field",
        family: Family::Token,
        operation: "read_owner",
        group: Group::Shape(Shape::Exact),
    },
    Question {
        account: "fixed size",
        measured: "`exact` shape",
        operation_text: "change one field, write it back",
        family: Family::Token,
        operation: "update_amount",
        group: Group::Shape(Shape::Exact),
    },
    Question {
        account: "lists (`Vec`s: a 5.4 KB message)",
        measured: "the 5.4 KB instance",
        operation_text: "read one list entry",
        family: Family::Message,
        operation: "read_instruction",
        group: Group::Size(5400),
    },
    Question {
        account: "lists",
        measured: "the 5.4 KB instance",
        operation_text: "append an entry (the account grows)",
        family: Family::Message,
        operation: "push_key",
        group: Group::Size(5400),
    },
    Question {
        account: "strings, options, enums (NFT metadata)",
        measured: "the `typical` instance",
        operation_text: "read one field",
        family: Family::Metadata,
        operation: "read_royalty",
        group: Group::Instance("typical"),
    },
    Question {
        account: "strings, options, enums",
        measured: "the `typical` instance",
        operation_text: "replace a string",
        family: Family::Metadata,
        operation: "set_uri",
        group: Group::Instance("typical"),
    },
    Question {
        account: "large (a 10 KB message)",
        measured: "the 10 KB instance",
        operation_text: "decode and check all of it",
        family: Family::Message,
        operation: "full",
        group: Group::Size(10136),
    },
];

fn in_group(m: &Measurement, family: Family, operation: &str, group: Group) -> bool {
    m.family == family
        && m.operation == operation
        && match group {
            Group::Shape(shape) => m.shape == shape,
            Group::Size(size) => m.size == Some(size),
            Group::Instance(instance) => m.instance == Some(instance),
        }
}

/// A framework path and the rows that give its cost: the framework's own
/// program, in the `exact` shape (a token program's `read_owner` and
/// `update_amount`, a metadata program's `read_royalty` and `set_uri`).
struct FrameworkPath {
    path: String,
    framework: Framework,
    family: Family,
    program: &'static str,
}

impl FrameworkPath {
    fn new(path: impl Into<String>, framework: Framework, program: &'static str) -> Self {
        // `<family>/<program>`; a framework's floor (`noop`) takes the
        // token family's calls.
        let family = Family::ALL
            .into_iter()
            .find(|f| program.split('/').next() == Some(f.name()))
            .unwrap_or(Family::Token);
        FrameworkPath {
            path: path.into(),
            framework,
            family,
            program,
        }
    }

    /// The operation that reads one field, and the one that writes one.
    fn operations(&self) -> [&'static str; 2] {
        match self.family {
            Family::Metadata => ["read_royalty", "set_uri"],
            _ => ["read_owner", "update_amount"],
        }
    }
}

/// solana-program's paths: the token programs on its entrypoint.
const SOLANA_PROGRAM_PATHS: [(&str, &str); 3] = [
    ("token/borsh", "solana-program `entrypoint!` + borsh"),
    (
        "token/pack",
        "solana-program `entrypoint!` + `Pack` (SPL's own style)",
    ),
    (
        "noop",
        "solana-program's floor (its entrypoint and the same dispatch, no operation)",
    ),
];

/// Every framework path: solana-program's, then each registered
/// framework's, as `programs/frameworks.toml` words them, its floor last.
fn framework_paths() -> Vec<FrameworkPath> {
    let mut paths: Vec<FrameworkPath> = SOLANA_PROGRAM_PATHS
        .iter()
        .map(|&(program, path)| FrameworkPath::new(path, Framework::SOLANA_PROGRAM, program))
        .collect();
    for framework in Framework::registered() {
        for line in &framework.entry().path {
            paths.push(FrameworkPath::new(&line.line, framework, &line.program));
        }
        let floor = format!(
            "{}'s floor (a no-op taking the same accounts)",
            framework.title()
        );
        paths.push(FrameworkPath::new(floor, framework, "noop"));
    }
    paths
}

/// The borsh paths a framework program runs, beside a question's rows:
/// the framework's program of that family and its operation (the token
/// family's `read_owner` and `update_amount`, the metadata family's
/// `read_royalty` and `set_uri`): solana-program's, then each registered
/// framework's that declares one.
fn borsh_in_a_framework() -> Vec<(&'static str, Framework, &'static str)> {
    let mut paths = vec![("solana-program", Framework::SOLANA_PROGRAM, "borsh")];
    for framework in Framework::registered() {
        if let Some(borsh) = &framework.entry().borsh {
            paths.push((&borsh.line, framework, &borsh.program));
        }
    }
    paths
}

/// The frameworks' crates and versions, each crate once in the order its
/// first framework comes (`anchor-lang 1.2.2 and 2.0.0`).
fn framework_versions(run: &Run) -> String {
    let mut crates: Vec<(&str, Vec<&str>)> = Vec::new();
    for framework in Framework::others() {
        let key = framework.crate_key();
        let version = run.provenance.crates.get(&key).map_or("?", String::as_str);
        match crates
            .iter_mut()
            .find(|(name, _)| *name == framework.crate_name())
        {
            Some((_, versions)) => versions.push(version),
            None => crates.push((framework.crate_name(), vec![version])),
        }
    }
    crates
        .iter()
        .map(|(name, versions)| format!("{name} {}", versions.join(" and ")))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The answer block's text (`make docs` puts it between the README's
/// marks): the crates' rows (`run.measurements`), each with borsh's figure
/// where the compiler does not know the length (the `unchecked` shape, as a
/// framework decodes) and in the framework programs that decode the same
/// record with borsh; then every framework path (`run.frameworks`).
pub fn markdown(run: &Run) -> String {
    let (measurements, frameworks, mainnet) = (&run.measurements, &run.frameworks, &run.mainnet);
    let cell = |m: &Measurement| format!("{}{}", thousands(m.cus), mainnet.mark(&m.row()));
    let mut out = String::from(
        "| account | measured | operation | cheapest (CUs) | borsh (x the cheapest) | borsh in a framework (CUs) |\n|---|---|---|---|---:|---|\n",
    );
    let mut marked = false;
    for q in &QUESTIONS {
        let mut rows: Vec<&Measurement> = measurements
            .iter()
            .filter(|m| in_group(m, q.family, q.operation, q.group))
            .collect();
        rows.sort_by_key(|m| (m.cus, m.program.clone()));
        // Ties share one figure: `a = b 55`.
        let mut cheapest: Vec<String> = Vec::new();
        let mut shown = 0;
        for tier in rows.chunk_by(|a, b| a.cus == b.cus) {
            if shown >= 3 {
                break;
            }
            let names: Vec<&str> = tier.iter().map(|m| m.program.as_str()).collect();
            cheapest.push(format!("{} {}", names.join(" = "), cell(tier[0])));
            shown += tier.len();
        }
        let borsh = rows.iter().find(|m| m.program == "borsh");
        let least = rows.first().map_or(1, |m| m.cus.max(1));
        marked |= rows.iter().any(|m| !mainnet.mark(&m.row()).is_empty());
        let unchecked = match q.group {
            Group::Shape(_) => measurements.iter().find(|m| {
                in_group(m, q.family, q.operation, Group::Shape(Shape::Unchecked))
                    && m.program == "borsh"
            }),
            _ => None,
        };
        let borsh_cell = borsh.map_or("-".into(), |m| {
            let ratio = m.cus as f64 / least as f64;
            let precision = if ratio < 10.0 { 1 } else { 0 };
            let unchecked =
                unchecked.map_or(String::new(), |u| format!("; `unchecked` {}", cell(u)));
            format!("{} ({ratio:.precision$}x){unchecked}", cell(m))
        });
        let in_frameworks: Vec<String> = borsh_in_a_framework()
            .iter()
            .filter_map(|(name, framework, program)| {
                let program = format!("{}/{program}", q.family.name());
                frameworks
                    .iter()
                    .chain(measurements)
                    .find(|m| {
                        m.framework == *framework
                            && m.family == q.family
                            && m.program == program
                            && m.operation == q.operation
                            && (q.family != Family::Metadata || m.instance == Some("typical"))
                    })
                    .map(|m| format!("{name} {}", cell(m)))
            })
            .collect();
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {borsh_cell} | {} |",
            q.account,
            q.measured,
            q.operation_text,
            cheapest.join(", "),
            if in_frameworks.is_empty() {
                "-".to_string()
            } else {
                in_frameworks.join(", ")
            },
        );
    }
    let _ = write!(
        out,
        "\nWhat the common framework paths cost, each a real program measured with its framework's entrypoint, dispatch and checks ({}; [docs/frameworks.md](docs/frameworks.md)):\n\n",
        framework_versions(run),
    );
    let paths = framework_paths();
    // A framework measured with one account type of the token record: one
    // line, its metadata record's program (if any) and then its floor after
    // the account type's.
    let paths_of = |framework: Framework| paths.iter().filter(move |p| p.framework == framework);
    let token_type = |p: &FrameworkPath| p.family == Family::Token && p.program != "noop";
    let single = |framework: Framework| paths_of(framework).filter(|p| token_type(p)).count() == 1;
    let figures = |p: &FrameworkPath| {
        let find = |op: &str| {
            measurements.iter().chain(frameworks).find(|m| {
                m.framework == p.framework
                    && m.family == p.family
                    && m.program == p.program
                    && m.shape == Shape::Exact
                    && m.operation == op
                    && (p.family != Family::Metadata || m.instance == Some("typical"))
            })
        };
        let [read, write] = p.operations();
        let (r, w) = (find(read)?, find(write)?);
        let label = crate::Program::label_in(p.framework, p.family, Shape::Exact, p.program);
        Some(format!(
            "`{label}`, {read} {}, {write} {}",
            cell(r),
            cell(w)
        ))
    };
    for path in &paths {
        if single(path.framework) && !token_type(path) {
            continue;
        }
        let Some(own) = figures(path) else { continue };
        let mut beside = String::new();
        if single(path.framework) {
            for other in paths_of(path.framework).filter(|p| !token_type(p)) {
                let Some(figures) = figures(other) else {
                    continue;
                };
                let _ = match other.program {
                    "noop" => write!(
                        beside,
                        "; its floor (a no-op taking the same accounts): {figures} CUs"
                    ),
                    _ => write!(beside, "; {}: {figures} CUs", other.path),
                };
            }
        }
        let _ = writeln!(out, "- {}: {own} CUs{beside}", path.path);
    }
    out.push_str("- a pinocchio program: whatever it calls; find the crate's row.\n");
    if marked {
        out.push_str(
            "\n† faults with mainnet's runtime features (the LiteSVM replay); see [docs/replay.md](docs/replay.md).\n",
        );
    }
    out
}
