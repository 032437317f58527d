//! `results.json`: one record per measured row, the families' schema
//! with `family: "idl"`, and the moves' marks.

use std::collections::BTreeMap;

use serde::Serialize;

use super::{
    moves,
    names::{hex, kind_name},
};
use crate::{
    measure::{Measured, Row},
    model::{Program, Site},
    plan::NoRow,
    render::RowFormat,
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
    /// A fixed-capacity path (`<Name> at capacity`): each variable field's
    /// capacity, by path.
    #[serde(skip_serializing_if = "Option::is_none")]
    capacity: Option<BTreeMap<String, usize>>,
    /// With it, how many of the team's accounts (`ACCOUNTS=`) fit.
    #[serde(skip_serializing_if = "Option::is_none")]
    fit: Option<FitMark>,
}

/// `move.fit`: of the accounts read as the type, how many fit, and the
/// capacities that would fit them all.
#[derive(Serialize)]
struct FitMark {
    held: usize,
    fit: usize,
    fits_all: BTreeMap<String, usize>,
}

/// `results.json`.
/// `anchor` is the anchor-lang release the Anchor programs built with.
pub fn json(
    program: &Program,
    rows: &[Row],
    refused: &[NoRow],
    skipped: &[NoRow],
    (accounts, anchor): (&[moves::Moves], &'static str),
) -> String {
    let record = |site, name, format: RowFormat| Record {
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
    for m in accounts {
        for (rank, path) in m.paths.iter().enumerate() {
            let reorder = m.reorder.as_ref().filter(|_| rank == 0);
            let fit = m.fit.as_ref().filter(|_| path.at_capacity);
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
                    capacity: fit.map(|f| f.capacities.iter().cloned().collect()),
                    fit: fit.map(|f| FitMark {
                        held: f.held,
                        fit: f.fit,
                        fits_all: f.fits_all.iter().cloned().collect(),
                    }),
                }),
                // Its account type's name: the fixed-capacity path is one
                // of `move.capacity`'s (the rows are `<Name> at capacity`'s).
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
                    capacity: None,
                    fit: None,
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
            ..record(site, &u.name, RowFormat::Floor)
        });
    }
    serde_json::to_string_pretty(&records).expect("records serialize")
}

/// A record of `site` `name` in `format` with no measurement yet: what
/// every record of it shares.
fn base<'a>(program: &'a Program, site: Site, name: &'a str, format: RowFormat) -> Record<'a> {
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
