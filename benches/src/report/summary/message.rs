//! The report's message section: per operation, formats x sizes with CUs
//! per KB and the cheapest format; encoded sizes; what each read validates.

use std::fmt::Write as _;

use crate::{
    program::Family,
    report::{Measurement, Run},
};

impl Run {
    /// The message family's measurements.
    pub fn message(&self) -> Vec<&Measurement> {
        self.measurements
            .iter()
            .filter(|m| m.family == Family::Message)
            .collect()
    }

    /// A message program's measurement of an operation at a size.
    pub fn message_cell(
        &self,
        program: &str,
        operation: &str,
        size: usize,
    ) -> Option<&Measurement> {
        self.message()
            .into_iter()
            .find(|m| m.program == program && m.operation == operation && m.size == Some(size))
    }

    /// Message formats, by name.
    pub fn message_programs(&self) -> Vec<&str> {
        let mut programs: Vec<&str> = self.message().iter().map(|m| m.program.as_str()).collect();
        programs.sort();
        programs.dedup();
        programs
    }

    /// Message operations, in op-byte order, and sizes, ascending.
    pub fn message_axes(&self) -> (Vec<&str>, Vec<usize>) {
        let mut operations: Vec<&str> = Vec::new();
        let mut sizes: Vec<usize> = Vec::new();
        for m in self.message() {
            if !operations.contains(&m.operation.as_str()) {
                operations.push(&m.operation);
            }
            if let Some(size) = m.size.filter(|s| !sizes.contains(s)) {
                sizes.push(size);
            }
        }
        sizes.sort();
        (operations, sizes)
    }

    /// Per operation, formats x sizes with CUs per KB at the largest size
    /// and the cheapest format per size; then encoded sizes, and what each
    /// reading operation validates.
    pub(crate) fn message_section(&self) -> String {
        let (operations, sizes) = self.message_axes();
        let largest = sizes.last().copied().unwrap_or_default();
        let mut out = format!(
            "\n## Message family\n\n\
             Each program stores one `Message` in its own format; the sizes are the \
             instances' nominal sizes (the borsh encoding is within 3% of each). Every \
             case runs with a {} KiB heap frame, requested as a transaction would; the \
             runtime charges it to the program (8 CUs per 32 KiB past the first), and \
             every program's entrypoint records each account's length for `push_key` \
             (pinocchio's `account-resize`).\n",
            Family::Message.heap_frame() / 1024
        );
        let header = |out: &mut String, first: &str, last: Option<&str>| {
            let _ = write!(out, "\n| {first} |");
            for size in &sizes {
                let _ = write!(out, " {size} |");
            }
            if let Some(last) = last {
                let _ = write!(out, " {last} |");
            }
            out.push_str("\n|---|");
            out.push_str(&"---:|".repeat(sizes.len() + usize::from(last.is_some())));
            out.push('\n');
        };
        for op in &operations {
            let _ = write!(out, "\n### {op}\n\nCUs by nominal size.\n");
            header(
                &mut out,
                "format",
                Some(&format!("CUs per KB at {largest}")),
            );
            let mut programs = self.message_programs();
            programs.sort_by_key(|p| {
                self.message_cell(p, op, largest)
                    .map_or(u64::MAX, |m| m.cus)
            });
            for p in &programs {
                let _ = write!(out, "| {p} |");
                for &size in &sizes {
                    let cell = self.message_cell(p, op, size);
                    let _ = write!(
                        out,
                        " {} |",
                        cell.map_or("-".into(), |m| format!("{}{}", m.cus, self.mainnet_mark(m)))
                    );
                }
                let per_kb = self
                    .message_cell(p, op, largest)
                    .and_then(|m| Some(m.cus as f64 * 1024.0 / m.encoded_bytes? as f64));
                let _ = writeln!(
                    out,
                    " {} |",
                    per_kb.map_or("-".into(), |v| format!("{v:.0}"))
                );
            }
            let cheapest: Vec<String> = sizes
                .iter()
                .filter_map(|&size| {
                    let cells: Vec<(&str, u64)> = self
                        .message_programs()
                        .into_iter()
                        .filter_map(|p| Some((p, self.message_cell(p, op, size)?.cus)))
                        .collect();
                    let least = cells.iter().map(|(_, cus)| *cus).min()?;
                    let tied: Vec<&str> = cells
                        .iter()
                        .filter(|(_, cus)| *cus == least)
                        .map(|(p, _)| *p)
                        .collect();
                    Some(format!("{size}: {} ({least})", tied.join(" = ")))
                })
                .collect();
            let _ = writeln!(out, "\nCheapest: {}.", cheapest.join(", "));
            out.push_str(
                &self.mainnet_footnote(self.message().into_iter().filter(|m| m.operation == *op)),
            );
        }
        out.push_str("\n### Encoded size\n\nBytes of each format's encoding of each instance.\n");
        header(&mut out, "format", None);
        for p in self.message_programs() {
            let _ = write!(out, "| {p} |");
            for &size in &sizes {
                let bytes = self
                    .message_cell(p, "full", size)
                    .and_then(|m| m.encoded_bytes);
                let _ = write!(out, " {} |", bytes.map_or("-".into(), |b| b.to_string()));
            }
            out.push('\n');
        }
        out.push_str(
            "\n### What each operation validates\n\n\
             Found by running each reading operation on the 904-byte instance with a part \
             it does not need damaged (`read_blockhash`, `read_instruction`: the last byte \
             cut off; `sanitize`: a trailing byte): *whole message* if the program refuses \
             it, *what it reads* if it answers. `full` and `push_key` validate the whole \
             message in every format. Cheaper because it checks less shows here.\n\n\
             | format | read_blockhash | sanitize | read_instruction |\n|---|---|---|---|\n",
        );
        for (program, probes) in &self.validation {
            let _ = write!(out, "| {program} |");
            for (_, whole) in probes {
                let _ = write!(
                    out,
                    " {} |",
                    if *whole {
                        "whole message"
                    } else {
                        "what it reads"
                    }
                );
            }
            out.push('\n');
        }
        out
    }
}
