//! What `make bench` writes besides the bencher's own table: a summary that
//! compares crates per operation, and the provenance of every number.

use std::{collections::BTreeMap, fmt::Write as _, process::Command};

use serde::Serialize;

use crate::{
    Program, Workspace,
    contract::Encoding,
    workspace::read_toml,
    workspace::{Family, Shape},
};

/// The program every ratio is relative to (in the same shape).
pub const BASELINE: &str = "transmute";

/// One program x operation, from a run whose result was checked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Measurement {
    pub family: Family,
    /// The program's folder: its crate or format.
    pub program: String,
    pub shape: Shape,
    pub operation: String,
    /// The message family's nominal instance size.
    pub size: Option<usize>,
    /// The message family: this format's encoding of the instance, in bytes.
    pub encoded_bytes: Option<usize>,
    pub cus: u64,
}

impl Measurement {
    /// The row's name in every report: `<label>::<operation>`, and
    /// `/<size>` for a message instance.
    pub fn row(&self) -> String {
        let label = Program::label_of(self.family, self.shape, &self.program);
        match self.size {
            Some(size) => format!("{label}::{}/{size}", self.operation),
            None => format!("{label}::{}", self.operation),
        }
    }
}

/// What produced the numbers, read from the tools and files themselves.
#[derive(Clone, Debug, Serialize)]
pub struct Provenance {
    /// `cargo build-sbf --version` where `make all SBF_TOOLCHAIN=build-sbf`
    /// built the programs; `None` for the default upstream route.
    pub build_sbf: Option<String>,
    pub rustc: String,
    pub linker: String,
    pub sbpf_arch: String,
    /// Crate -> version from Cargo.lock: the runtime, the harness, and
    /// each program's serializer.
    pub crates: BTreeMap<String, String>,
    pub commit: String,
    pub date: String,
}

impl Provenance {
    pub fn collect(
        workspace: &Workspace,
        programs: &[Program],
        elfs: &[Vec<u8>],
        lock: &Lock,
    ) -> Self {
        // The first line a command prints, if it succeeds and prints one.
        let first_line = |program: &str, args: &[&str]| {
            Command::new(program)
                .args(args)
                .current_dir(&workspace.root)
                .output()
                .ok()
                .filter(|out| out.status.success())
                .and_then(|out| String::from_utf8(out.stdout).ok())
                .and_then(|out| out.lines().next().map(str::to_owned))
        };
        let run = |program: &str, args: &[&str]| {
            first_line(program, args).unwrap_or_else(|| "unknown".into())
        };
        let linker = workspace.root.join(".tools/bin/sbpf-linker");
        let mut arches: Vec<String> = elfs
            .iter()
            .map(|elf| match solana_sbpf::elf::get_sbpf_version(elf) {
                Ok(version) => format!("{version:?}"),
                Err(_) => "unknown".into(),
            })
            .collect();
        arches.sort();
        arches.dedup();
        let dirty = first_line("git", &["status", "--porcelain", "--untracked-files=no"]).is_some();
        let stamps: Vec<String> = programs
            .iter()
            .filter_map(|p| std::fs::read_to_string(p.so_path.with_extension("toolchain")).ok())
            .map(|stamp| stamp.trim().to_string())
            .filter(|stamp| stamp != "upstream")
            .collect();
        Self {
            build_sbf: stamps.first().cloned(),
            rustc: run("rustc", &["--version"]),
            linker: run(linker.to_str().unwrap_or_default(), &["--version"]),
            sbpf_arch: arches.join(", "),
            crates: crate_versions(lock, programs),
            commit: run("git", &["rev-parse", "--short=12", "HEAD"])
                + if dirty { " (uncommitted changes)" } else { "" },
            date: chrono::Utc::now().format("%Y-%m-%d").to_string(),
        }
    }

    pub fn markdown(&self) -> String {
        let crates: Vec<String> = self
            .crates
            .iter()
            .map(|(n, v)| format!("{n} {v}"))
            .collect();
        let toolchain = match &self.build_sbf {
            Some(version) => format!("- toolchain: cargo build-sbf ({version})\n"),
            None => format!("- rustc: {}\n- linker: {}\n", self.rustc, self.linker),
        };
        format!(
            "{toolchain}- sBPF arch: {}\n- crates: {}\n- commit: {}, {}\n",
            self.sbpf_arch,
            crates.join(", "),
            self.commit,
            self.date
        )
    }

    /// One line naming the toolchain, for the baseline.
    pub fn toolchain(&self) -> String {
        match &self.build_sbf {
            Some(version) => format!("cargo build-sbf ({version}), sBPF {}", self.sbpf_arch),
            None => format!("{}, {}, sBPF {}", self.rustc, self.linker, self.sbpf_arch),
        }
    }
}

/// Versions from Cargo.lock of the runtime and harness crates and of each
/// program's serializer, as the lock resolved them for that program.
fn crate_versions(lock: &Lock, programs: &[Program]) -> BTreeMap<String, String> {
    ["pinocchio", "solana-compiler-builtins", "mollusk-svm"]
        .iter()
        .filter_map(|name| Some((name.to_string(), lock.version(name)?)))
        .chain(
            programs
                .iter()
                .flat_map(|program| lock.program_crates(program)),
        )
        .collect()
}

/// The parts of Cargo.lock the report needs.
pub struct Lock {
    packages: Vec<toml::Value>,
}

impl Lock {
    pub fn read(workspace: &Workspace) -> Self {
        let lock = read_toml(&workspace.root.join("Cargo.lock"));
        let packages = lock.get("package").and_then(|p| p.as_array()).cloned();
        Self {
            packages: packages.unwrap_or_default(),
        }
    }

    fn field<'a>(package: &'a toml::Value, key: &str) -> &'a str {
        package
            .get(key)
            .and_then(|v| v.as_str())
            .unwrap_or_default()
    }

    /// The version of a crate that appears once in the lock.
    pub fn version(&self, name: &str) -> Option<String> {
        let mut found = self
            .packages
            .iter()
            .filter(|p| Self::field(p, "name") == name);
        let only = found.next()?;
        found
            .next()
            .is_none()
            .then(|| Self::field(only, "version").to_string())
    }

    /// (crate, version) of what `<program>-program` depends on besides
    /// `common`: its serializer (nothing for the raw cast).
    pub fn program_crates(&self, program: &Program) -> Vec<(String, String)> {
        let package = program.package();
        let Some(entry) = self
            .packages
            .iter()
            .find(|p| Self::field(p, "name") == package)
        else {
            return Vec::new();
        };
        let deps = entry
            .get("dependencies")
            .and_then(|d| d.as_array())
            .cloned();
        deps.unwrap_or_default()
            .iter()
            .filter_map(|dep| {
                // "name" when one version is locked, else "name version".
                let mut words = dep.as_str()?.split(' ');
                let name = words.next()?.to_string();
                let version = match words.next() {
                    Some(version) => version.to_string(),
                    None => self.version(&name)?,
                };
                Some((name, version))
            })
            .filter(|(name, _)| name != "common")
            .collect()
    }
}

/// A whole run: every program's measurements, the floor's, and sizes.
#[derive(Clone, Debug)]
pub struct Run {
    pub provenance: Provenance,
    pub measurements: Vec<Measurement>,
    /// The no-op program's CUs per shape and operation.
    pub floor: Vec<Measurement>,
    /// Message programs: per reading operation, whether it refuses a damaged
    /// part it does not read (`message::validates_unread`).
    pub validation: BTreeMap<String, Vec<(&'static str, bool)>>,
    /// `.so` size in bytes, by program label.
    pub sizes: BTreeMap<String, u64>,
    /// The serializer and its version, by program folder (none for the raw
    /// cast).
    pub crates: BTreeMap<String, Option<(String, String)>>,
    /// How each token program stores `Account`, by program folder.
    pub encodings: BTreeMap<String, Encoding>,
}

impl Run {
    fn find(list: &[Measurement], shape: Shape, program: &str, operation: &str) -> Option<u64> {
        list.iter()
            .find(|m| {
                m.family == Family::Token
                    && m.shape == shape
                    && m.program == program
                    && m.operation == operation
            })
            .map(|m| m.cus)
    }

    /// A token program's CUs for an operation in a shape.
    pub fn cus(&self, shape: Shape, program: &str, operation: &str) -> Option<u64> {
        Self::find(&self.measurements, shape, program, operation)
    }

    fn floor(&self, shape: Shape, operation: &str) -> Option<u64> {
        self.floor
            .iter()
            .find(|m| m.shape == shape && m.operation == operation)
            .map(|m| m.cus)
    }

    /// CUs relative to the raw cast's in the same shape.
    fn ratio(&self, shape: Shape, program: &str, operation: &str) -> Option<f64> {
        let base = self.cus(shape, BASELINE, operation).filter(|b| *b > 0)?;
        Some(self.cus(shape, program, operation)? as f64 / base as f64)
    }

    /// The token family's operations, in the order measured.
    pub fn operations(&self) -> Vec<&str> {
        let mut operations: Vec<&str> = Vec::new();
        for m in self
            .measurements
            .iter()
            .filter(|m| m.family == Family::Token)
        {
            if !operations.contains(&m.operation.as_str()) {
                operations.push(&m.operation);
            }
        }
        operations
    }

    /// The shapes measured, in their order.
    pub fn shapes(&self) -> Vec<Shape> {
        Shape::ALL
            .into_iter()
            .filter(|shape| self.measurements.iter().any(|m| m.shape == *shape))
            .collect()
    }

    /// Token programs, cheapest first operation (`full`, `exact` shape)
    /// first, then by name.
    pub fn programs(&self) -> Vec<&str> {
        let mut programs: Vec<&str> = self
            .measurements
            .iter()
            .filter(|m| m.family == Family::Token)
            .map(|m| m.program.as_str())
            .collect();
        programs.sort();
        programs.dedup();
        let first = self.operations().first().copied().unwrap_or_default();
        programs.sort_by_key(|p| {
            (
                self.cus(Shape::Exact, p, first).unwrap_or(u64::MAX),
                p.to_string(),
            )
        });
        programs
    }

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
        if !self.message().is_empty() {
            out.push_str(&self.message_section());
        }
        out
    }

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
    fn message_section(&self) -> String {
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
                    let _ = write!(out, " {} |", cell.map_or("-".into(), |m| m.cus.to_string()));
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

    fn exact_table(&self) -> String {
        let programs = self.programs();
        let operations = self.operations();
        let mut out = String::new();
        let floor: Vec<String> = operations
            .iter()
            .map(|op| {
                let cus = self.floor(Shape::Exact, op);
                format!("{op} {}", cus.map_or("-".into(), |f| f.to_string()))
            })
            .collect();
        let _ = write!(
            out,
            "\nEach cell: CUs (ratio to `{BASELINE}`). Floor, a no-op program with the same \
             entrypoint and checks: {}. The `net` rows subtract it. `account bytes`: the \
             account's length (a varint encoding's largest, so any value fits); `fixture \
             encoded`: the benchmark account's encoding, at the start of it.\n\n| operation |",
            floor.join(", ")
        );
        for p in &programs {
            let _ = write!(out, " {p} |");
        }
        out.push_str("\n|---|");
        out.push_str(&"---:|".repeat(programs.len()));
        out.push('\n');
        let mut row = |label: String, cell: &dyn Fn(&str) -> String| {
            let _ = write!(out, "| {label} |");
            for p in &programs {
                let _ = write!(out, " {} |", cell(p));
            }
            out.push('\n');
        };
        let shape = Shape::Exact;
        for op in &operations {
            row(op.to_string(), &|p| {
                cell(self.cus(shape, p, op), self.ratio(shape, p, op))
            });
        }
        for op in &operations {
            row(
                format!("net {op}"),
                &|p| match (self.cus(shape, p, op), self.floor(shape, op)) {
                    (Some(c), Some(f)) => (c as i64 - f as i64).to_string(),
                    _ => "-".into(),
                },
            );
        }
        row("account bytes".into(), &|p| {
            self.encodings
                .get(p)
                .map_or("-".into(), |e| e.account_len().to_string())
        });
        row("fixture encoded".into(), &|p| {
            self.encodings
                .get(p)
                .map_or("-".into(), |e| e.fixture_encoded_len().to_string())
        });
        row(".so bytes".into(), &|p| {
            self.sizes
                .get(&Program::label_of(Family::Token, shape, p))
                .map_or("-".into(), u64::to_string)
        });
        out
    }

    /// Per operation, crates x shapes; then each crate's spread.
    fn shapes_section(&self) -> String {
        let shapes = self.shapes();
        let mut out = String::from(
            "\n## Token family: what the compiler knows about the length\n\n\
             `exact`: the program checks `len == 160` (a varint format: its account bytes) and \
             the crate gets a `[u8; 160]`. `at_least`: the program checks `len >= 160` and the \
             crate gets the whole slice. \
             `unchecked`: no length check; the crate's own API refuses short data. \
             Each cell: CUs (ratio to `transmute` in the same shape).\n",
        );
        for op in self.operations() {
            let _ = write!(out, "\n### {op}\n\n| crate |");
            for shape in &shapes {
                let _ = write!(out, " {} |", shape.name());
            }
            out.push_str("\n|---|");
            out.push_str(&"---:|".repeat(shapes.len()));
            out.push('\n');
            for p in self.programs() {
                let _ = write!(out, "| {p} |");
                for &shape in &shapes {
                    let _ = write!(
                        out,
                        " {} |",
                        cell(self.cus(shape, p, op), self.ratio(shape, p, op))
                    );
                }
                out.push('\n');
            }
        }
        out.push_str("\n### Spread by crate\n\n");
        for p in self.programs() {
            let spreads: Vec<String> = self
                .operations()
                .iter()
                .filter_map(|op| {
                    let by_shape: Vec<(Shape, u64)> = shapes
                        .iter()
                        .filter_map(|&s| Some((s, self.cus(s, p, op)?)))
                        .collect();
                    let cheapest = by_shape.iter().min_by_key(|(_, c)| *c)?;
                    let dearest = by_shape.iter().max_by_key(|(_, c)| *c)?;
                    Some(format!(
                        "`{op}` {} in `{}` to {} in `{}` ({:.1}x)",
                        cheapest.1,
                        cheapest.0.name(),
                        dearest.1,
                        dearest.0.name(),
                        dearest.1 as f64 / cheapest.1.max(1) as f64
                    ))
                })
                .collect();
            let _ = writeln!(out, "- **{p}**: {}.", spreads.join("; "));
        }
        out
    }

    /// One record per program x shape x operation, with the provenance.
    pub fn results_json(&self) -> serde_json::Value {
        let records: Vec<serde_json::Value> = self
            .measurements
            .iter()
            .map(|m| {
                let (krate, version) = match self.crates.get(&m.program).cloned().flatten() {
                    Some((name, version)) => (Some(name), Some(version)),
                    None => (None, None),
                };
                let label = Program::label_of(m.family, m.shape, &m.program);
                let encoding = self
                    .encodings
                    .get(&m.program)
                    .filter(|_| m.family == Family::Token);
                serde_json::json!({
                    "row": m.row(),
                    "family": m.family,
                    "program": m.program,
                    "crate": krate,
                    "crate_version": version,
                    "shape": (m.family == Family::Token).then_some(m.shape),
                    "size": m.size,
                    "encoding": encoding.map(|e| e.name()),
                    "account_bytes": encoding.map(|e| e.account_len()),
                    "encoded_bytes": m.encoded_bytes.or(encoding.map(|e| e.fixture_encoded_len())),
                    "operation": m.operation,
                    "cus": m.cus,
                    "net_cus": self.floor(m.shape, &m.operation).map(|f| m.cus as i64 - f as i64),
                    "ratio": self.ratio(m.shape, &m.program, &m.operation),
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
            "floor": self.floor,
            "message_heap_frame": Family::Message.heap_frame(),
            "message_validates": validation,
            "results": records,
        })
    }
}

fn cell(cus: Option<u64>, ratio: Option<f64>) -> String {
    match (cus, ratio) {
        (Some(c), Some(r)) => format!("{c} ({r:.1}x)"),
        (Some(c), None) => c.to_string(),
        (None, _) => "-".into(),
    }
}
