//! What each move would save: per account type of an Anchor IDL, the path
//! the program runs today (as its IDL says: `Account<T>` for a borsh
//! account, `AccountLoader<T>` for a zero-copy one, in Anchor 1.x), then
//! every measured alternative on the same data (for a borsh account
//! `LazyAccount<T>`, and `AccountLoader<T>` where its fields can be
//! zero-copy), cheapest `full` first,
//! with its CUs, the change against today, and the account's bytes and
//! rent-exempt lamports; and for a zero-copy record with padding, the same
//! fields ordered with none and the rent that saves. Built from the run's
//! rows only: every figure is a measured case's, or a layout's.

use std::fmt::Write as _;

use crate::{
    capacity::Capacities,
    layout::{struct_layout, zero_copy},
    measure::{Measured, Row},
    model::{AT_CAPACITY, Account, Dialect, Kind, Program, Site, Struct},
    render::RowFormat,
};

/// The operations a path is measured on, in the table's order.
pub const OPERATIONS: [&str; 3] = ["full", "read", "update"];

/// Under an account whose `bytemuck` path was measured: the same cast is
/// what an account of this record would run in each framework whose
/// account type casts a Pod record (the registry's `pod_cast`).
pub fn bytemuck_in_frameworks() -> String {
    let casts: Vec<String> = benches::Framework::registered()
        .filter_map(|f| f.entry().pod_cast.clone())
        .collect();
    let casts = match casts.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => return String::new(),
    };
    format!(
        "\nThe `bytemuck` path is the cast {casts} runs over the same fields; each \
         framework adds its own entrypoint and checks to it (their floors and what their account types add, \
         on the benchmark's token record: docs/frameworks.md).\n"
    )
}

/// One path an account can take, measured.
#[derive(Clone, Debug, PartialEq)]
pub struct Path {
    pub format: RowFormat,
    /// Whether it runs the account's fixed-capacity move (`<Name> at
    /// capacity`'s rows) rather than the account as the IDL lays it out.
    pub at_capacity: bool,
    /// CUs of `full`, `read`, `update` (`None`: not measured, or could not
    /// run).
    pub cus: [Option<u64>; 3],
    /// `full`'s CUs minus today's (negative: a saving).
    pub change: Option<i64>,
    pub bytes: usize,
    pub rent: u64,
}

/// The same top-level fields ordered by alignment, largest first: a
/// zero-copy layout with no padding between them.
#[derive(Clone, Debug, PartialEq)]
pub struct Reorder {
    /// The fields in their new order.
    pub fields: Vec<String>,
    /// The account's bytes now and reordered (discriminator included).
    pub bytes_now: usize,
    pub bytes: usize,
    /// Rent-exempt lamports saved.
    pub rent_saved: u64,
}

impl Path {
    /// As the table names it: the format, `at capacity` after it for the
    /// fixed-capacity move.
    pub fn label(&self) -> String {
        match self.at_capacity {
            true => format!("{}{AT_CAPACITY}", self.format.name()),
            false => self.format.name().to_string(),
        }
    }
}

/// The fixed-capacity move's fit: the capacities its paths ran at, and
/// how many of the team's accounts (`ACCOUNTS=`) hold no more.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// Each variable field's path and capacity.
    pub capacities: Vec<(String, usize)>,
    /// The accounts read as this type, and of them those that fit.
    pub held: usize,
    pub fit: usize,
    /// The fields some account holds more of than its capacity, with the
    /// capacity that would fit them all (the largest seen).
    pub fits_all: Vec<(String, usize)>,
}

/// One account type's moves.
#[derive(Clone, Debug, PartialEq)]
pub struct Moves {
    pub account: String,
    /// The path the IDL says the program runs.
    pub today: RowFormat,
    /// The instance the CUs are of (`data` where given, else `full`).
    pub instance: &'static str,
    /// Today's path first, then the alternatives, cheapest `full` first.
    pub paths: Vec<Path>,
    pub reorder: Option<Reorder>,
    /// Where its fixed-capacity move was measured: at what capacities,
    /// and how many of the team's accounts fit.
    pub fit: Option<Fit>,
}

/// The rent-exempt minimum of an account of `len` data bytes, at the
/// runtime's default rent (solana-rent's `Rent::default()`).
pub fn rent(len: usize) -> u64 {
    solana_rent::Rent::default().minimum_balance(len)
}

/// Every account type's moves in `program` (an Anchor IDL's only: another
/// has no path of its own to move from); an account's fixed-capacity move
/// (its `<Name> at capacity` rows) among them, at the `capacities` sized.
pub fn of(program: &Program, rows: &[Row], capacities: &Capacities) -> Vec<Moves> {
    if !matches!(program.dialect, Dialect::Anchor | Dialect::LegacyAnchor) {
        return Vec::new();
    }
    let mut all = Vec::new();
    for account in program.accounts.iter().flatten() {
        let Some(today) = crate::render::anchor1::format_for(account) else {
            continue;
        };
        let moved = format!("{}{AT_CAPACITY}", account.name);
        let mine: Vec<&Row> = rows
            .iter()
            .filter(|r| r.site == Site::Account && (r.name == account.name || r.name == moved))
            .collect();
        let instance = if mine.iter().any(|r| r.instance == "data") {
            "data"
        } else {
            "full"
        };
        let mut formats: Vec<(RowFormat, bool)> = Vec::new();
        for row in &mine {
            let key = (row.format, row.name == moved);
            if row.instance == instance && !formats.contains(&key) {
                formats.push(key);
            }
        }
        let path = |(format, at_capacity): (RowFormat, bool)| {
            let of = |r: &&&Row| {
                r.format == format && r.instance == instance && (r.name == moved) == at_capacity
            };
            let cus = OPERATIONS.map(|op| {
                mine.iter()
                    .filter(of)
                    .find(|r| r.operation == op)
                    .and_then(|r| match r.outcome {
                        Measured::Ran { cus, .. } => Some(cus),
                        Measured::CannotRun(_) => None,
                    })
            });
            let bytes = mine.iter().find(of).map_or(0, |r| r.account_bytes);
            Path {
                format,
                at_capacity,
                cus,
                change: None,
                bytes,
                rent: rent(bytes),
            }
        };
        let mut paths: Vec<Path> = formats.into_iter().map(path).collect();
        let is_today = |p: &Path| p.format == today && !p.at_capacity;
        let today_full = paths.iter().find(|p| is_today(p)).and_then(|p| p.cus[0]);
        for p in &mut paths {
            p.change = p.cus[0]
                .zip(today_full)
                .map(|(cus, today)| cus as i64 - today as i64);
        }
        // Today's first, then the rest cheapest `full` first (a path that
        // could not run `full` last).
        paths.sort_by_key(|p| (!is_today(p), p.cus[0].unwrap_or(u64::MAX)));
        if paths.is_empty() {
            continue;
        }
        let fit = paths
            .iter()
            .any(|p| p.at_capacity)
            .then(|| fit(capacities, &account.name))
            .flatten();
        all.push(Moves {
            account: account.name.clone(),
            today,
            instance,
            paths,
            reorder: reorder(account),
            fit,
        });
    }
    all
}

/// The fit of `account`'s fixed-capacity move, from its sizing.
fn fit(capacities: &Capacities, account: &str) -> Option<Fit> {
    let sized = capacities.types.iter().find(|t| t.account == account)?;
    Some(Fit {
        capacities: sized
            .fields
            .iter()
            .map(|f| Some((f.variable.name.clone(), f.capacity?.0)))
            .collect::<Option<_>>()?,
        held: sized.held.len(),
        fit: sized.fit,
        fits_all: sized
            .fields
            .iter()
            .filter_map(|f| {
                let largest = f.largest?;
                (largest > f.capacity?.0).then(|| (f.variable.name.clone(), largest))
            })
            .collect(),
    })
}

/// For a zero-copy (not packed) record with padding between or after its
/// top-level fields: the same fields ordered by alignment, largest first
/// (nested structs keep their own layout), where that is smaller.
pub fn reorder(account: &Account) -> Option<Reorder> {
    let Kind::ZeroCopy { packed: false } = account.kind else {
        return None;
    };
    let record = &account.record;
    let now = struct_layout(record, false).ok()?.layout.size;
    let mut fields = record.fields.clone();
    let align = |f: &crate::model::Field| zero_copy(&f.ty, record.packed).map_or(1, |l| l.align);
    fields.sort_by_key(|f| std::cmp::Reverse(align(f)));
    let reordered = Struct {
        fields,
        ..record.clone()
    };
    let size = struct_layout(&reordered, false).ok()?.layout.size;
    if size >= now {
        return None;
    }
    let header = account.discriminator.len();
    Some(Reorder {
        fields: reordered.fields.iter().map(|f| f.name.clone()).collect(),
        bytes_now: header + now,
        bytes: header + size,
        rent_saved: rent(header + now) - rent(header + size),
    })
}

/// The section of `summary.md`: the account types' tables, then the
/// instructions' and events' (`sites`).
/// `anchor` is the anchor-lang release the Anchor programs built with.
pub fn section(moves: &[Moves], sites: &[SiteMoves], anchor: &str) -> String {
    let mut out = String::new();
    if moves.is_empty() && sites.is_empty() {
        return out;
    }
    let _ = writeln!(
        out,
        "\n## What each move would save\n\nPer account type, instruction and event: the path your program runs today \
         as its IDL says (Anchor {}: `anchor1_account` is `Account<T>`, `anchor1_lazy_account` \
         `LazyAccount<T>`, `anchor1_account_loader` `AccountLoader<T>` (for a borsh account, its fields \
         moved to zero-copy), `anchor1_instruction` its handlers' parameters, `anchor1_emit` is `emit!`), \
         then every path measured on the same data, cheapest first. `change` is the CUs minus today's \
         (`full`'s for an account). Rent is the rent-exempt minimum of the account's bytes. The pinocchio \
         formats are what a rewrite of that part of the program would pay (docs/idl.md).",
        anchor
    );
    for m in moves {
        let _ = writeln!(
            out,
            "\n### {} (today: `{}`, the `{}` instance)\n\n| path | full | read | update | change | bytes | rent (lamports) |\n|---|---:|---:|---:|---:|---:|---:|",
            m.account,
            m.today.name(),
            m.instance
        );
        for p in &m.paths {
            let cell = |c: Option<u64>| c.map_or("-".into(), |c| c.to_string());
            let change = match (p.format == m.today && !p.at_capacity, p.change) {
                (true, _) => "today".to_string(),
                (false, Some(change)) => format!("{change:+}"),
                (false, None) => "-".into(),
            };
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {change} | {} | {} |",
                p.label(),
                cell(p.cus[0]),
                cell(p.cus[1]),
                cell(p.cus[2]),
                p.bytes,
                p.rent
            );
        }
        if m.paths.iter().any(|p| p.format == RowFormat::Bytemuck) {
            out.push_str(&bytemuck_in_frameworks());
        }
        if let Some(fit) = &m.fit {
            out.push_str(&fit_line(&m.account, fit));
        }
        if let Some(r) = &m.reorder {
            let _ = writeln!(
                out,
                "\nReordered by alignment (largest first: {}), the record has no padding between its fields: \
                 {} bytes instead of {}, {} lamports less rent.",
                r.fields.join(", "),
                r.bytes,
                r.bytes_now,
                r.rent_saved
            );
        }
    }
    for site in [Site::Instruction, Site::Event] {
        let mine: Vec<SiteMoves> = sites.iter().filter(|m| m.site == site).cloned().collect();
        out.push_str(&site_section(&mine));
    }
    out
}

/// Under an account's table: the capacities its `at capacity` paths ran
/// at, and how many of the team's accounts fit them.
fn fit_line(account: &str, fit: &Fit) -> String {
    let capacities: Vec<String> = fit
        .capacities
        .iter()
        .map(|(field, n)| format!("`{field}` {n}"))
        .collect();
    let mut out = format!(
        "\nThe `at capacity` paths run `{account}`'s fixed-capacity move (its section above) at {}",
        capacities.join(", ")
    );
    if fit.held == 0 {
        out.push_str(": no account of yours was read (`ACCOUNTS=`), so none is counted.\n");
        return out;
    }
    let _ = write!(out, ": {} of {} of your accounts fit", fit.fit, fit.held);
    if fit.fits_all.is_empty() {
        out.push_str(".\n");
    } else {
        let all: Vec<String> = fit
            .fits_all
            .iter()
            .map(|(field, n)| format!("`{field}` {n}"))
            .collect();
        let _ = writeln!(out, "; all would at {}.", all.join(", "));
    }
    out
}

/// One instruction's or event's moves: the Anchor 1.x path today, then
/// every other measured path on the same data, cheapest first.
#[derive(Clone, Debug, PartialEq)]
pub struct SiteMoves {
    pub site: Site,
    pub name: String,
    pub today: RowFormat,
    /// Today's path first; then the rest cheapest first, each with its CUs
    /// and the change against today.
    pub paths: Vec<(RowFormat, u64, i64)>,
}

/// The path an Anchor 1.x program takes today at `site`: its handlers'
/// parameters for instructions; `emit!` for events (the IDL does not say
/// which of `emit!` and `emit_cpi!` the program uses: `emit!` is the
/// default, and `emit_cpi!` one of the moves).
pub fn today_at(site: Site) -> Option<RowFormat> {
    match site {
        Site::Instruction => Some(RowFormat::Anchor1Instruction),
        Site::Event => Some(RowFormat::Anchor1Emit),
        Site::Account => None,
    }
}

/// Every instruction's or event's moves in `program` (`site`), where
/// today's path ran: the floor (no decode) is no path a program can take,
/// and is left out.
pub fn of_site(program: &Program, rows: &[Row], site: Site) -> Vec<SiteMoves> {
    let Some(today) = today_at(site) else {
        return Vec::new();
    };
    let names: Vec<&str> = match site {
        Site::Instruction => program
            .instructions
            .iter()
            .flatten()
            .map(|i| i.name.as_str())
            .collect(),
        _ => program
            .events
            .iter()
            .flatten()
            .map(|e| e.name.as_str())
            .collect(),
    };
    let mut all = Vec::new();
    for name in names {
        let ran: Vec<(RowFormat, u64)> = rows
            .iter()
            .filter(|r| r.site == site && r.name == name && r.format != RowFormat::Floor)
            .filter_map(|r| match r.outcome {
                Measured::Ran { cus, .. } => Some((r.format, cus)),
                Measured::CannotRun(_) => None,
            })
            .collect();
        let Some(&(_, today_cus)) = ran.iter().find(|(f, _)| *f == today) else {
            continue;
        };
        let mut paths: Vec<(RowFormat, u64, i64)> = ran
            .into_iter()
            .map(|(f, cus)| (f, cus, cus as i64 - today_cus as i64))
            .collect();
        paths.sort_by_key(|(f, cus, _)| (*f != today, *cus));
        all.push(SiteMoves {
            site,
            name: name.to_string(),
            today,
            paths,
        });
    }
    all
}

/// Every instruction's moves, then every event's.
pub fn of_sites(program: &Program, rows: &[Row]) -> Vec<SiteMoves> {
    [Site::Instruction, Site::Event]
        .into_iter()
        .flat_map(|site| of_site(program, rows, site))
        .collect()
}

/// The instructions' or events' part of the section: a line each, today's
/// CUs, then every other path cheapest first with its change.
fn site_section(moves: &[SiteMoves]) -> String {
    let mut out = String::new();
    let Some(first) = moves.first() else {
        return out;
    };
    let (title, what) = match first.site {
        Site::Instruction => (
            "Instructions",
            "the handler's arguments decoded by Anchor's dispatch (`anchor1_instruction`), against the pinocchio programs' decodes of the same data",
        ),
        _ => (
            "Events",
            "`emit!` (`anchor1_emit`), against `emit_cpi!` (`anchor1_emit_cpi`) and the pinocchio programs' encodes of the same event",
        ),
    };
    let _ = writeln!(
        out,
        "\n### {title} (today: {what})\n\n| {} | today | cheapest | change | every path, cheapest first |\n|---|---:|---|---:|---|",
        first.site.name()
    );
    for m in moves {
        let today = m.paths[0].1;
        let cheapest = m.paths[1..].iter().min_by_key(|(_, cus, _)| *cus);
        let (cheapest, change) = match cheapest {
            Some((f, cus, change)) => (format!("{} {cus}", f.name()), format!("{change:+}")),
            None => ("-".into(), "-".into()),
        };
        let all: Vec<String> = m.paths[1..]
            .iter()
            .map(|(f, cus, change)| format!("{} {cus} ({change:+})", f.name()))
            .collect();
        let _ = writeln!(
            out,
            "| {} | {today} | {cheapest} | {change} | {} |",
            m.name,
            all.join(", ")
        );
    }
    out
}

#[cfg(test)]
mod tests {
    /// The sentence under a `bytemuck` path names the registry's Pod casts
    /// (Steel's and star_frame's today) in the registry's order.
    #[test]
    fn the_bytemuck_sentence_names_the_registrys_pod_casts() {
        assert_eq!(
            super::bytemuck_in_frameworks(),
            "\nThe `bytemuck` path is the cast a Steel account (`account!`, borrowed with \
             `as_account`) or a star_frame `#[zero_copy(pod)]` `Account<T>` runs over the same \
             fields; each framework adds its own entrypoint and checks to it (their floors and \
             what their account types add, on the benchmark's token record: docs/frameworks.md).\n"
        );
    }
}
