//! What `make bench` writes besides the bencher's own table: a summary that
//! compares crates per operation, and the provenance of every number.

pub mod answer;
pub mod charts;
pub mod docs;
pub mod legend;
pub mod page;
pub mod prose;
mod summary;

use std::{collections::BTreeMap, path::Path};

use serde::Serialize;

use crate::{
    Program,
    exported::CasesFile,
    mainnet::Mainnet,
    program::{Family, Framework, Shape},
    provenance::Provenance,
    token::{BASELINE, record::Encoding},
    trace::Footprint,
};

/// One program x operation, from a run whose result was checked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Measurement {
    pub framework: Framework,
    pub family: Family,
    /// The program's folder: its crate or format.
    pub program: String,
    pub shape: Shape,
    pub operation: String,
    /// The message family's nominal instance size.
    pub size: Option<usize>,
    /// The metadata family's instance.
    pub instance: Option<&'static str>,
    /// Message and metadata families: this format's encoding of the
    /// instance, in bytes.
    pub encoded_bytes: Option<usize>,
    /// The metadata family: the account's length (the format's largest
    /// encoding).
    pub account_bytes: Option<usize>,
    /// The contract's error where the benchmark's call is an error path
    /// (the metadata family's `minimal` instance has no creators and no
    /// collection): its CUs are those of the refusal.
    pub error: Option<String>,
    pub cus: u64,
    /// Instructions, stack, call depth and heap, from the traced pass.
    pub footprint: Option<Footprint>,
}

impl Measurement {
    /// The row's name in every report: `<label>::<operation>`, and
    /// `/<size>` for a message instance.
    pub fn row(&self) -> String {
        let label = Program::label_in(self.framework, self.family, self.shape, &self.program);
        let variant = self
            .size
            .map(|size| size.to_string())
            .or(self.instance.map(String::from));
        match variant {
            Some(variant) => format!("{label}::{}/{variant}", self.operation),
            None => format!("{label}::{}", self.operation),
        }
    }
}

/// A whole run: every program's measurements, the floor's, and sizes.
#[derive(Clone, Debug)]
pub struct Run {
    pub provenance: Provenance,
    pub measurements: Vec<Measurement>,
    /// The no-op program's CUs per shape and operation.
    pub floor: Vec<Measurement>,
    /// The programs of the other frameworks, their floors included.
    pub frameworks: Vec<Measurement>,
    /// Message programs: per reading operation, whether it refuses a damaged
    /// part it does not read (`message::validates_unread`).
    pub validation: BTreeMap<String, Vec<(&'static str, bool)>>,
    /// Metadata programs: the same, per reading operation
    /// (`metadata::validates_unread`).
    pub metadata_validation: BTreeMap<String, Vec<(&'static str, bool)>>,
    /// `.so` size in bytes, by program label.
    pub sizes: BTreeMap<String, u64>,
    /// The serializer and its version, by program label (none for the raw
    /// cast and the hand-written layouts).
    pub crates: BTreeMap<String, Option<(String, String)>>,
    /// How each token program stores `Account`, by program folder.
    pub encodings: BTreeMap<String, Encoding>,
    /// The rows that fault with mainnet's features (LiteSVM's replay).
    pub mainnet: Mainnet,
    /// The committed baseline's CUs by row (`benches/baseline.json`; empty
    /// where there is none): each record's change against it.
    pub baseline: BTreeMap<String, u64>,
}

impl Run {
    /// The report: provenance, the `exact` table (operations as rows,
    /// programs as columns, ratio to the raw cast, net of the floor, `.so`
    /// sizes), then the shapes section.
    pub fn summary_markdown(&self) -> String {
        let mut out = String::from("# Compute units per operation\n\n");
        out.push_str(&self.provenance.markdown());
        if !self.programs().is_empty() {
            out.push_str("\n## Token family, `exact` shape\n");
            out.push_str(&self.exact_table());
        }
        if self.shapes().len() > 1 {
            out.push_str(&self.shapes_section());
        }
        out.push_str(
            &self.mainnet_footnote(
                self.measurements
                    .iter()
                    .filter(|m| m.family == Family::Token),
            ),
        );
        if !self.message().is_empty() {
            out.push_str(&self.message_section());
        }
        if !self.metadata().is_empty() {
            out.push_str(&self.metadata_section());
        }
        out.push_str(&self.frameworks_section());
        if self.measurements.iter().any(|m| m.footprint.is_some()) {
            out.push_str(&self.footprint_section());
            if !self.message().is_empty() {
                out.push_str(&self.message_limits_section());
            }
        }
        out
    }

    /// The mainnet mark for a measurement's cell (` †`, or nothing).
    pub fn mainnet_mark(&self, m: &Measurement) -> String {
        self.mainnet.mark(&m.row())
    }

    /// The footnote for a table with marked cells, if any is marked.
    pub fn mainnet_footnote<'a>(&self, cells: impl IntoIterator<Item = &'a Measurement>) -> String {
        if cells.into_iter().any(|m| !self.mainnet_mark(m).is_empty()) {
            self.mainnet.footnote()
        } else {
            String::new()
        }
    }

    /// One record per program x shape x operation, with the provenance.
    pub fn results_json(&self) -> serde_json::Value {
        let records: Vec<serde_json::Value> = self
            .measurements
            .iter()
            .chain(&self.frameworks)
            .map(|m| {
                let label = Program::label_in(m.framework, m.family, m.shape, &m.program);
                let (krate, version) = match self.crates.get(&label).cloned().flatten() {
                    Some((name, version)) => (Some(name), Some(version)),
                    None => (None, None),
                };
                let pinocchio = m.framework == Framework::PINOCCHIO;
                let encoding = self
                    .encodings
                    .get(&m.program)
                    .filter(|_| m.family == Family::Token && pinocchio);
                let floor_cus = if pinocchio {
                    self.floor(m.shape, &m.operation)
                } else {
                    self.framework_floor(m.framework, &m.operation)
                };
                let delta_cus = self
                    .baseline
                    .get(&m.row())
                    .map(|old| m.cus as i64 - *old as i64);
                serde_json::json!({
                    "row": m.row(),
                    "delta_cus": delta_cus,
                    "framework": m.framework,
                    "family": m.family,
                    "program": m.program,
                    "crate": krate,
                    "crate_version": version,
                    "shape": (m.family == Family::Token && pinocchio).then_some(m.shape),
                    "size": m.size,
                    "instance": m.instance,
                    "encoding": encoding.map(|e| e.name()),
                    "account_bytes": m.account_bytes.or(encoding.map(|e| e.account_len())),
                    "encoded_bytes": m.encoded_bytes.or(encoding.map(|e| e.fixture_encoded_len())),
                    "operation": m.operation,
                    "cus": m.cus,
                    "mainnet_ok": self.mainnet.ok(&m.row()),
                    "instructions": m.footprint.map(|f| f.instructions),
                    "syscall_cus": m.footprint.map(|f| f.syscall_cus(m.cus)),
                    "stack_bytes": m.footprint.map(|f| f.stack_bytes),
                    "call_depth": m.footprint.map(|f| f.call_depth),
                    "heap_bytes": m.footprint.map(|f| f.heap_bytes),
                    "error_path": m.error,
                    "floor_cus": floor_cus,
                    "net_cus": floor_cus.map(|f| m.cus as i64 - f as i64),
                    "ratio": pinocchio.then(|| self.ratio(m.shape, &m.program, &m.operation)).flatten(),
                    "so_bytes": self.sizes.get(&label),
                })
            })
            .collect();
        let validation: BTreeMap<&String, BTreeMap<&str, &str>> = self
            .validation
            .iter()
            .map(|(program, probes)| {
                let probes = probes
                    .iter()
                    .map(|(op, whole)| {
                        (
                            *op,
                            if *whole {
                                "whole message"
                            } else {
                                "what it reads"
                            },
                        )
                    })
                    .collect();
                (program, probes)
            })
            .collect();
        serde_json::json!({
            "provenance": self.provenance,
            "baseline_program": BASELINE,
            // Each with its row's name, as the records have (the profiles' key).
            "floor": self.floor.iter().map(|m| {
                let mut record = serde_json::to_value(m).expect("JSON");
                record["row"] = m.row().into();
                record
            }).collect::<Vec<_>>(),
            "message_heap_frame": Family::Message.heap_frame(),
            "message_validates": validation,
            "metadata_heap_frame": Family::Metadata.heap_frame(),
            "metadata_validates": self
                .metadata_validation
                .iter()
                .map(|(program, probes)| {
                    let probes: BTreeMap<&str, &str> = probes
                        .iter()
                        .map(|(op, whole)| (*op, if *whole { "whole record" } else { "what it reads" }))
                        .collect();
                    (program, probes)
                })
                .collect::<BTreeMap<_, _>>(),
            "results": records,
        })
    }
}

/// Writes every file of `target/benches/` (`out_dir`) a run produces: the
/// summary, the answer, the records, the cases, the charts and the page.
pub fn write_files(run: &Run, cases: &CasesFile, out_dir: &Path) -> Result<(), String> {
    let write = |file: &str, contents: String| {
        std::fs::write(out_dir.join(file), contents)
            .map_err(|e| format!("writing target/benches/{file}: {e}"))
    };
    write("summary.md", run.summary_markdown())?;
    write("answer.md", answer::markdown(run))?;
    write(
        "results.json",
        serde_json::to_string_pretty(&run.results_json()).expect("JSON") + "\n",
    )?;
    write("compute_units.svg", charts::token::svg(run)?)?;
    write("cases.json", cases.to_text())?;
    if !run.message().is_empty() {
        write("message_cus.svg", charts::message::message_svg(run)?)?;
        write("message_heap.svg", charts::message::message_heap_svg(run)?)?;
    }
    if !run.metadata().is_empty() {
        write("metadata_cus.svg", charts::metadata::metadata_svg(run)?)?;
    }
    page::write(out_dir)?;
    Ok(())
}
