//! The report's section on what each case uses besides CUs: instructions,
//! syscall CUs, stack, call depth and heap, from the traced pass.

use std::fmt::Write as _;

use crate::{
    program::{Family, Framework, Shape},
    report::{Measurement, Run},
};

/// The runtime's default heap frame.
const DEFAULT_HEAP: u64 = 32 * 1024;
/// Where syscalls' share of a case's CUs is worth a mark.
const LARGE_SYSCALL_SHARE: f64 = 0.10;

impl Run {
    /// Per family, a row per case (the token family's `exact` shape; every
    /// message size and metadata instance), then the cases that need more
    /// than the default heap.
    pub fn footprint_section(&self) -> String {
        let mut out = String::from(
            "\n## Stack, calls and heap\n\nFrom the traced pass (`benches/src/trace.rs`): every case run again with Mollusk's register tracing, its CUs equal to the untraced run's. `instructions`: sBPF instructions executed; `syscall CUs`: CUs minus instructions (marked * where over 10% of the CUs); `stack`: the deepest byte below its frame's top any access reached (a frame is 4,096 bytes); `depth`: the deepest call nesting (limit 64); `heap`: the span of the heap the case touched.\n",
        );
        let traced = |family: Family| -> Vec<&Measurement> {
            self.measurements
                .iter()
                .filter(|m| m.family == family && m.footprint.is_some())
                .filter(|m| family != Family::Token || m.shape == Shape::Exact)
                .collect()
        };
        // Each group with its footnote: a family's covers its every row.
        let framework_groups = Framework::others().map(|framework| {
            let rows: Vec<&Measurement> = self
                .frameworks
                .iter()
                .filter(|m| m.framework == framework && m.footprint.is_some())
                .collect();
            let footnote = self.mainnet_footnote(rows.iter().copied());
            (format!("{} programs", framework.title()), rows, footnote)
        });
        let groups = Family::ALL
            .into_iter()
            .map(|family| {
                let footnote =
                    self.mainnet_footnote(self.measurements.iter().filter(|m| m.family == family));
                (
                    format!("`{}` family", family.name()),
                    traced(family),
                    footnote,
                )
            })
            .chain(framework_groups);
        for (heading, rows, footnote) in groups {
            if rows.is_empty() {
                continue;
            }
            let _ = write!(
                out,
                "\n### {heading}\n\n| case | CUs | instructions | syscall CUs | stack | depth | heap |\n|---|---:|---:|---:|---:|---:|---:|\n"
            );
            for m in rows {
                let f = m.footprint.expect("filtered");
                let syscalls = f.syscall_cus(m.cus);
                let mark = if syscalls as f64 > LARGE_SYSCALL_SHARE * m.cus as f64 {
                    " *"
                } else {
                    ""
                };
                let _ = writeln!(
                    out,
                    "| {} | {}{} | {} | {syscalls}{mark} | {} | {} | {} |",
                    m.row(),
                    m.cus,
                    self.mainnet_mark(m),
                    f.instructions,
                    f.stack_bytes,
                    f.call_depth,
                    f.heap_bytes
                );
            }
            out.push_str(&footnote);
        }
        let over: Vec<&Measurement> = self
            .measurements
            .iter()
            .filter(|m| m.footprint.is_some_and(|f| f.heap_bytes > DEFAULT_HEAP))
            .collect();
        out.push_str("\n### Cases that need more than the default 32 KiB heap\n\n");
        if over.is_empty() {
            out.push_str("None.\n");
        }
        for m in over {
            let heap = m.footprint.map_or(0, |f| f.heap_bytes);
            let _ = writeln!(out, "- `{}`: {heap} bytes", m.row());
        }
        out
    }
}
