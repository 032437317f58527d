//! The report of one IDL's run, in `target/benches/idl/<program>/`:
//! `summary.md` (also printed: a line per account type, then a table per
//! account type) and `results.json` (the families' record schema with
//! `family: "idl"`).

use std::{collections::BTreeMap, fmt::Write as _};

use benches::report::Provenance;
use serde::Serialize;

pub mod moves;

use crate::{
    measure::{Measured, Row},
    model::{Account, Kind, Program, Site},
    plan::{NoRow, Plan},
    render::Format,
};

/// One record of `results.json`.
#[derive(Serialize)]
struct Record<'a> {
    family: &'static str,
    /// `pinocchio` (the generated formats) or `anchor1` (the program as
    /// Anchor 1.x holds the account: `make idl` on an Anchor IDL).
    framework: &'static str,
    program: &'a str,
    /// The row's name, as `cases.json` names its case (measured rows).
    #[serde(skip_serializing_if = "Option::is_none")]
    row: Option<String>,
    /// `account`, `instruction` or `event`: where the program serializes.
    site: &'static str,
    /// The account type's, instruction's or event's name.
    name: &'a str,
    /// The account type's name (account rows only).
    #[serde(skip_serializing_if = "Option::is_none")]
    account: Option<&'a str>,
    /// The instruction's or event's discriminator, in hex.
    #[serde(skip_serializing_if = "Option::is_none")]
    discriminator: Option<String>,
    format: &'static str,
    #[serde(rename = "crate")]
    crate_name: &'static str,
    crate_version: &'static str,
    operation: &'a str,
    instance: &'a str,
    /// The account's bytes; for an instruction, the instruction data's.
    account_bytes: Option<usize>,
    /// The account's layout (account rows only).
    #[serde(skip_serializing_if = "Option::is_none")]
    kind: Option<&'static str>,
    cus: Option<u64>,
    instructions: Option<u64>,
    syscall_cus: Option<u64>,
    stack_bytes: Option<u64>,
    call_depth: Option<u64>,
    heap_bytes: Option<u64>,
    /// `ran`, or why not (a refused link, a fault, the heap exhausted).
    outcome: String,
    /// Whether the row runs alike with mainnet's runtime features: `null`
    /// until `make litesvm IDL_RUN=<this run>` replays it and says.
    mainnet_ok: Option<bool>,
    /// A row of the moves table (operation `move`): a path the account
    /// could take, against the one it takes today.
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    move_of: Option<MoveMark>,
}

/// What a `move` record adds: today's path, the change of `full`'s CUs
/// against it, and the account's rent-exempt minimum.
#[derive(Serialize)]
struct MoveMark {
    today: &'static str,
    /// 0 for today's path, then 1, 2, ... cheapest first.
    rank: usize,
    change_cus: Option<i64>,
    read_cus: Option<u64>,
    update_cus: Option<u64>,
    /// Account moves only.
    #[serde(skip_serializing_if = "Option::is_none")]
    rent_lamports: Option<u64>,
    /// The same fields reordered with no padding (today's row only, where
    /// the layout has padding): its bytes and the rent it saves.
    #[serde(skip_serializing_if = "Option::is_none")]
    reordered_bytes: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reordered_rent_saved: Option<u64>,
}

fn kind_name(account: &Account) -> &'static str {
    match (account.kind, account.assumed) {
        (_, true) if account.kind == Kind::Borsh => "borsh (assumed)",
        (_, true) => "zero-copy (assumed)",
        (Kind::Borsh, _) => "borsh",
        (Kind::ZeroCopy { packed: false }, _) => "zero-copy",
        (Kind::ZeroCopy { packed: true }, _) => "zero-copy, packed",
        (Kind::Codama, _) => "Codama (the bytes described)",
    }
}

/// `results.json`.
/// `anchor` is the anchor-lang release the Anchor programs built with.
pub fn json(
    program: &Program,
    rows: &[Row],
    refused: &[NoRow],
    skipped: &[NoRow],
    anchor: &'static str,
) -> String {
    let record = |site, name, format: Format| Record {
        crate_version: if format.is_anchor1() {
            anchor
        } else {
            format.crate_version()
        },
        ..base(program, site, name, format)
    };
    let mut records: Vec<Record> = rows
        .iter()
        .map(|row| {
            let (cus, footprint, outcome) = match &row.outcome {
                Measured::Ran { cus, footprint } => (Some(*cus), Some(*footprint), "ran".into()),
                Measured::CannotRun(why) => (None, None, why.clone()),
            };
            Record {
                operation: row.operation,
                instance: row.instance,
                account_bytes: Some(row.account_bytes),
                cus,
                instructions: footprint.map(|f| f.instructions),
                syscall_cus: footprint.zip(cus).map(|(f, cus)| f.syscall_cus(cus)),
                stack_bytes: footprint.map(|f| f.stack_bytes),
                call_depth: footprint.map(|f| f.call_depth),
                heap_bytes: footprint.map(|f| f.heap_bytes),
                outcome,
                row: Some(row.key()),
                ..record(row.site, &row.name, row.format)
            }
        })
        .collect();
    records.extend(refused.iter().map(|r| Record {
        outcome: r.reason.clone(),
        ..record(r.site, &r.name, r.format)
    }));
    records.extend(skipped.iter().map(|s| Record {
        operation: operation(s.site),
        outcome: format!("not measured: {}", s.reason),
        ..record(s.site, &s.name, s.format)
    }));
    let all_moves = moves::of(program, rows);
    for m in &all_moves {
        for (rank, path) in m.paths.iter().enumerate() {
            let reorder = m.reorder.as_ref().filter(|_| rank == 0);
            records.push(Record {
                operation: "move",
                instance: m.instance,
                account_bytes: Some(path.bytes),
                cus: path.cus[0],
                outcome: "move".into(),
                move_of: Some(MoveMark {
                    today: m.today.name(),
                    rank,
                    change_cus: path.change,
                    read_cus: path.cus[1],
                    update_cus: path.cus[2],
                    rent_lamports: Some(path.rent),
                    reordered_bytes: reorder.map(|r| r.bytes),
                    reordered_rent_saved: reorder.map(|r| r.rent_saved),
                }),
                ..record(Site::Account, &m.account, path.format)
            });
        }
    }
    let site_moves = moves::of_sites(program, rows);
    for m in &site_moves {
        for (rank, (format, cus, change)) in m.paths.iter().enumerate() {
            records.push(Record {
                operation: "move",
                cus: Some(*cus),
                outcome: "move".into(),
                move_of: Some(MoveMark {
                    today: m.today.name(),
                    rank,
                    change_cus: Some(*change),
                    read_cus: None,
                    update_cus: None,
                    rent_lamports: None,
                    reordered_bytes: None,
                    reordered_rent_saved: None,
                }),
                ..record(m.site, &m.name, *format)
            });
        }
    }
    let unsupported = program
        .instructions
        .iter()
        .filter_map(|i| i.as_ref().err())
        .map(|u| (Site::Instruction, u))
        .chain(
            program
                .events
                .iter()
                .filter_map(|e| e.as_ref().err())
                .map(|u| (Site::Event, u)),
        );
    for (site, u) in unsupported {
        records.push(Record {
            operation: operation(site),
            outcome: format!("not supported: {}", u.reason),
            ..record(site, &u.name, Format::Floor)
        });
    }
    serde_json::to_string_pretty(&records).expect("records serialize")
}

/// A record of `site` `name` in `format` with no measurement yet: what
/// every record of it shares.
fn base<'a>(program: &'a Program, site: Site, name: &'a str, format: Format) -> Record<'a> {
    let discriminator = match site {
        Site::Account => None,
        Site::Instruction => program
            .instructions
            .iter()
            .flatten()
            .find(|i| i.name == name)
            .map(|i| hex(&i.discriminator)),
        Site::Event => program
            .events
            .iter()
            .flatten()
            .find(|e| e.name == name)
            .map(|e| hex(&e.discriminator)),
    };
    let kind = match site {
        Site::Account => program
            .accounts
            .iter()
            .flatten()
            .find(|a| a.name == name)
            .map(kind_name),
        _ => None,
    };
    Record {
        family: "idl",
        framework: format.framework(),
        program: &program.name,
        site: site.name(),
        name,
        account: (site == Site::Account).then_some(name),
        discriminator,
        format: format.name(),
        crate_name: format.crate_name(),
        crate_version: format.crate_version(),
        operation: "build",
        instance: "",
        account_bytes: None,
        kind,
        cus: None,
        instructions: None,
        syscall_cus: None,
        stack_bytes: None,
        call_depth: None,
        heap_bytes: None,
        outcome: String::new(),
        row: None,
        mainnet_ok: None,
        move_of: None,
    }
}

/// The operation a site's rows measure.
fn operation(site: Site) -> &'static str {
    match site {
        Site::Account => "build",
        Site::Instruction => "args",
        Site::Event => "emit",
    }
}

/// Bytes in hex, as the IDL's discriminators are compared.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// `summary.md`.
pub fn summary(
    program: &Program,
    plans: &[Plan],
    rows: &[Row],
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
        let borsh = cus(rows, &account.name, Format::Borsh, "full");
        let ratio = match (borsh, cheapest_cus(rows, &account.name, "full")) {
            (Some(b), Some(c)) if c > 0 => format!("{b} ({:.1}x)", b as f64 / c as f64),
            _ => refused
                .iter()
                .find(|r| r.name == account.name && r.format == Format::Borsh)
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
        for format in Format::ALL.into_iter().chain(Format::ANCHOR1) {
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
        &moves::of(program, rows),
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
            &crate::render::arguments::FORMATS[..],
            "\n## Instructions: arguments\n\nEach instruction's arguments (operation `args`): the dispatch on its discriminator, \
             then every argument decoded and validated, then one argument stored in account [0] (checked). One program per \
             format holds every instruction, as a real program does; `floor` is the same dispatch and store with no decode, \
             so a format's own cost is its CUs minus the floor's. CUs of the generated arguments (strings of the \
             `STRING_LEN`, lists of `VEC_LEN`).\n",
            "data bytes",
        ),
        _ => (
            &crate::render::events::FORMATS[..],
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
        Site::Instruction => &[Format::Anchor1Instruction][..],
        _ => &[Format::Anchor1Emit, Format::Anchor1EmitCpi][..],
    };
    let formats: Vec<Format> = formats
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
    let of = |name: &str, format: Format| {
        rows.iter()
            .find(|r| r.site == site && r.name == name && r.format == format)
    };
    let ran = |name: &str, format: Format| match of(name, format).map(|r| &r.outcome) {
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
        let log = match of(name, Format::Floor).map(|r| &r.outcome) {
            Some(Measured::Ran { cus, footprint }) if site == Site::Event => {
                format!(" {} |", footprint.syscall_cus(*cus))
            }
            _ if site == Site::Event => " - |".into(),
            _ => String::new(),
        };
        let decoders = formats.iter().filter(|f| **f != Format::Floor);
        let cheapest = decoders.clone().filter_map(|f| ran(name, *f)).min();
        let (cheapest_cell, ratio) = match cheapest {
            Some(min) => {
                let names: Vec<&str> = decoders
                    .filter(|f| ran(name, **f) == Some(min))
                    .map(|f| f.name())
                    .collect();
                let ratio = ran(name, Format::Borsh)
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
    let mut reasons: BTreeMap<(Format, &str), Vec<&str>> = BTreeMap::new();
    for s in skipped.iter().filter(|s| s.site == site) {
        reasons
            .entry((s.format, &s.reason))
            .or_default()
            .push(&s.name);
    }
    for ((format, reason), names) in reasons {
        let _ = writeln!(
            out,
            "\nNo `{}` row for {}: {reason}.",
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

fn cus(rows: &[Row], account: &str, format: Format, op: &str) -> Option<u64> {
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
