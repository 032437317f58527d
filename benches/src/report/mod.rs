//! What `make bench` writes besides the bencher's own table: a summary that
//! compares crates per operation, and the provenance of every number.

pub mod answer;
pub mod charts;
pub mod docs;
pub mod legend;
pub mod page;
pub mod prose;
mod summary;

use std::{collections::BTreeMap, path::Path, process::Command};

use serde::Serialize;

use crate::{
    Program, Workspace,
    exported::CasesFile,
    mainnet::Mainnet,
    program::read_toml,
    program::{Family, Framework, Shape},
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

/// What produced the numbers, read from the tools and files themselves.
#[derive(Clone, Debug, Serialize)]
pub struct Provenance {
    /// `cargo build-sbf --version` where `make all SBF_TOOLCHAIN=build-sbf`
    /// built the programs; `None` for the default upstream route.
    pub build_sbf: Option<String>,
    pub rustc: String,
    /// The LLVM that rustc generates the programs' code with (`rustc -vV`).
    pub llvm: String,
    /// The workspace's `[profile.release]`, which builds every program.
    pub profile: String,
    pub linker: String,
    pub sbpf_arch: String,
    /// The runtime features the numbers were measured and replayed with:
    /// Mollusk's (every feature enabled) and the LiteSVM replay's
    /// (mainnet's, as the locked litesvm lists them).
    pub runtime_features: String,
    /// Crate -> version from Cargo.lock: the runtime, the harness, and
    /// each program's serializer.
    pub crates: BTreeMap<String, String>,
    pub commit: String,
    pub date: String,
}

/// The runtime features behind every number: Mollusk enables every
/// feature the runtime has; `make litesvm` replays each case also with
/// the features active on mainnet, as the replay's locked litesvm
/// (`lock`) lists them.
fn runtime_features(lock: &Lock) -> String {
    let litesvm = lock.version("litesvm").unwrap_or_else(|| "unknown".into());
    format!(
        "every feature enabled (Mollusk); the replay also with mainnet's (litesvm {litesvm}'s list)"
    )
}

/// The checkout's commit, as the committed matrices record it (12 hex
/// digits; empty where git cannot say).
pub fn head_commit(root: &Path) -> String {
    Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .current_dir(root)
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default()
}

/// The sBPF versions of `elfs`, each once, sorted: `V0`, or `V0, V3`.
pub fn sbpf_arches<'a>(elfs: impl Iterator<Item = &'a [u8]>) -> String {
    let mut arches: Vec<String> = elfs
        .map(|elf| match solana_sbpf::elf::get_sbpf_version(elf) {
            Ok(version) => format!("{version:?}"),
            Err(_) => "unknown".into(),
        })
        .collect();
    arches.sort();
    arches.dedup();
    arches.join(", ")
}

impl Provenance {
    /// What built `programs` (their `elfs`), with the crate versions from
    /// `lock` and each other framework's own lock.
    pub fn collect(
        workspace: &Workspace,
        programs: &[Program],
        elfs: &[Vec<u8>],
        lock: &Lock,
    ) -> Self {
        let mut crates = crate_versions(lock, programs);
        // Each other framework's own lock: the framework and the pinocchio
        // it is built on.
        for framework in Framework::OTHERS {
            let own = Lock::of_framework(workspace, framework);
            if let Some(version) = own.version(framework.crate_name()) {
                // Two frameworks are anchor-lang: Anchor 1.x's is named so.
                let name = match framework {
                    Framework::Anchor1 => format!("{} (anchor1)", framework.crate_name()),
                    _ => framework.crate_name().into(),
                };
                crates.insert(name, version);
            }
            if matches!(framework, Framework::SolanaProgram | Framework::Anchor1) {
                // Built in this workspace (its crates are in `lock` above),
                // or on neither pinocchio nor wincode (Anchor 1.x).
                continue;
            }
            for name in ["pinocchio", "wincode"] {
                if let Some(version) = own.version(name) {
                    crates.insert(format!("{name} ({})", framework.name()), version);
                }
            }
        }
        let stamps: Vec<String> = programs
            .iter()
            .filter_map(|p| std::fs::read_to_string(p.so_path.with_extension("toolchain")).ok())
            .map(|stamp| stamp.trim().to_string())
            .filter(|stamp| stamp != "upstream")
            .collect();
        Self {
            build_sbf: stamps.first().cloned(),
            ..Self::of_upstream(&workspace.root, elfs, crates)
        }
    }

    /// What the upstream route (this checkout's rustc and sbpf-linker)
    /// built `elfs` with, and the `crates` they were built from: the
    /// toolchain read from the tools themselves, the commit from git.
    pub fn of_upstream(root: &Path, elfs: &[Vec<u8>], crates: BTreeMap<String, String>) -> Self {
        // What a command prints, if it succeeds.
        let output = |program: &str, args: &[&str]| {
            Command::new(program)
                .args(args)
                .current_dir(root)
                .output()
                .ok()
                .filter(|out| out.status.success())
                .and_then(|out| String::from_utf8(out.stdout).ok())
        };
        // The first line a command prints, if it succeeds and prints one.
        let first_line = |program: &str, args: &[&str]| {
            output(program, args).and_then(|out| out.lines().next().map(str::to_owned))
        };
        let run = |program: &str, args: &[&str]| {
            first_line(program, args).unwrap_or_else(|| "unknown".into())
        };
        let linker = root.join(".tools/bin/sbpf-linker");
        let dirty = first_line("git", &["status", "--porcelain", "--untracked-files=no"]).is_some();
        let llvm = output("rustc", &["-vV"])
            .and_then(|out| {
                out.lines()
                    .find_map(|l| l.strip_prefix("LLVM version: ").map(str::to_owned))
            })
            .unwrap_or_else(|| "unknown".into());
        Self {
            build_sbf: None,
            rustc: run("rustc", &["--version"]),
            llvm,
            profile: release_profile(&root.join("Cargo.toml")),
            linker: run(linker.to_str().unwrap_or_default(), &["--version"]),
            sbpf_arch: sbpf_arches(elfs.iter().map(Vec::as_slice)),
            runtime_features: runtime_features(&Lock::read_file(
                &root.join("benches/litesvm/Cargo.lock"),
            )),
            crates,
            commit: run("git", &["rev-parse", "--short=12", "HEAD"])
                + if dirty { " (uncommitted changes)" } else { "" },
            date: chrono::Utc::now().format("%Y-%m-%d").to_string(),
        }
    }

    pub fn markdown(&self) -> String {
        format!(
            "{}- commit: {}, {}\n",
            self.stable_markdown(),
            self.commit,
            self.date
        )
    }

    /// The provenance without the commit and the date: what the docs
    /// quote, the same on every commit that builds the same programs.
    pub fn stable_markdown(&self) -> String {
        let crates: Vec<String> = self
            .crates
            .iter()
            .map(|(n, v)| format!("{n} {v}"))
            .collect();
        let toolchain = match &self.build_sbf {
            Some(version) => format!("- toolchain: cargo build-sbf ({version})\n"),
            None => format!(
                "- rustc: {}\n- LLVM: {}\n- build profile: {}\n- linker: {}\n",
                self.rustc, self.llvm, self.profile, self.linker
            ),
        };
        format!(
            "{toolchain}- sBPF arch: {}\n- runtime features: {}\n- crates: {}\n",
            self.sbpf_arch,
            self.runtime_features,
            crates.join(", "),
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

/// The release profile as `Cargo.toml` sets it (`release: lto = "fat",
/// codegen-units = 1`), with cargo's default `opt-level = 3` where unset.
fn release_profile(manifest: &Path) -> String {
    let table = read_toml(manifest);
    let release = table
        .get("profile")
        .and_then(|p| p.get("release"))
        .and_then(toml::Value::as_table);
    let mut settings: Vec<String> = release
        .into_iter()
        .flatten()
        .filter(|(_, v)| !v.is_table())
        .map(|(k, v)| format!("{k} = {v}"))
        .collect();
    if !release.is_some_and(|r| r.contains_key("opt-level")) {
        settings.insert(0, "opt-level = 3".into());
    }
    format!("release: {}", settings.join(", "))
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
        Self::read_file(&workspace.root.join("Cargo.lock"))
    }

    /// The lock of another framework's programs
    /// (`programs/<framework>/Cargo.lock`).
    pub fn of_framework(workspace: &Workspace, framework: Framework) -> Self {
        Self::read_file(
            &workspace
                .root
                .join(framework.workspace())
                .join("Cargo.lock"),
        )
    }

    /// Another workspace's lock.
    pub fn read_file(path: &std::path::Path) -> Self {
        let lock = read_toml(path);
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

    /// Every version of a crate in the lock, oldest first.
    pub fn versions(&self, name: &str) -> Vec<String> {
        let mut versions: Vec<String> = self
            .packages
            .iter()
            .filter(|p| Self::field(p, "name") == name)
            .map(|p| Self::field(p, "version").to_string())
            .collect();
        versions.sort_by_key(|v| {
            v.split('.')
                .map(|n| n.parse::<u64>().unwrap_or(0))
                .collect::<Vec<_>>()
        });
        versions
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
    /// The programs of other frameworks (Anchor 2), their floors included.
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
                let pinocchio = m.framework == Framework::Pinocchio;
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
