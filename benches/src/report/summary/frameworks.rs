//! The report's frameworks section: per family, the same record and
//! operations in pinocchio (the crates' rows), on solana-program's
//! entrypoint and in each framework `programs/frameworks.toml` declares
//! (its columns and words there), each with the CUs above its own
//! framework's floor; then the sections of one framework's own programs
//! (arguments and events).

use std::fmt::Write as _;

use crate::{
    framework::Layout,
    frameworks::{
        anchor1,
        anchor2::calls::{FOLDER, Handler},
        star_frame,
    },
    metadata::INSTANCES,
    program::{Family, Framework, Shape},
    report::{Measurement, Run},
};

/// A column: a heading and how to find its measurement of an operation
/// (and instance).
struct Column {
    heading: String,
    framework: Framework,
    family: Family,
    shape: Shape,
    program: &'static str,
}

fn column(
    heading: impl Into<String>,
    framework: Framework,
    family: Family,
    shape: Shape,
    program: &'static str,
) -> Column {
    Column {
        heading: heading.into(),
        framework,
        family,
        shape,
        program,
    }
}

/// The token record: each framework's floor, the pinocchio rows the
/// frameworks' types correspond to (a cast: bytemuck; a decode and encode:
/// borsh), in the `at_least` shape, which accepts a longer account as a
/// framework's account types do (some casts want the exact length); the
/// same crates and SPL's `Pack` on solana-program's entrypoint (the
/// `exact` shape, as `Pack` checks it); then each registered framework's
/// floor and token programs, as `programs/frameworks.toml` heads them.
fn token_columns() -> Vec<Column> {
    let (pinocchio, solana_program) = (Framework::PINOCCHIO, Framework::SOLANA_PROGRAM);
    let (token, at_least, exact) = (Family::Token, Shape::AtLeast, Shape::Exact);
    let mut columns = vec![
        column("pinocchio floor", pinocchio, token, at_least, "noop"),
        column(
            "pinocchio + bytemuck",
            pinocchio,
            token,
            at_least,
            "bytemuck",
        ),
        column("pinocchio + borsh", pinocchio, token, at_least, "borsh"),
        column("solana-program floor", solana_program, token, exact, "noop"),
        column(
            "solana-program + bytemuck",
            solana_program,
            token,
            exact,
            "token/bytemuck",
        ),
        column(
            "solana-program + borsh",
            solana_program,
            token,
            exact,
            "token/borsh",
        ),
        column(
            "solana-program + `Pack`",
            solana_program,
            token,
            exact,
            "token/pack",
        ),
    ];
    for framework in Framework::registered() {
        let floor = format!("{} floor", framework.title());
        columns.push(column(floor, framework, token, exact, "noop"));
        for path in framework.entry().path.iter().filter(|p| p.layout.is_none()) {
            columns.push(column(
                &*path.column,
                framework,
                token,
                exact,
                &path.program,
            ));
        }
    }
    columns
}

/// The metadata record by layout: decoded into owned values (pinocchio
/// with wincode in borsh's format, the codec a borsh account type in a
/// framework may run, and with borsh), laid over the bytes at its own
/// length (the account resized by `set_uri`), and at fixed capacity, cast
/// in place (pinocchio with bytemuck): each layout's pinocchio columns,
/// then the registered frameworks' programs of that layout.
fn metadata_columns() -> Vec<Column> {
    let pinocchio = |heading, program| {
        column(
            heading,
            Framework::PINOCCHIO,
            Family::Metadata,
            Shape::Exact,
            program,
        )
    };
    let mut columns = Vec::new();
    for layout in Layout::ALL {
        match layout {
            Layout::Owned => columns.extend([
                pinocchio("pinocchio + wincode", "wincode"),
                pinocchio("pinocchio + borsh", "borsh"),
            ]),
            Layout::Unsized => {}
            Layout::Fixed => columns.push(pinocchio(
                "pinocchio + bytemuck (fixed capacity)",
                "bytemuck",
            )),
        }
        for framework in Framework::registered() {
            for path in &framework.entry().path {
                if path.layout == Some(layout) {
                    let (family, shape) = (Family::Metadata, Shape::Exact);
                    columns.push(column(
                        &*path.column,
                        framework,
                        family,
                        shape,
                        &path.program,
                    ));
                }
            }
        }
    }
    columns
}

impl Run {
    /// The token record per framework path, a row each: what a reader
    /// choosing a path compares, its CUs per operation and, in brackets,
    /// above its framework's floor (the columns of the token table below,
    /// as rows).
    fn which_path(&self) -> String {
        let operations = ["full", "read_owner", "update_amount"];
        let mut out = String::from(
            "\n### Which path\n\nThe token record on each framework path: CUs per operation, and in brackets the CUs above that framework's floor (a floor's row is the framework's own cost of a call that reads nothing).\n\n",
        );
        let _ = writeln!(out, "| path | {} |", operations.join(" | "));
        let _ = writeln!(out, "|---|{}", "---:|".repeat(operations.len()));
        for column in &token_columns() {
            let cells: Vec<String> = operations
                .iter()
                .map(|op| self.framework_cell(column, self.in_column(column, op, None)))
                .collect();
            let _ = writeln!(out, "| {} | {} |", column.heading, cells.join(" | "));
        }
        out
    }

    /// Every measurement of every framework: the crates', the floor's, and
    /// the other frameworks'.
    fn all_measurements(&self) -> impl Iterator<Item = &Measurement> {
        self.measurements
            .iter()
            .chain(&self.floor)
            .chain(&self.frameworks)
    }

    fn in_column(
        &self,
        column: &Column,
        operation: &str,
        instance: Option<&str>,
    ) -> Option<&Measurement> {
        self.all_measurements().find(|m| {
            m.framework == column.framework
                && m.family == column.family
                && m.shape == column.shape
                && m.program == column.program
                && m.operation == operation
                && m.instance == instance
        })
    }

    /// A framework's floor for `operation`: its no-op's call of the same
    /// token operation, or, for another family's operation, its no-op's
    /// `read_owner` (the same two accounts, nothing read).
    pub fn framework_floor(&self, framework: Framework, operation: &str) -> Option<u64> {
        let noop = |operation: &str| {
            self.all_measurements()
                .find(|m| {
                    m.framework == framework
                        && m.family == Family::Token
                        && m.program == "noop"
                        && m.operation == operation
                        && (framework != Framework::PINOCCHIO || m.shape == Shape::AtLeast)
                })
                .map(|m| m.cus)
        };
        noop(operation).or_else(|| noop("read_owner"))
    }

    /// A cell: the CUs, and above the framework's floor.
    fn framework_cell(&self, column: &Column, m: Option<&Measurement>) -> String {
        let Some(m) = m else {
            return "-".into();
        };
        let floor = self.framework_floor(column.framework, &m.operation);
        match floor {
            Some(floor) if column.program != "noop" => {
                format!("{} (+{})", m.cus, m.cus as i64 - floor as i64)
            }
            _ => m.cus.to_string(),
        }
    }

    pub fn frameworks_section(&self) -> String {
        if self.frameworks.is_empty() {
            return String::new();
        }
        let titles: Vec<&str> = Framework::others().map(Framework::title).collect();
        let (last, rest) = titles.split_last().expect("solana-program at least");
        let version = |framework: Framework| {
            let key = framework.crate_key();
            let version = self.provenance.crates.get(&key).map_or("?", String::as_str);
            format!("{} {version}", framework.crate_name())
        };
        let programs: Vec<String> = Framework::registered()
            .map(|f| f.entry().report.replace("{version}", &version(f)))
            .collect();
        let mut out = format!(
            "\n## Frameworks: {} and {last} beside pinocchio\n\nThe same record and operations on solana-program's entrypoint ({}: the token programs above, built with `std` on its `entrypoint!` and `AccountInfo`), {} and the pinocchio programs above; each cell is CUs, and in brackets the CUs above that framework's own floor (a no-op with the same accounts: for pinocchio the `at_least` floor, for solana-program `benches/noop` on its entrypoint, for the others `programs/<framework>/noop`; for the metadata operations, the floor's `read_owner`). Each framework's contract is its own (its own discriminator or header before the record, its own errors and checks; see docs/framework-contracts.md), so a cell compares the cost of doing the same work the way each framework does it.\n",
            rest.join(", "),
            version(Framework::SOLANA_PROGRAM),
            programs.join(", "),
        );
        out.push_str(&self.which_path());
        out.push_str("\n### Token record\n\n");
        let (token, metadata) = (token_columns(), metadata_columns());
        header(&mut out, "operation", &token);
        for operation in ["full", "read_owner", "update_amount"] {
            let cells: Vec<String> = token
                .iter()
                .map(|c| self.framework_cell(c, self.in_column(c, operation, None)))
                .collect();
            let _ = writeln!(out, "| {operation} | {} |", cells.join(" | "));
        }
        out.push_str("\n### Metadata record\n\n");
        header(&mut out, "operation / instance", &metadata);
        for operation in crate::metadata::OPERATIONS {
            for instance in crate::metadata::INSTANCES {
                let measured: Vec<Option<&Measurement>> = metadata
                    .iter()
                    .map(|c| self.in_column(c, operation, Some(instance)))
                    .collect();
                let error = measured.iter().flatten().any(|m| m.error.is_some());
                let cells: Vec<String> = metadata
                    .iter()
                    .zip(measured)
                    .map(|(c, m)| self.framework_cell(c, m))
                    .collect();
                let mark = if error { " (error path)" } else { "" };
                let _ = writeln!(
                    out,
                    "| {operation} / {instance}{mark} | {} |",
                    cells.join(" | ")
                );
            }
        }
        out.push_str(&self.calls_section());
        out.push_str(&self.anchor1_calls_section());
        out.push_str(&self.star_frame_arguments());
        out
    }
}

impl Run {
    /// An arguments-and-events handler's measurement on `family`'s record.
    fn call(&self, family: Family, call: Handler, instance: Option<&str>) -> Option<&Measurement> {
        let program = format!("{}/{FOLDER}", family.name());
        self.frameworks.iter().find(|m| {
            m.framework == crate::frameworks::anchor2::ORACLE.framework()
                && m.family == family
                && m.program == program
                && m.operation == call.name()
                && m.instance == instance
        })
    }

    /// The Anchor 2 arguments and events: per record, each handler's CUs
    /// and what its emit adds to `set_record` (the same decode and store),
    /// then borsh's emit over `#[event]`'s, with the log and without it
    /// (the syscalls' CUs, from the trace, taken out of both).
    pub fn calls_section(&self) -> String {
        let rows: Vec<(String, Family, Option<&str>)> =
            std::iter::once(("token".to_string(), Family::Token, None))
                .chain(INSTANCES.map(|i| (format!("metadata / {i}"), Family::Metadata, Some(i))))
                .filter(|(_, family, instance)| {
                    self.call(*family, Handler::SetRecord, *instance).is_some()
                })
                .collect();
        if rows.is_empty() {
            return String::new();
        }
        let mut out = String::from(
            "\n### Arguments and events\n\nThe record as an Anchor 2 instruction's argument and as its event (`programs/anchor2/<family>/args_and_events`): every handler takes the record (Anchor decodes it with wincode in borsh's format) and stores one field of it in account [0]; `set_record` does only that, each other handler then emits the record one way. Each cell is CUs, and in brackets what the emit adds to `set_record`. The last two columns put Anchor 2's claim (its `#[event]` \"3-10x cheaper than borsh on SBF\") to the test: borsh's emit (Anchor 1.x's `emit!`) over `#[event]`'s, each above `set_record`, with the log syscall and without it (every syscall's CUs, from the trace, taken out).\n\n",
        );
        let emits = [
            Handler::EmitEvent,
            Handler::EmitBytemuck,
            Handler::EmitBorsh,
            Handler::EmitCpi,
        ];
        out.push_str("| record | `set_record` (arguments) | `#[event]` | `#[event(bytemuck)]` | Anchor 1.x `emit!` (borsh) | `emit_cpi!` | borsh ÷ `#[event]` | the same, without syscalls |\n|---|---:|---:|---:|---:|---:|---:|---:|\n");
        for (name, family, instance) in rows {
            let base = self.call(family, Handler::SetRecord, instance);
            let above = |call: Handler| -> Option<(u64, u64)> {
                let (m, base) = (self.call(family, call, instance)?, base?);
                let syscalls = |m: &Measurement| m.footprint.map(|f| f.syscall_cus(m.cus));
                let own = (m.cus - syscalls(m)?) - (base.cus - syscalls(base)?);
                Some((m.cus - base.cus, own))
            };
            let cells: Vec<String> = emits
                .iter()
                .map(
                    |&call| match (self.call(family, call, instance), above(call)) {
                        (Some(m), Some((added, _))) => format!("{} (+{added})", m.cus),
                        _ => "-".into(),
                    },
                )
                .collect();
            let ratio = |pick: fn((u64, u64)) -> u64| match (
                above(Handler::EmitBorsh),
                above(Handler::EmitEvent),
            ) {
                (Some(borsh), Some(event)) if pick(event) > 0 => {
                    format!("{:.2}x", pick(borsh) as f64 / pick(event) as f64)
                }
                _ => "-".into(),
            };
            let _ = writeln!(
                out,
                "| {name} | {} | {} | {} | {} |",
                base.map_or("-".into(), |m| m.cus.to_string()),
                cells.join(" | "),
                ratio(|(added, _)| added),
                ratio(|(_, own)| own),
            );
        }
        out
    }
}

impl Run {
    /// The Anchor 1.x arguments and events on each record: each handler's
    /// CUs, and what its emit adds to `set_record`.
    pub fn anchor1_calls_section(&self) -> String {
        let rows: Vec<(String, Family, Option<&str>)> =
            std::iter::once(("token".to_string(), Family::Token, None))
                .chain(INSTANCES.map(|i| (format!("metadata / {i}"), Family::Metadata, Some(i))))
                .collect();
        let mut out = String::new();
        for (name, family, instance) in rows {
            let program = format!("{}/{}", family.name(), anchor1::calls::FOLDER);
            let find = |call: anchor1::calls::Handler| {
                self.frameworks.iter().find(|m| {
                    m.framework == anchor1::ORACLE.framework()
                        && m.program == program
                        && m.operation == call.name()
                        && m.instance == instance
                })
            };
            let [Some(base), Some(emit), Some(cpi)] = anchor1::calls::Handler::ALL.map(find) else {
                continue;
            };
            if out.is_empty() {
                out.push_str("\nAnchor 1.x (`programs/anchor1/<family>/args_and_events`, anchor-lang 1.2.2): the record as the argument (borsh), stored the same way; `emit!` logs the record with borsh, `emit_cpi!` passes it to the program itself. In brackets, what the emit adds to `set_record`.\n\n| record | `set_record` (arguments) | `emit!` | `emit_cpi!` |\n|---|---:|---:|---:|\n");
            }
            let _ = writeln!(
                out,
                "| {name} | {} | {} (+{}) | {} (+{}) |",
                base.cus,
                emit.cus,
                emit.cus - base.cus,
                cpi.cus,
                cpi.cus - base.cus
            );
        }
        out
    }
}

impl Run {
    /// star_frame's `set_record` (the metadata record as its instruction's
    /// borsh argument) beside Anchor 1.x's and Anchor 2's, per instance.
    fn star_frame_arguments(&self) -> String {
        let find = |framework: Framework, program: String, instance: &str| {
            self.frameworks.iter().find(|m| {
                m.framework == framework
                    && m.program == program
                    && m.operation == star_frame::args::OPERATION
                    && m.instance == Some(instance)
            })
        };
        let mut out = String::new();
        for instance in INSTANCES {
            let Some(own) = find(
                star_frame::ORACLE.framework(),
                star_frame::args::NAME.into(),
                instance,
            ) else {
                continue;
            };
            if out.is_empty() {
                out.push_str("\nstar_frame (`programs/star_frame/metadata/args`, star_frame 0.30.0): the metadata record as its instruction's argument (borsh, star_frame's instruction arguments), stored the same way, beside Anchor 1.x's and Anchor 2's `set_record`.\n\n| record | star_frame `set_record` | Anchor 1.x `set_record` | Anchor 2 `set_record` |\n|---|---:|---:|---:|\n");
            }
            let anchor = |framework, folder: &str| {
                find(framework, format!("metadata/{folder}"), instance)
                    .map_or("-".to_string(), |m| m.cus.to_string())
            };
            let _ = writeln!(
                out,
                "| metadata / {instance} | {} | {} | {} |",
                own.cus,
                anchor(anchor1::ORACLE.framework(), anchor1::calls::FOLDER),
                anchor(crate::frameworks::anchor2::ORACLE.framework(), FOLDER),
            );
        }
        out
    }
}

fn header(out: &mut String, first: &str, columns: &[Column]) {
    let headings: Vec<&str> = columns.iter().map(|c| c.heading.as_str()).collect();
    let _ = writeln!(out, "| {first} | {} |", headings.join(" | "));
    let _ = writeln!(out, "|---|{}", "---:|".repeat(columns.len()));
}
