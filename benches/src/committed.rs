//! The reports committed beside the code that the docs quote (the
//! toolchain matrix, the Anchor release matrix, the stack sweep, the wire
//! report), each rewritten by its own make target, never by `make docs`.

use std::{collections::BTreeMap, path::Path};

use crate::{anchor_versions, report, sweep, toolchains};

/// The wire report `docs/wire.md` quotes, committed: `make wire-baseline`
/// writes it from a run (the `wire` crate's command).
pub const WIRE_REPORT: &str = "benches/wire/wire.md";

/// The blocks the docs quote from results committed beside the code (the
/// toolchain matrix, the Anchor release matrix, the stack sweep, the wire
/// report), for `report::docs`.
pub fn doc_blocks(root: &Path) -> Result<BTreeMap<String, String>, String> {
    let mut blocks = toolchains::report::doc_blocks(root)?;
    blocks.extend(anchor_versions::report::doc_blocks(root)?);
    blocks.extend(report::docs::committed_report(
        root,
        sweep::COMMITTED,
        "sweep",
        "make sweep-baseline",
    )?);
    blocks.extend(report::docs::committed_report(
        root,
        WIRE_REPORT,
        "wire",
        "make wire-baseline",
    )?);
    Ok(blocks)
}
