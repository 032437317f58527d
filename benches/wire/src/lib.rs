//! The wire side (`make wire`): what each format costs off-chain, in bytes
//! as the RPC sends them and in client decode time, next to its on-chain
//! compute units.

pub mod chart;
pub mod codecs;
pub mod formats;
pub mod report;
pub mod timing;

use std::{fs, path::Path};

use benches::Workspace;

/// Measures, then writes `wire.md`, `wire.json`, `wire_sizes.svg` and
/// `wire_ratios.svg` into `out_dir`; returns the report.
pub fn run(
    workspace: &Workspace,
    timer: &mut timing::Timer,
    out_dir: &Path,
) -> Result<report::WireReport, String> {
    let report = report::collect(workspace, timer)?;
    fs::create_dir_all(out_dir).map_err(|e| format!("creating {}: {e}", out_dir.display()))?;
    let write = |name: &str, text: String| {
        fs::write(out_dir.join(name), text).map_err(|e| format!("writing {name}: {e}"))
    };
    write("wire.md", report.markdown())?;
    write(
        "wire.json",
        serde_json::to_string_pretty(&report).expect("the report serializes") + "\n",
    )?;
    write("wire_sizes.svg", chart::sizes_svg(&report)?)?;
    write("wire_ratios.svg", chart::ratios_svg(&report)?)?;
    Ok(report)
}
