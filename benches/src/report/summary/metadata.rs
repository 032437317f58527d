//! The report's metadata section: per operation, formats x instances;
//! encoded and allocated size (and rent) per format; what each read
//! validates.

use std::fmt::Write as _;

use crate::{
    program::Family,
    report::{Measurement, Run},
};

use crate::metadata::instances::INSTANCES;

/// Rent-exempt lamports per byte: 3,480 lamports per byte-year, two years
/// (Solana's rent parameters), counted over the data and the account's
/// 128 bytes of storage overhead.
const RENT_PER_BYTE: u64 = 3_480 * 2;
const ACCOUNT_OVERHEAD: u64 = 128;

/// The mark and footnote of an error-path row.
const ERROR_MARK: &str = "‡";

impl Run {
    /// The metadata family's measurements.
    pub fn metadata(&self) -> Vec<&Measurement> {
        self.measurements
            .iter()
            .filter(|m| m.family == Family::Metadata)
            .collect()
    }

    /// A metadata program's measurement of an operation on an instance.
    pub fn metadata_cell(
        &self,
        program: &str,
        operation: &str,
        instance: &str,
    ) -> Option<&Measurement> {
        self.metadata().into_iter().find(|m| {
            m.program == program && m.operation == operation && m.instance == Some(instance)
        })
    }

    /// Metadata formats, by name.
    pub fn metadata_programs(&self) -> Vec<&str> {
        let mut programs: Vec<&str> = self.metadata().iter().map(|m| m.program.as_str()).collect();
        programs.sort();
        programs.dedup();
        programs
    }

    /// Metadata operations, in op-byte order.
    pub fn metadata_operations(&self) -> Vec<&str> {
        let mut operations: Vec<&str> = Vec::new();
        for m in self.metadata() {
            if !operations.contains(&m.operation.as_str()) {
                operations.push(&m.operation);
            }
        }
        operations
    }

    /// Per operation, formats x instances (sorted by `typical`); then sizes
    /// and rent, and what each reading operation validates.
    pub(crate) fn metadata_section(&self) -> String {
        let mut out = format!(
            "\n## Metadata family\n\n\
             Each program stores one NFT metadata-like record (strings, options, enums, \
             fixed fields after variable ones) at the start of an account allocated at \
             its format's largest encoding; the bytes after it are zero. Every case runs \
             with the default {} KiB heap frame. `zeropod` stores the same record with its \
             fixed-size fields first (its derive requires it). {ERROR_MARK}: an error-path \
             row (the `minimal` instance has no creators and no collection: the \
             contract's `InvalidArgument`).\n",
            Family::Metadata.heap_frame() / 1024
        );
        let header = |out: &mut String, columns: &[&str]| {
            let _ = write!(out, "\n| format |");
            for column in columns {
                let _ = write!(out, " {column} |");
            }
            out.push_str("\n|---|");
            out.push_str(&"---:|".repeat(columns.len()));
            out.push('\n');
        };
        let operations = self.metadata_operations();
        out.push_str(
            "\n### The typical instance\n\nCUs of every operation on the `typical` instance, \
             the cheapest `read_royalty` first.\n",
        );
        header(&mut out, &operations);
        let mut programs = self.metadata_programs();
        programs.sort_by_key(|p| {
            self.metadata_cell(p, "read_royalty", "typical")
                .map_or(u64::MAX, |m| m.cus)
        });
        for p in &programs {
            let _ = write!(out, "| {p} |");
            for op in &operations {
                let cell = self
                    .metadata_cell(p, op, "typical")
                    .map_or("-".into(), |m| format!("{}{}", m.cus, self.mainnet_mark(m)));
                let _ = write!(out, " {cell} |");
            }
            out.push('\n');
        }
        for op in operations {
            let _ = write!(out, "\n### {op}\n\nCUs by instance.\n");
            header(&mut out, &INSTANCES);
            let mut programs = self.metadata_programs();
            programs.sort_by_key(|p| {
                self.metadata_cell(p, op, "typical")
                    .map_or(u64::MAX, |m| m.cus)
            });
            for p in &programs {
                let _ = write!(out, "| {p} |");
                for instance in INSTANCES {
                    let cell = self.metadata_cell(p, op, instance).map_or("-".into(), |m| {
                        let mark = if m.error.is_some() { ERROR_MARK } else { "" };
                        format!("{}{mark}{}", m.cus, self.mainnet_mark(m))
                    });
                    let _ = write!(out, " {cell} |");
                }
                out.push('\n');
            }
            out.push_str(
                &self.mainnet_footnote(self.metadata().into_iter().filter(|m| m.operation == op)),
            );
        }
        out.push_str(
            "\n### Encoded and allocated size\n\n\
             Bytes of each format's encoding of each instance, the account's length (the \
             format's largest encoding) and its rent-exempt minimum (6,960 lamports per \
             byte, 128 bytes of overhead).\n",
        );
        header(
            &mut out,
            &["minimal", "typical", "full", "account", "rent (lamports)"],
        );
        for p in self.metadata_programs() {
            let _ = write!(out, "| {p} |");
            for instance in INSTANCES {
                let bytes = self
                    .metadata_cell(p, "full", instance)
                    .and_then(|m| m.encoded_bytes);
                let _ = write!(out, " {} |", bytes.map_or("-".into(), |b| b.to_string()));
            }
            let account = self
                .metadata_cell(p, "full", "full")
                .and_then(|m| m.account_bytes);
            let rent = account.map(|a| (a as u64 + ACCOUNT_OVERHEAD) * RENT_PER_BYTE);
            let _ = writeln!(
                out,
                " {} | {} |",
                account.map_or("-".into(), |b| b.to_string()),
                rent.map_or("-".into(), |r| r.to_string())
            );
        }
        out.push_str(
            "\n### What each operation validates\n\n\
             Found by running each reading operation on the `typical` instance with one \
             byte of its name (which none of them needs) made invalid UTF-8: *whole \
             record* if the program refuses it, *what it reads* if it answers. `full` \
             validates the whole record in every format.\n\n\
             | format | read_collection | verify_creator | read_royalty |\n|---|---|---|---|\n",
        );
        for (program, probes) in &self.metadata_validation {
            let _ = write!(out, "| {program} |");
            for (_, whole) in probes {
                let what = if *whole {
                    "whole record"
                } else {
                    "what it reads"
                };
                let _ = write!(out, " {what} |");
            }
            out.push('\n');
        }
        out
    }
}
