//! The report of one IDL's run, in `target/benches/idl/<program>/`:
//! `summary.md` (also printed: a line per account type, then a table per
//! account type) and `results.json` (the families' record schema with
//! `family: "idl"`).

use std::{collections::BTreeMap, fmt::Write as _};

use serde::Serialize;

use crate::{
    generate::Plan,
    measure::{Outcome, Row},
    model::{Account, Kind, Program},
    render::Format,
};

/// A program's build result beside its rows: refused links are rows too.
#[derive(Clone, Debug)]
pub struct Refused {
    pub account: String,
    pub format: Format,
    pub reason: String,
}

/// Who built and measured it.
#[derive(Clone, Debug)]
pub struct Provenance {
    pub rustc: String,
    pub linker: String,
    pub sbpf_arch: String,
    pub crates: String,
}

/// One record of `results.json`.
#[derive(Serialize)]
struct Record<'a> {
    family: &'static str,
    program: &'a str,
    account: &'a str,
    format: &'static str,
    #[serde(rename = "crate")]
    crate_name: &'static str,
    crate_version: &'static str,
    operation: &'a str,
    instance: &'a str,
    account_bytes: Option<usize>,
    kind: &'static str,
    cus: Option<u64>,
    instructions: Option<u64>,
    syscall_cus: Option<u64>,
    stack_bytes: Option<u64>,
    call_depth: Option<u64>,
    heap_bytes: Option<u64>,
    /// `ran`, or why not (a refused link, a fault, the heap exhausted).
    outcome: String,
}

fn kind_name(account: &Account) -> &'static str {
    match (account.kind, account.assumed) {
        (_, true) if account.kind == Kind::Borsh => "borsh (assumed)",
        (_, true) => "zero-copy (assumed)",
        (Kind::Borsh, _) => "borsh",
        (Kind::ZeroCopy { packed: false }, _) => "zero-copy",
        (Kind::ZeroCopy { packed: true }, _) => "zero-copy, packed",
    }
}

/// `results.json`.
pub fn json(program: &Program, rows: &[Row], refused: &[Refused]) -> String {
    let account = |name: &str| {
        program
            .accounts
            .iter()
            .flatten()
            .find(|a| a.name == name)
            .expect("rows come from the program's accounts")
    };
    let mut records: Vec<Record> = rows
        .iter()
        .map(|row| {
            let (cus, footprint, outcome) = match &row.outcome {
                Outcome::Ran { cus, footprint } => (Some(*cus), Some(*footprint), "ran".into()),
                Outcome::CannotRun(why) => (None, None, why.clone()),
            };
            Record {
                family: "idl",
                program: &program.name,
                account: &row.account,
                format: row.format.name(),
                crate_name: row.format.crate_name(),
                crate_version: row.format.crate_version(),
                operation: row.operation,
                instance: row.instance,
                account_bytes: Some(row.account_bytes),
                kind: kind_name(account(&row.account)),
                cus,
                instructions: footprint.map(|f| f.instructions),
                syscall_cus: footprint.zip(cus).map(|(f, cus)| f.syscall_cus(cus)),
                stack_bytes: footprint.map(|f| f.stack_bytes),
                call_depth: footprint.map(|f| f.call_depth),
                heap_bytes: footprint.map(|f| f.heap_bytes),
                outcome,
            }
        })
        .collect();
    records.extend(refused.iter().map(|r| Record {
        family: "idl",
        program: &program.name,
        account: &r.account,
        format: r.format.name(),
        crate_name: r.format.crate_name(),
        crate_version: r.format.crate_version(),
        operation: "build",
        instance: "",
        account_bytes: None,
        kind: kind_name(account(&r.account)),
        cus: None,
        instructions: None,
        syscall_cus: None,
        stack_bytes: None,
        call_depth: None,
        heap_bytes: None,
        outcome: r.reason.clone(),
    }));
    serde_json::to_string_pretty(&records).expect("records serialize")
}

/// `summary.md`.
pub fn summary(
    program: &Program,
    plans: &[Plan],
    rows: &[Row],
    refused: &[Refused],
    provenance: &Provenance,
    hostile: &BTreeMap<String, u32>,
) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# {}: your accounts, measured\n\nFrom `{}` ({}), by `make idl`. Every CU below is from a case checked \
         against the host oracle (the bytes the account must hold after it); each program also ran the \
         project's hostile generator ({} cases, 0 VM faults). CUs of the `full` instance (or of your data, \
         `DATA=`); `-` where the account has no such operation.\n",
        program.name,
        program.path,
        program.format.name(),
        hostile.values().sum::<u32>(),
    );
    let _ = writeln!(
        out,
        "- rustc: {}\n- linker: {}\n- sBPF arch: {}\n- crates: {}\n",
        provenance.rustc, provenance.linker, provenance.sbpf_arch, provenance.crates
    );
    let _ = writeln!(
        out,
        "| account | kind | bytes | full | read | update | borsh full (x the cheapest) |\n|---|---|---:|---|---|---|---:|"
    );
    for account in &program.accounts {
        let account = match account {
            Ok(account) => account,
            Err(refused) => {
                let _ = writeln!(
                    out,
                    "| {} | not supported: {} | | | | | |",
                    refused.account, refused.reason
                );
                continue;
            }
        };
        let bytes = rows
            .iter()
            .find(|r| r.account == account.name && headline(r.instance))
            .map_or("-".into(), |r| r.account_bytes.to_string());
        let cheapest = |op: &str| cheapest(rows, &account.name, op);
        let borsh = cus(rows, &account.name, Format::Borsh, "full");
        let ratio = match (borsh, cheapest_cus(rows, &account.name, "full")) {
            (Some(b), Some(c)) if c > 0 => format!("{b} ({:.1}x)", b as f64 / c as f64),
            _ => refused
                .iter()
                .find(|r| r.account == account.name && r.format == Format::Borsh)
                .map_or("-".into(), |_| "link refused".into()),
        };
        let _ = writeln!(
            out,
            "| {} | {} | {bytes} | {} | {} | {} | {ratio} |",
            account.name,
            kind_name(account),
            cheapest("full"),
            cheapest("read"),
            cheapest("update")
        );
    }
    for account in program.accounts.iter().flatten() {
        let _ = writeln!(out, "\n## {} ({})\n", account.name, kind_name(account));
        let _ = writeln!(
            out,
            "| format | instance | full | read | update | stack (full) | heap (full) |\n|---|---|---:|---:|---:|---:|---:|"
        );
        for format in Format::ALL {
            if let Some(r) = refused
                .iter()
                .find(|r| r.account == account.name && r.format == format)
            {
                let _ = writeln!(out, "| {} | | {} | | | | |", format.name(), r.reason);
                continue;
            }
            for instance in ["data", "full", "empty"] {
                let of = |op: &str| {
                    rows.iter().find(|r| {
                        r.account == account.name
                            && r.format == format
                            && r.instance == instance
                            && r.operation == op
                    })
                };
                let Some(full) = of("full") else { continue };
                let cell = |op: &str| match of(op).map(|r| &r.outcome) {
                    Some(Outcome::Ran { cus, .. }) => cus.to_string(),
                    Some(Outcome::CannotRun(why)) => why.clone(),
                    None => "-".into(),
                };
                let (stack, heap) = match &full.outcome {
                    Outcome::Ran { footprint, .. } => (
                        footprint.stack_bytes.to_string(),
                        footprint.heap_bytes.to_string(),
                    ),
                    Outcome::CannotRun(_) => ("-".into(), "-".into()),
                };
                let _ = writeln!(
                    out,
                    "| {} | {instance} | {} | {} | {} | {stack} | {heap} |",
                    format.name(),
                    cell("full"),
                    cell("read"),
                    cell("update")
                );
            }
        }
        for plan in plans {
            if let Plan::Skip {
                account: name,
                format,
                reason,
            } = plan
                && *name == account.name
            {
                let _ = writeln!(out, "\nNo `{}` row: {reason}.", format.name());
            }
        }
    }
    let tally: Vec<String> = hostile.iter().map(|(k, v)| format!("{k} {v}")).collect();
    let _ = writeln!(out, "\nHostile cases, by outcome: {}.", tally.join(", "));
    out
}

/// The instance the summary's first table and ratios use: the user's data
/// where given (`DATA=`), else the generated `full` one.
fn headline(instance: &str) -> bool {
    matches!(instance, "data" | "full")
}

fn cus(rows: &[Row], account: &str, format: Format, op: &str) -> Option<u64> {
    rows.iter()
        .find(|r| {
            r.account == account && r.format == format && headline(r.instance) && r.operation == op
        })
        .and_then(|r| match r.outcome {
            Outcome::Ran { cus, .. } => Some(cus),
            Outcome::CannotRun(_) => None,
        })
}

fn cheapest_cus(rows: &[Row], account: &str, op: &str) -> Option<u64> {
    Format::ALL
        .iter()
        .filter_map(|f| cus(rows, account, *f, op))
        .min()
}

fn cheapest(rows: &[Row], account: &str, op: &str) -> String {
    let Some(min) = cheapest_cus(rows, account, op) else {
        return "-".into();
    };
    let names: Vec<&str> = Format::ALL
        .iter()
        .filter(|f| cus(rows, account, **f, op) == Some(min))
        .map(|f| f.name())
        .collect();
    format!("{} {min}", names.join(" = "))
}
