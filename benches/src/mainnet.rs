//! The rows that fault (or differ) when replayed with mainnet's runtime
//! features: benches/mainnet.json, written by the LiteSVM replay (`make
//! litesvm-baseline`) and checked against a new replay by `make litesvm`.
//! Every table marks them; results.json says `mainnet_ok`.

use std::{collections::BTreeMap, fs};

use crate::Workspace;

/// The mark a faulting row's cell carries.
pub const MARK: &str = "†";

#[derive(Clone, Debug, Default, serde::Deserialize)]
pub struct Mainnet {
    /// The LiteSVM version that replayed; empty when there is no file.
    #[serde(default)]
    pub litesvm: String,
    /// Row name -> what the replay saw.
    #[serde(default)]
    pub rows: BTreeMap<String, String>,
}

impl Mainnet {
    /// The committed replay's result; none (nothing marked) without it.
    pub fn read(workspace: &Workspace) -> Result<Self, String> {
        let path = workspace.root.join("benches/mainnet.json");
        match fs::read_to_string(&path) {
            Ok(text) => serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display())),
            Err(_) => Ok(Self::default()),
        }
    }

    /// Whether the row ran as on mainnet; `None` where nothing was replayed.
    pub fn ok(&self, row: &str) -> Option<bool> {
        (!self.litesvm.is_empty()).then(|| !self.rows.contains_key(row))
    }

    /// ` †` after a faulting row's number, else nothing.
    pub fn mark(&self, row: &str) -> String {
        if self.rows.contains_key(row) {
            format!(" {MARK}")
        } else {
            String::new()
        }
    }

    /// The footnote under a table with marks: each distinct cause once,
    /// its numbers (frame, address) left out.
    pub fn footnote(&self) -> String {
        let mut causes: Vec<String> = self
            .rows
            .values()
            .map(|what| {
                let what = what.rsplit("failed: ").next().unwrap_or(what);
                what.split_whitespace()
                    .map(|w| {
                        if w.starts_with("0x") || w.chars().all(|c| c.is_ascii_digit()) {
                            "N"
                        } else {
                            w
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        causes.sort();
        causes.dedup();
        let explained = causes
            .iter()
            .any(|c| c.starts_with("Access violation in stack frame"));
        format!(
            "\n{MARK} Faults when replayed in LiteSVM {} with mainnet's runtime features (`make litesvm`; \
             benches/mainnet.json): {}.{}\n",
            self.litesvm,
            causes
                .iter()
                .map(|c| format!("`{c}`"))
                .collect::<Vec<_>>()
                .join("; "),
            if explained {
                " Upstream LLVM's BPF backend compiles `alloc`'s `Vec` growth with a store \
                 8 bytes above the function's frame (`*(u64 *)(r10 + 8)`), which works only \
                 where stack frames are contiguous, as Mollusk (every feature on) lays them \
                 out; mainnet's frames have gaps (docs/replay.md, \"Mainnet's features\"). \
                 The CUs are those of the run with every feature on; built as sBPF v3, \
                 the same programs run with mainnet's features at the same CUs."
            } else {
                ""
            }
        )
    }
}
