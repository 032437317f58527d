//! The wire report: sizes, client timings, compression distributions and
//! the crossover model, from one run, as markdown and JSON.

use std::collections::HashMap;

use benches::{
    Family, Workspace,
    lock::Lock,
    message::{self, Content, SIZES},
};
use common::message::host_format;
use serde::Serialize;

use crate::{
    codecs,
    formats::{WireInstance, formats, instances},
    timing::Timer,
};

/// Link speeds of the crossover model, in Mbit/s.
pub const LINK_MBPS: [f64; 3] = [10.0, 100.0, 1000.0];
/// Generated instances per size bucket and content, for the distributions.
pub const INSTANCES_PER_BUCKET: u64 = 100;

/// Bytes of one instance, raw and as each codec sends it.
#[derive(Clone, Debug, Serialize)]
pub struct Sizes {
    pub raw: usize,
    pub base64: usize,
    pub base64_zstd: usize,
    pub zstd: usize,
    pub snappy: usize,
    pub lz4: usize,
}

impl Sizes {
    pub fn of(bytes: &[u8]) -> Self {
        Self {
            raw: bytes.len(),
            base64: codecs::base64(bytes).len(),
            base64_zstd: codecs::base64_zstd(bytes).len(),
            zstd: codecs::zstd(bytes).len(),
            snappy: codecs::snappy(bytes).len(),
            lz4: codecs::lz4(bytes).len(),
        }
    }
}

/// Client medians, in nanoseconds.
#[derive(Clone, Debug, Serialize)]
pub struct Timings {
    /// base64 decode of the `base64` text.
    pub base64: f64,
    /// base64 decode of the `base64+zstd` text.
    pub base64_of_zstd: f64,
    /// zstd decompression (the stream decoder, as agave's client).
    pub zstd: f64,
    /// The RPC's side: zstd compression at its level (as [`codecs::zstd`]).
    pub zstd_compress: f64,
    /// The format's decode into the logical value.
    pub decode: Option<f64>,
    /// The format's zero-copy access, where it has one.
    pub access: Option<f64>,
}

impl Timings {
    /// What the client pays to hold the value: the transport decode, then
    /// the format's decode (or its access, where it has no decode).
    fn format_ns(&self) -> Option<f64> {
        self.decode.or(self.access)
    }

    pub fn total_base64(&self) -> Option<f64> {
        Some(self.base64 + self.format_ns()?)
    }

    pub fn total_base64_zstd(&self) -> Option<f64> {
        Some(self.base64_of_zstd + self.zstd + self.format_ns()?)
    }

    /// What `base64+zstd` saves over `base64` at `mbps` (negative where it
    /// costs): the smaller payload's transfer time against the RPC's
    /// compression and the client's decompression.
    pub fn zstd_gain_ns(&self, sizes: &Sizes, mbps: f64) -> Option<f64> {
        let ns_per_byte = 8.0 * 1000.0 / mbps;
        let plain = sizes.base64 as f64 * ns_per_byte + self.total_base64()?;
        let packed = sizes.base64_zstd as f64 * ns_per_byte
            + self.zstd_compress
            + self.total_base64_zstd()?;
        Some(plain - packed)
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct WireRow {
    pub family: Family,
    pub format: String,
    pub size: usize,
    /// The metadata family's instance.
    pub instance: Option<&'static str>,
    pub sizes: Sizes,
    pub timings: Timings,
}

impl WireRow {
    /// The size column: the metadata family's instance, then the size.
    fn size_label(&self) -> String {
        match self.instance {
            Some(instance) => format!("{instance} ({})", self.size),
            None => self.size.to_string(),
        }
    }
}

/// The model's answer for one metadata account: what `base64+zstd` saves
/// over `base64` (negative where it costs), at a link speed.
#[derive(Clone, Debug, Serialize)]
pub struct MetadataGain {
    pub format: String,
    pub instance: &'static str,
    pub mbps: f64,
    pub gain_ns: f64,
}

/// Compression ratios (compressed / raw) of one bucket, format, codec and
/// content.
#[derive(Clone, Debug, Serialize)]
pub struct Distribution {
    pub content: Content,
    pub size: usize,
    pub format: String,
    pub codec: &'static str,
    pub instances: usize,
    pub q1: f64,
    pub median: f64,
    pub q3: f64,
}

/// Where `base64+zstd` starts to beat `base64` for a format and link speed.
#[derive(Clone, Debug, Serialize)]
pub struct Crossover {
    pub format: String,
    pub mbps: f64,
    /// The raw size (bytes) at which the modelled times cross, linearly
    /// interpolated between instances; `None` when zstd wins or loses at
    /// every size (see `zstd_always`).
    pub bytes: Option<f64>,
    /// Whether zstd wins at every measured size (`bytes` is `None` then).
    pub zstd_always: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct WireReport {
    pub machine: String,
    pub versions: Vec<(String, String)>,
    pub rows: Vec<WireRow>,
    pub distributions: Vec<Distribution>,
    pub crossovers: Vec<Crossover>,
    /// The same model on each metadata account.
    pub metadata_gains: Vec<MetadataGain>,
    /// On-chain CUs from `make bench`'s results.json, if there is one:
    /// (format, operation) -> CUs at the largest message size.
    pub onchain: Vec<(String, String, u64)>,
}

/// Measures everything; `timer` sets how long each timing runs.
pub fn collect(workspace: &Workspace, timer: &mut Timer) -> Result<WireReport, String> {
    let formats = formats(workspace);
    let mut rows = Vec::new();
    // base64 and zstd timings depend on the bytes only: formats with the
    // same encoding share them.
    let mut transport: HashMap<Vec<u8>, (f64, f64, f64, f64)> = HashMap::new();
    for WireInstance {
        format,
        size,
        instance,
        bytes,
    } in instances(&formats)
    {
        let id = |what: &str| {
            format!(
                "wire_{what}_{}_{}_{}",
                format.family.name(),
                format.name,
                instance.map_or(size.to_string(), str::to_string)
            )
        };
        let key = bytes.clone();
        let (base64, base64_of_zstd, zstd, zstd_compress) = match transport.get(&key) {
            Some(t) => *t,
            None => {
                let plain = codecs::base64(&bytes);
                let packed = codecs::base64_zstd(&bytes);
                let compressed = codecs::zstd(&bytes);
                let t = (
                    timer.median_ns(&id("base64"), || codecs::decode_base64(&plain))?,
                    timer.median_ns(&id("base64_of_zstd"), || codecs::decode_base64(&packed))?,
                    timer.median_ns(&id("zstd"), || codecs::unzstd(&compressed))?,
                    timer.median_ns(&id("zstd_compress"), || codecs::zstd(&bytes))?,
                );
                transport.insert(key, t);
                t
            }
        };
        let decode = match &format.decode {
            Some(f) => Some(timer.median_ns(&id("decode"), || f(&bytes))?),
            None => None,
        };
        let access = match &format.access {
            Some(f) => Some(timer.median_ns(&id("access"), || f(&bytes))?),
            None => None,
        };
        rows.push(WireRow {
            family: format.family,
            format: format.name.clone(),
            size,
            instance,
            sizes: Sizes::of(&bytes),
            timings: Timings {
                base64,
                base64_of_zstd,
                zstd,
                zstd_compress,
                decode,
                access,
            },
        });
    }
    let crossovers = crossovers(&rows);
    Ok(WireReport {
        machine: machine(),
        versions: versions(workspace),
        distributions: distributions(&rows),
        crossovers,
        metadata_gains: metadata_gains(&rows),
        onchain: onchain(workspace),
        rows,
    })
}

/// The message family's formats, in the rows' order.
pub fn message_formats(rows: &[WireRow]) -> Vec<&str> {
    let mut names: Vec<&str> = rows
        .iter()
        .filter(|r| r.family == Family::Message)
        .map(|r| r.format.as_str())
        .collect();
    names.dedup();
    names
}

/// Quartile `p` (0..=1) of sorted `values`, linearly interpolated.
fn quantile(sorted: &[f64], p: f64) -> f64 {
    let at = p * (sorted.len() - 1) as f64;
    let (low, high) = (at.floor() as usize, at.ceil() as usize);
    sorted[low] + (sorted[high] - sorted[low]) * (at - low as f64)
}

/// For each message size bucket, content and format, the ratio's
/// quartiles over [`INSTANCES_PER_BUCKET`] generated instances.
fn distributions(rows: &[WireRow]) -> Vec<Distribution> {
    let names = message_formats(rows);
    type CompressedLen = fn(&[u8]) -> usize;
    let codecs: [(&str, CompressedLen); 3] = [
        ("zstd", |b| codecs::zstd(b).len()),
        ("snappy", |b| codecs::snappy(b).len()),
        ("lz4", |b| codecs::lz4(b).len()),
    ];
    let mut out = Vec::new();
    for content in [Content::Realistic, Content::Random] {
        for size in SIZES {
            let messages: Vec<_> = (0..INSTANCES_PER_BUCKET)
                .map(|i| {
                    let seed = (size as u64) << 16 | i | (content as u64) << 40;
                    message::generate(size, seed, content)
                })
                .collect();
            for name in &names {
                let Some(codec) = host_format(name) else {
                    continue;
                };
                let encoded: Vec<Vec<u8>> = messages.iter().map(|m| (codec.encode)(m)).collect();
                for (codec_name, compress) in codecs {
                    let mut ratios: Vec<f64> = encoded
                        .iter()
                        .map(|b| compress(b) as f64 / b.len() as f64)
                        .collect();
                    ratios.sort_by(f64::total_cmp);
                    out.push(Distribution {
                        content,
                        size,
                        format: name.to_string(),
                        codec: codec_name,
                        instances: ratios.len(),
                        q1: quantile(&ratios, 0.25),
                        median: quantile(&ratios, 0.5),
                        q3: quantile(&ratios, 0.75),
                    });
                }
            }
        }
    }
    out
}

/// The model: the time to have the value is the RPC's compression (for
/// `base64+zstd`), the payload's transfer time at the link speed, and the
/// client's decodes. `base64+zstd` wins where its smaller payload saves
/// more transfer time than zstd costs on both ends. It leaves out latency
/// and everything else a real network adds.
fn crossovers(rows: &[WireRow]) -> Vec<Crossover> {
    let mut out = Vec::new();
    let names = message_formats(rows);
    for name in names {
        let points: Vec<&WireRow> = rows
            .iter()
            .filter(|r| r.format == name && r.family == Family::Message)
            .collect();
        for mbps in LINK_MBPS {
            // Positive where zstd wins.
            let gains: Vec<(f64, f64)> = points
                .iter()
                .filter_map(|r| Some((r.sizes.raw as f64, r.timings.zstd_gain_ns(&r.sizes, mbps)?)))
                .collect();
            let first_win = gains.iter().position(|(_, g)| *g > 0.0);
            let (bytes, zstd_always) = match first_win {
                Some(0) => (None, true),
                Some(i) => {
                    let (x0, g0) = gains[i - 1];
                    let (x1, g1) = gains[i];
                    (Some(x0 + (x1 - x0) * (-g0) / (g1 - g0)), false)
                }
                None => (None, false),
            };
            out.push(Crossover {
                format: name.to_string(),
                mbps,
                bytes,
                zstd_always,
            });
        }
    }
    out
}

/// The model on every metadata account (one size per format: the account
/// is allocated at its largest, so there is no crossover size to find).
fn metadata_gains(rows: &[WireRow]) -> Vec<MetadataGain> {
    let mut out = Vec::new();
    for r in rows.iter().filter(|r| r.family == Family::Metadata) {
        for mbps in LINK_MBPS {
            if let (Some(instance), Some(gain_ns)) =
                (r.instance, r.timings.zstd_gain_ns(&r.sizes, mbps))
            {
                out.push(MetadataGain {
                    format: r.format.clone(),
                    instance,
                    mbps,
                    gain_ns,
                });
            }
        }
    }
    out
}

fn machine() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    format!("{cpu}, {cores} cores, {}", std::env::consts::OS)
}

fn versions(workspace: &Workspace) -> Vec<(String, String)> {
    let lock = Lock::read(workspace);
    ["base64", "zstd", "snap", "lz4_flex", "criterion"]
        .iter()
        .filter_map(|name| Some((name.to_string(), lock.version(name)?)))
        .collect()
}

/// `full` and `sanitize` CUs at the largest size, from `make bench`.
fn onchain(workspace: &Workspace) -> Vec<(String, String, u64)> {
    let path = workspace.benches_dir().join("results.json");
    let Some(json) = std::fs::read_to_string(path)
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
    else {
        return Vec::new();
    };
    let largest = *SIZES.last().expect("sizes") as u64;
    json["results"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|r| r["family"] == "message" && r["size"] == largest)
        .filter(|r| r["operation"] == "full" || r["operation"] == "sanitize")
        .filter_map(|r| {
            Some((
                r["program"].as_str()?.to_string(),
                r["operation"].as_str()?.to_string(),
                r["cus"].as_u64()?,
            ))
        })
        .collect()
}

mod markdown;
