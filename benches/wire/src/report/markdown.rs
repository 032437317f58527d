//! The wire report as markdown (`wire.md`): the sizes, the timings, the
//! distributions and the crossover model, each a section.

use std::fmt::Write as _;

use benches::{
    Family,
    message::{Content, SIZES},
};

use super::{Crossover, INSTANCES_PER_BUCKET, LINK_MBPS, WireReport, WireRow, message_formats};

fn micros(ns: Option<f64>) -> String {
    ns.map_or("-".into(), |ns| format!("{:.2}", ns / 1000.0))
}

impl WireReport {
    fn row(&self, family: Family, format: &str, size: usize) -> Option<&WireRow> {
        self.rows
            .iter()
            .find(|r| r.family == family && r.format == format && r.size == size)
    }

    fn cus(&self, format: &str, operation: &str) -> Option<u64> {
        self.onchain
            .iter()
            .find(|(f, o, _)| f == format && o == operation)
            .map(|(_, _, c)| *c)
    }

    pub fn markdown(&self) -> String {
        let mut out = String::from("# The wire side\n\n");
        let versions: Vec<String> = self
            .versions
            .iter()
            .map(|(n, v)| format!("{n} {v}"))
            .collect();
        let _ = writeln!(
            out,
            "- machine: {}\n- crates: {}\n- timings: criterion medians, microseconds, one process\n",
            self.machine,
            versions.join(", ")
        );
        out.push_str(
            "`base64` is the standard alphabet, padded; `base64+zstd` is computed as agave's \
             account encoder does (the `zstd` stream encoder, one frame, level 0 = zstd's \
             default 3, then base64) and decoded as agave's client types do (base64, then the \
             zstd stream decoder). Snappy (raw) and LZ4 (block) are for comparison; ratios \
             are compressed / raw.\n",
        );

        out.push_str("\n## Sizes\n\n| family | format | size | raw | base64 | base64+zstd | zstd ratio | snappy ratio | lz4 ratio |\n|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
        for r in &self.rows {
            let s = &r.sizes;
            let ratio = |n: usize| format!("{:.2}", n as f64 / s.raw as f64);
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                r.family.name(),
                r.format,
                r.size_label(),
                s.raw,
                s.base64,
                s.base64_zstd,
                ratio(s.zstd),
                ratio(s.snappy),
                ratio(s.lz4)
            );
        }

        out.push_str("\n## Client decode time\n\nMicroseconds (medians). `total base64`: base64 decode + the format's decode (or, without one, its access); `total base64+zstd`: base64 decode + zstd + the same. `zstd compress`: the RPC's side, zstd at its level, not in either total. The metadata family's size is the account's, sent whole.\n\n| family | format | size | base64 | base64 (of zstd) | zstd | decode | zero-copy access | total base64 | total base64+zstd | zstd compress |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for r in &self.rows {
            let t = &r.timings;
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                r.family.name(),
                r.format,
                r.size_label(),
                micros(Some(t.base64)),
                micros(Some(t.base64_of_zstd)),
                micros(Some(t.zstd)),
                micros(t.decode),
                micros(t.access),
                micros(t.total_base64()),
                micros(t.total_base64_zstd()),
                micros(Some(t.zstd_compress))
            );
        }

        let _ = write!(
            out,
            "\n## Compression by size bucket\n\nQuartiles (q1 / median / q3) of the ratio over {INSTANCES_PER_BUCKET} generated messages per bucket. \
             *Realistic*: the benchmark's content (random 32-byte keys, which do not compress; \
             repeated program indices, a discriminator per program, amounts with zero high \
             bytes, which do). *Random*: the same shapes with random indices and data bytes.\n"
        );
        for content in [Content::Realistic, Content::Random] {
            let _ = write!(out, "\n### {content:?} content\n\n| format | codec |");
            for size in SIZES {
                let _ = write!(out, " {size} |");
            }
            out.push_str("\n|---|---|");
            out.push_str(&"---:|".repeat(SIZES.len()));
            out.push('\n');
            let mut keys: Vec<(&str, &str)> = self
                .distributions
                .iter()
                .filter(|d| d.content == content)
                .map(|d| (d.format.as_str(), d.codec))
                .collect();
            keys.dedup();
            for (format, codec) in keys {
                let _ = write!(out, "| {format} | {codec} |");
                for size in SIZES {
                    let d = self.distributions.iter().find(|d| {
                        d.content == content
                            && d.size == size
                            && d.format == format
                            && d.codec == codec
                    });
                    let _ = write!(
                        out,
                        " {} |",
                        d.map_or("-".into(), |d| format!(
                            "{:.2} / {:.2} / {:.2}",
                            d.q1, d.median, d.q3
                        ))
                    );
                }
                out.push('\n');
            }
        }

        out.push_str(
            "\n## Where base64+zstd starts to pay (a model)\n\n\
             A model, not a network measurement: the time to hold the value is the RPC's \
             zstd compression (for `base64+zstd`), the payload's transfer time at the link \
             speed, and the client's decodes, all measured above. `base64+zstd` wins where \
             its smaller payload saves more transfer time than zstd costs on both ends; the \
             cell is the raw size where the two cross, interpolated between the measured \
             message instances. It leaves out latency and everything else a real network \
             adds.\n\n| format |",
        );
        for mbps in LINK_MBPS {
            let _ = write!(out, " {mbps} Mbit/s |");
        }
        out.push_str("\n|---|");
        out.push_str(&"---:|".repeat(LINK_MBPS.len()));
        out.push('\n');
        let mut formats: Vec<&str> = self.crossovers.iter().map(|c| c.format.as_str()).collect();
        formats.dedup();
        for format in formats {
            let _ = write!(out, "| {format} |");
            for mbps in LINK_MBPS {
                let c = self
                    .crossovers
                    .iter()
                    .find(|c| c.format == format && c.mbps == mbps);
                let cell = match c {
                    Some(Crossover { bytes: Some(b), .. }) => format!("{b:.0} bytes"),
                    Some(Crossover {
                        zstd_always: true, ..
                    }) => format!("zstd wins at every size (from {})", SIZES[0]),
                    Some(_) => format!("base64 wins up to {}", SIZES[SIZES.len() - 1]),
                    None => "-".into(),
                };
                let _ = write!(out, " {cell} |");
            }
            out.push('\n');
        }

        self.metadata_model_markdown(&mut out);

        let largest = SIZES[SIZES.len() - 1];
        let _ = write!(
            out,
            "\n## On-chain and wire, the largest message ({largest} bytes nominal)\n\n\
             CUs from `make bench` (target/benches/results.json{}); client time: base64+zstd \
             total, microseconds.\n\n\
             | format | full CUs | sanitize CUs | encoded bytes | base64+zstd bytes | client decode (µs) |\n\
             |---|---:|---:|---:|---:|---:|\n",
            if self.onchain.is_empty() {
                ": not found, run make bench first"
            } else {
                ""
            }
        );
        for format in message_formats(&self.rows) {
            let Some(r) = self.row(Family::Message, format, largest) else {
                continue;
            };
            let cus = |op| self.cus(format, op).map_or("-".into(), |c| c.to_string());
            let _ = writeln!(
                out,
                "| {format} | {} | {} | {} | {} | {} |",
                cus("full"),
                cus("sanitize"),
                r.sizes.raw,
                r.sizes.base64_zstd,
                micros(r.timings.total_base64_zstd())
            );
        }
        out
    }

    /// The model on each metadata account: microseconds `base64+zstd`
    /// saves (or, negative, costs) against `base64`.
    fn metadata_model_markdown(&self, out: &mut String) {
        if self.metadata_gains.is_empty() {
            return;
        }
        out.push_str(
            "\n## Metadata accounts: base64 or base64+zstd (the same model)\n\n\
             Microseconds `base64+zstd` saves over `base64` for the whole account (positive: \
             zstd wins), the RPC's compression and the client's decodes included.\n\n\
             | format | instance |",
        );
        for mbps in LINK_MBPS {
            let _ = write!(out, " {mbps} Mbit/s |");
        }
        out.push_str("\n|---|---|");
        out.push_str(&"---:|".repeat(LINK_MBPS.len()));
        out.push('\n');
        for r in self.rows.iter().filter(|r| r.family == Family::Metadata) {
            let Some(instance) = r.instance else {
                continue;
            };
            let _ = write!(out, "| {} | {instance} |", r.format);
            for mbps in LINK_MBPS {
                let gain = self
                    .metadata_gains
                    .iter()
                    .find(|g| g.format == r.format && g.instance == instance && g.mbps == mbps);
                let _ = write!(out, " {} |", micros(gain.map(|g| g.gain_ns)));
            }
            out.push('\n');
        }
    }
}
