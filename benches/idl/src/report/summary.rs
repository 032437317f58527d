//! `summary.md`: a line per account type, then a table per site and
//! account type, the refusals and the moves.

use std::{collections::BTreeMap, fmt::Write as _};

use benches::provenance::Provenance;

use super::{
    moves,
    names::{hex, kind_name},
};
use crate::{
    measure::{Measured, Row},
    model::{Program, Site},
    plan::{Found, NoRow, Plan},
    render::{AccountCodec, AccountWrapper, ArgumentCodec, EventCodec, RowFormat},
};

/// `summary.md`.
pub fn summary(
    program: &Program,
    plans: &[Plan],
    (rows, accounts): (&[Row], &[moves::Moves]),
    refused: &[NoRow],
    skipped: &[NoRow],
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
        program.dialect.name(),
        hostile.values().sum::<u32>(),
    );
    let _ = writeln!(out, "{}", provenance.stable_markdown());
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
                    refused.name, refused.reason
                );
                continue;
            }
        };
        let bytes = rows
            .iter()
            .find(|r| r.name == account.name && headline(r.instance))
            .map_or("-".into(), |r| {
                match crate::layout::header_and_item(account) {
                    // A header, then items to the end: say how it splits.
                    Some((header, item)) if r.account_bytes >= header => format!(
                        "{} ({header} + {} x {item})",
                        r.account_bytes,
                        (r.account_bytes - header) / item
                    ),
                    _ => r.account_bytes.to_string(),
                }
            });
        let cheapest = |op: &str| cheapest(rows, &account.name, op);
        let borsh = cus(rows, &account.name, RowFormat::Borsh, "full");
        let ratio = match (borsh, cheapest_cus(rows, &account.name, "full")) {
            (Some(b), Some(c)) if c > 0 => format!("{b} ({:.1}x)", b as f64 / c as f64),
            _ => refused
                .iter()
                .find(|r| r.name == account.name && r.format == RowFormat::Borsh)
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
        let formats = AccountCodec::ALL
            .map(RowFormat::from)
            .into_iter()
            .chain(AccountWrapper::ALL.map(RowFormat::from));
        for format in formats {
            if let Some(r) = refused
                .iter()
                .find(|r| r.name == account.name && r.format == format)
            {
                let _ = writeln!(out, "| {} | | {} | | | | |", format.name(), r.reason);
                continue;
            }
            for instance in ["data", "full", "empty"] {
                let of = |op: &str| {
                    rows.iter().find(|r| {
                        r.name == account.name
                            && r.format == format
                            && r.instance == instance
                            && r.operation == op
                    })
                };
                let Some(full) = of("full") else { continue };
                let cell = |op: &str| match of(op).map(|r| &r.outcome) {
                    Some(Measured::Ran { cus, .. }) => cus.to_string(),
                    Some(Measured::CannotRun(why)) => why.clone(),
                    None => "-".into(),
                };
                let (stack, heap) = match &full.outcome {
                    Measured::Ran { footprint, .. } => (
                        footprint.stack_bytes.to_string(),
                        footprint.heap_bytes.to_string(),
                    ),
                    Measured::CannotRun(_) => ("-".into(), "-".into()),
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
    out.push_str(&moves::section(
        accounts,
        &moves::of_sites(program, rows),
        provenance
            .crates
            .get("anchor-lang")
            .map_or(crate::render::anchor1::ANCHOR_LANG, String::as_str),
    ));
    site_section(&mut out, program, Site::Instruction, rows, refused, skipped);
    site_section(&mut out, program, Site::Event, rows, refused, skipped);
    let tally: Vec<String> = hostile.iter().map(|(k, v)| format!("{k} {v}")).collect();
    let _ = writeln!(out, "\nHostile cases, by outcome: {}.", tally.join(", "));
    out
}

/// The instructions' or events' section: a line per instruction or event,
/// its CUs in each format beside the floor, and why a format has no row.
fn site_section(
    out: &mut String,
    program: &Program,
    site: Site,
    rows: &[Row],
    refused: &[NoRow],
    skipped: &[NoRow],
) {
    let (names, unsupported): (Vec<(&str, &[u8])>, Vec<&crate::model::Unsupported>) = match site {
        Site::Instruction => (
            program
                .instructions
                .iter()
                .flatten()
                .map(|i| (i.name.as_str(), i.discriminator.as_slice()))
                .collect(),
            program
                .instructions
                .iter()
                .filter_map(|i| i.as_ref().err())
                .collect(),
        ),
        _ => (
            program
                .events
                .iter()
                .flatten()
                .map(|e| (e.name.as_str(), e.discriminator.as_slice()))
                .collect(),
            program
                .events
                .iter()
                .filter_map(|e| e.as_ref().err())
                .collect(),
        ),
    };
    if names.is_empty() && unsupported.is_empty() {
        return;
    }
    let (formats, intro, bytes_header) = match site {
        Site::Instruction => (
            &ArgumentCodec::ALL.map(RowFormat::from)[..],
            "\n## Instructions: arguments\n\nEach instruction's arguments (operation `args`): the dispatch on its discriminator, \
             then every argument decoded and validated, then one argument stored in account [0] (checked). One program per \
             format holds every instruction, as a real program does; `floor` is the same dispatch and store with no decode, \
             so a format's own cost is its CUs minus the floor's. CUs of the generated arguments (strings of the \
             `STRING_LEN`, lists of `VEC_LEN`).\n",
            "data bytes",
        ),
        _ => (
            &EventCodec::ALL.map(RowFormat::from)[..],
            "\n## Events\n\nEach event (operation `emit`): the dispatch on its discriminator, the event built from the \
             instruction data (the same wincode decode in borsh's, wincode's and the walk's programs; one copy for \
             bytemuck), encoded after its discriminator as `emit!` does, and logged with `sol_log_data` (the logged \
             bytes checked). `floor` logs the instruction data as it came: a format's own cost (build and encode) is its \
             CUs minus the floor's. `log` is the `sol_log_data` syscall's share of the floor's CUs (it is the same in \
             every format: the same bytes are logged).\n",
            "logged bytes",
        ),
    };
    let _ = writeln!(out, "{intro}");
    // The Anchor 1.x program's paths too, where the IDL is Anchor's.
    let anchor = match site {
        Site::Instruction => &[RowFormat::Anchor1Instruction][..],
        _ => &[RowFormat::Anchor1Emit, RowFormat::Anchor1EmitCpi][..],
    };
    let formats: Vec<RowFormat> = formats
        .iter()
        .chain(
            anchor
                .iter()
                .filter(|f| rows.iter().any(|r| r.site == site && r.format == **f)),
        )
        .copied()
        .collect();
    let header: Vec<&str> = formats.iter().map(|f| f.name()).collect();
    let log_header = if site == Site::Event { " log |" } else { "" };
    let log_rule = if site == Site::Event { "---:|" } else { "" };
    let _ = writeln!(
        out,
        "| {} | discriminator | {bytes_header} | {} |{log_header} cheapest | borsh (x the cheapest) |\n|---|---|---:|{}{log_rule}---|---:|",
        site.name(),
        header.join(" | "),
        "---:|".repeat(formats.len())
    );
    let of = |name: &str, format: RowFormat| {
        rows.iter()
            .find(|r| r.site == site && r.name == name && r.format == format)
    };
    let ran = |name: &str, format: RowFormat| match of(name, format).map(|r| &r.outcome) {
        Some(Measured::Ran { cus, .. }) => Some(*cus),
        _ => None,
    };
    for u in &unsupported {
        let _ = writeln!(
            out,
            "| {} | | | not supported: {} |{}",
            u.name,
            u.reason,
            " |".repeat(formats.len() + 1 + usize::from(site == Site::Event))
        );
    }
    for (name, discriminator) in names {
        let bytes = formats
            .iter()
            .find_map(|f| of(name, *f))
            .map_or("-".into(), |r| r.account_bytes.to_string());
        let cells: Vec<String> = formats
            .iter()
            .map(|f| match of(name, *f).map(|r| &r.outcome) {
                Some(Measured::Ran { cus, .. }) => cus.to_string(),
                Some(Measured::CannotRun(why)) => why.clone(),
                None if refused.iter().any(|r| r.site == site && r.format == *f) => {
                    "link refused".into()
                }
                None => "-".into(),
            })
            .collect();
        let log = match of(name, RowFormat::Floor).map(|r| &r.outcome) {
            Some(Measured::Ran { cus, footprint }) if site == Site::Event => {
                format!(" {} |", footprint.syscall_cus(*cus))
            }
            _ if site == Site::Event => " - |".into(),
            _ => String::new(),
        };
        let decoders = formats.iter().filter(|f| **f != RowFormat::Floor);
        let cheapest = decoders.clone().filter_map(|f| ran(name, *f)).min();
        let (cheapest_cell, ratio) = match cheapest {
            Some(min) => {
                let names: Vec<&str> = decoders
                    .filter(|f| ran(name, **f) == Some(min))
                    .map(|f| f.name())
                    .collect();
                let ratio = ran(name, RowFormat::Borsh)
                    .filter(|_| min > 0)
                    .map_or("-".into(), |b| format!("{:.1}x", b as f64 / min as f64));
                (format!("{} {min}", names.join(" = ")), ratio)
            }
            None => ("-".into(), "-".into()),
        };
        let _ = writeln!(
            out,
            "| {name} | {} | {bytes} | {} |{log} {cheapest_cell} | {ratio} |",
            hex(discriminator),
            cells.join(" | ")
        );
    }
    // Why a format has no row, grouped by reason.
    let mut reasons: BTreeMap<(RowFormat, &str, Option<Found>), Vec<&str>> = BTreeMap::new();
    for s in skipped.iter().filter(|s| s.site == site) {
        reasons
            .entry((s.format, &s.reason, s.found))
            .or_default()
            .push(&s.name);
    }
    for ((format, reason, found), names) in reasons {
        let how = found.map_or(String::new(), |f| format!(" ({})", f.words()));
        let _ = writeln!(
            out,
            "\nNo `{}` row for {}: {reason}{how}.",
            format.name(),
            names
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    for r in refused.iter().filter(|r| r.site == site) {
        let _ = writeln!(out, "\nThe `{}` program: {}.", r.format.name(), r.reason);
    }
}

/// The instance the summary's first table and ratios use: the user's data
/// where given (`DATA=`), else the generated `full` one.
fn headline(instance: &str) -> bool {
    matches!(instance, "data" | "full")
}

fn cus(rows: &[Row], account: &str, format: RowFormat, op: &str) -> Option<u64> {
    rows.iter()
        .find(|r| {
            r.name == account && r.format == format && headline(r.instance) && r.operation == op
        })
        .and_then(|r| match r.outcome {
            Measured::Ran { cus, .. } => Some(cus),
            Measured::CannotRun(_) => None,
        })
}

fn cheapest_cus(rows: &[Row], account: &str, op: &str) -> Option<u64> {
    AccountCodec::ALL
        .map(RowFormat::from)
        .iter()
        .filter_map(|f| cus(rows, account, *f, op))
        .min()
}

fn cheapest(rows: &[Row], account: &str, op: &str) -> String {
    let Some(min) = cheapest_cus(rows, account, op) else {
        return "-".into();
    };
    let names: Vec<&str> = AccountCodec::ALL
        .map(RowFormat::from)
        .iter()
        .filter(|f| cus(rows, account, **f, op) == Some(min))
        .map(|f| f.name())
        .collect();
    format!("{} {min}", names.join(" = "))
}
