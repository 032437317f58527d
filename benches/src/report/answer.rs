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

/// A framework path and the row that gives its cost: the framework's own
/// program.
struct FrameworkPath {
    path: &'static str,
    framework: Framework,
    family: Family,
    program: &'static str,
    shape: Shape,
    read: &'static str,
    write: &'static str,
}

const FRAMEWORKS: [FrameworkPath; 24] = [
    FrameworkPath {
        path: "solana-program `entrypoint!` + borsh",
        framework: Framework::SolanaProgram,
        family: Family::Token,
        program: "token/borsh",
        shape: Shape::Exact,
        read: "read_owner",
        write: "update_amount",
    },
    FrameworkPath {
        path: "solana-program `entrypoint!` + `Pack` (SPL's own style)",
        framework: Framework::SolanaProgram,
        family: Family::Token,
        program: "token/pack",
        shape: Shape::Exact,
        read: "read_owner",
        write: "update_amount",
    },
    FrameworkPath {
        path: "solana-program's floor (its entrypoint and the same dispatch, no operation)",
        framework: Framework::SolanaProgram,
        family: Family::Token,
        program: "noop",
        shape: Shape::Exact,
        read: "read_owner",
        write: "update_amount",
    },
    FrameworkPath {
        path: "Anchor 1.x `Account<T>` (borsh)",
        framework: Framework::Anchor1,
        family: Family::Token,
        program: "token/account",
        shape: Shape::Exact,
        read: "read_owner",
        write: "update_amount",
    },
    FrameworkPath {
        path: "Anchor 1.x `AccountLoader<T>` (zero-copy)",
        framework: Framework::Anchor1,
        family: Family::Token,
        program: "token/account_loader",
        shape: Shape::Exact,
        read: "read_owner",
        write: "update_amount",
    },
    FrameworkPath {
        path: "Anchor 1.x `LazyAccount<T>`",
        framework: Framework::Anchor1,
        family: Family::Token,
        program: "token/lazy_account",
        shape: Shape::Exact,
        read: "read_owner",
        write: "update_amount",
    },
    FrameworkPath {
        path: "Anchor 1.x `Account<T>`, metadata record",
        framework: Framework::Anchor1,
        family: Family::Metadata,
        program: "metadata/account",
        shape: Shape::Exact,
        read: "read_royalty",
        write: "set_uri",
    },
    FrameworkPath {
        path: "Anchor 1.x `LazyAccount<T>`, metadata record",
        framework: Framework::Anchor1,
        family: Family::Metadata,
        program: "metadata/lazy_account",
        shape: Shape::Exact,
        read: "read_royalty",
        write: "set_uri",
    },
    FrameworkPath {
        path: "Anchor 1.x's floor (a no-op taking the same accounts)",
        framework: Framework::Anchor1,
        family: Family::Token,
        program: "noop",
        shape: Shape::Exact,
        read: "read_owner",
        write: "update_amount",
    },
    FrameworkPath {
        path: "Anchor 2 `Account<T>` (zero-copy)",
        framework: Framework::Anchor2,
        family: Family::Token,
        program: "token/account",
        shape: Shape::Exact,
        read: "read_owner",
        write: "update_amount",
    },
    FrameworkPath {
        path: "Anchor 2 `BorshAccount<T>`",
        framework: Framework::Anchor2,
        family: Family::Token,
        program: "token/borsh_account",
        shape: Shape::Exact,
        read: "read_owner",
        write: "update_amount",
    },
    FrameworkPath {
        path: "Anchor 2 `BorshAccount<T>`, metadata record",
        framework: Framework::Anchor2,
        family: Family::Metadata,
        program: "metadata/borsh_account",
        shape: Shape::Exact,
        read: "read_royalty",
        write: "set_uri",
    },
    FrameworkPath {
        path: "Anchor 2's floor (a no-op taking the same accounts)",
        framework: Framework::Anchor2,
        family: Family::Token,
        program: "noop",
        shape: Shape::Exact,
        read: "read_owner",
        write: "update_amount",
    },
    FrameworkPath {
        path: "typhoon `Account<T>` (zero-copy)",
        framework: Framework::Typhoon,
        family: Family::Token,
        program: "token/account",
        shape: Shape::Exact,
        read: "read_owner",
        write: "update_amount",
    },
    FrameworkPath {
        path: "typhoon's floor (a no-op taking the same accounts)",
        framework: Framework::Typhoon,
        family: Family::Token,
        program: "noop",
        shape: Shape::Exact,
        read: "read_owner",
        write: "update_amount",
    },
    FrameworkPath {
        path: "Steel `as_account` (zero-copy, on solana-program)",
        framework: Framework::Steel,
        family: Family::Token,
        program: "token/account",
        shape: Shape::Exact,
        read: "read_owner",
        write: "update_amount",
    },
    FrameworkPath {
        path: "the metadata record at fixed capacity",
        framework: Framework::Steel,
        family: Family::Metadata,
        program: "metadata/account",
        shape: Shape::Exact,
        read: "read_royalty",
        write: "set_uri",
    },
    FrameworkPath {
        path: "Steel's floor (a no-op taking the same accounts)",
        framework: Framework::Steel,
        family: Family::Token,
        program: "noop",
        shape: Shape::Exact,
        read: "read_owner",
        write: "update_amount",
    },
    FrameworkPath {
        path: "star_frame `Account<T>` (zero-copy)",
        framework: Framework::StarFrame,
        family: Family::Token,
        program: "token/account",
        shape: Shape::Exact,
        read: "read_owner",
        write: "update_amount",
    },
    FrameworkPath {
        path: "the metadata record in its unsized types",
        framework: Framework::StarFrame,
        family: Family::Metadata,
        program: "metadata/account",
        shape: Shape::Exact,
        read: "read_royalty",
        write: "set_uri",
    },
    FrameworkPath {
        path: "star_frame's floor (a no-op taking the same accounts)",
        framework: Framework::StarFrame,
        family: Family::Token,
        program: "noop",
        shape: Shape::Exact,
        read: "read_owner",
        write: "update_amount",
    },
    FrameworkPath {
        path: "Hopper `Account<T>` (zero-copy, headered)",
        framework: Framework::Hopper,
        family: Family::Token,
        program: "token/account",
        shape: Shape::Exact,
        read: "read_owner",
        write: "update_amount",
    },
    FrameworkPath {
        path: "the metadata record at fixed capacity",
        framework: Framework::Hopper,
        family: Family::Metadata,
        program: "metadata/account",
        shape: Shape::Exact,
        read: "read_royalty",
        write: "set_uri",
    },
    FrameworkPath {
        path: "Hopper's floor (a no-op taking the same accounts)",
        framework: Framework::Hopper,
        family: Family::Token,
        program: "noop",
        shape: Shape::Exact,
        read: "read_owner",
        write: "update_amount",
    },
];

/// The borsh paths a framework program runs, beside a question's rows:
/// the framework's program of that family and its operation (the token
/// family's `read_owner` and `update_amount`, the metadata family's
/// `read_royalty` and `set_uri`).
const BORSH_IN_A_FRAMEWORK: [(&str, Framework, &str); 3] = [
    ("solana-program", Framework::SolanaProgram, "borsh"),
    ("Anchor 1.x `Account<T>`", Framework::Anchor1, "account"),
    (
        "Anchor 2 `BorshAccount<T>`",
        Framework::Anchor2,
        "borsh_account",
    ),
];

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
        let in_frameworks: Vec<String> = BORSH_IN_A_FRAMEWORK
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
    let version = |name: &str| run.provenance.crates.get(name).map_or("?", String::as_str);
    let _ = write!(
        out,
        "\nWhat the common framework paths cost, each a real program measured with its framework's entrypoint, dispatch and checks (anchor-lang {} and {}, solana-program {}, typhoon {}, steel {}, star_frame {}, hopper-lang {}; [docs/frameworks.md](docs/frameworks.md)):\n\n",
        version("anchor-lang (anchor1)"),
        version("anchor-lang"),
        version("solana-program"),
        version("typhoon"),
        version("steel"),
        version("star_frame"),
        version("hopper-lang"),
    );
    // A framework measured with one account type of the token record: one
    // line, its metadata record's program (if any) and then its floor after
    // the account type's.
    let paths_of =
        |framework: Framework| FRAMEWORKS.iter().filter(move |p| p.framework == framework);
    let token_type = |p: &FrameworkPath| p.family == Family::Token && p.program != "noop";
    let single = |framework: Framework| paths_of(framework).filter(|p| token_type(p)).count() == 1;
    let figures = |p: &FrameworkPath| {
        let find = |op: &str| {
            measurements.iter().chain(frameworks).find(|m| {
                m.framework == p.framework
                    && m.family == p.family
                    && m.program == p.program
                    && m.shape == p.shape
                    && m.operation == op
                    && (p.family != Family::Metadata || m.instance == Some("typical"))
            })
        };
        let (r, w) = (find(p.read)?, find(p.write)?);
        let label = crate::Program::label_in(p.framework, p.family, p.shape, p.program);
        Some(format!(
            "`{label}`, {} {}, {} {}",
            p.read,
            cell(r),
            p.write,
            cell(w)
        ))
    };
    for path in &FRAMEWORKS {
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
