//! The docs' figures that only a profile can say, held to `make profile`'s
//! output as `make bench`'s figures are held to its records:
//!
//! - `<!-- ROW frame:NAME -->123`: the CUs of every stack of `ROW`'s
//!   profile that passes through a frame whose name starts with `NAME`
//!   (counted once however many such frames it holds), from its folded
//!   file (`<!-- postcard::full frame:deserialize_u8 -->`);
//! - `<!-- ROW category:NAME -->123`: `ROW`'s CUs in that category, from
//!   its record's `categories`.
//!
//! `make profile` lists the figures that differ from its run (`make
//! profile DOCS=1` rewrites them); `benches/tests/profile.rs` fails on any.
//! A figure names a row of a program that `make profile` names by inlined
//! frame (every program), so that `make test`'s profile holds it.

use std::collections::BTreeMap;

use super::categories::Category;
use crate::{
    Workspace,
    report::docs::{self, Figure},
};

/// Every profile figure of the README and `docs/` against the profile in
/// `target/benches/`: what differs (`file:line: ...`), each rewritten in
/// place where `write`.
pub fn update(workspace: &Workspace, write: bool) -> Result<Vec<String>, String> {
    let benches = workspace.benches_dir();
    let path = benches.join("results.json");
    let text =
        std::fs::read_to_string(&path).map_err(|e| format!("reading {}: {e}", path.display()))?;
    let results: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let records = docs::records(&results);
    let value = |figure: &Figure| -> Result<Option<u64>, String> {
        if !docs::is_profile_field(&figure.field) {
            return Ok(None);
        }
        let record = docs::record_of(&records, figure)?;
        let profile = record["profile"].as_str().ok_or(format!(
            "record `{}` has no profile: run `make all && make profile`",
            figure.row
        ))?;
        if let Some(name) = figure.field.strip_prefix("category:") {
            if !Category::ALL.iter().any(|c| c.name() == name) {
                return Err(format!(
                    "`{}`: no category `{name}`; the categories: {}",
                    figure.field,
                    Category::ALL.map(|c| c.name()).join(", ")
                ));
            }
            return Ok(Some(record["categories"][name].as_u64().unwrap_or(0)));
        }
        let name = figure
            .field
            .strip_prefix("frame:")
            .expect("a profile field");
        let file = benches.join(profile);
        let text = std::fs::read_to_string(&file)
            .map_err(|e| format!("reading {}: {e}", file.display()))?;
        match through(&text, name) {
            Some(cus) => Ok(Some(cus)),
            None => Err(format!(
                "`{} {}`: no frame of {} starts with `{name}` (is its program named by inlined frame? profile/summary.md says)",
                figure.row,
                figure.field,
                file.display()
            )),
        }
    };
    docs::update_with(&workspace.root, None, &value, write)
}

/// The CUs of the folded stacks that pass through a frame starting with
/// `name`, each stack once; `None` where no frame does.
pub fn through(folded: &str, name: &str) -> Option<u64> {
    let mut by_stack: BTreeMap<&str, u64> = BTreeMap::new();
    for line in folded.lines() {
        let Some((stack, cus)) = line.rsplit_once(' ') else {
            continue;
        };
        if stack.split(';').any(|frame| frame.starts_with(name)) {
            *by_stack.entry(stack).or_default() += cus.parse::<u64>().unwrap_or(0);
        }
    }
    (!by_stack.is_empty()).then(|| by_stack.values().sum())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stack_counts_once_however_many_frames_match() {
        let folded = "p;entry;decode;deserialize_u8<X, Y>;pop 30\n\
                      p;entry;decode;deserialize_u64<X>;pop 7\n\
                      p;entry;encode;serialize_u8<X>;serialize_u8<X> 5\n\
                      p;entry 2\n";
        assert_eq!(through(folded, "deserialize_u8"), Some(30));
        assert_eq!(through(folded, "serialize_u8"), Some(5));
        assert_eq!(through(folded, "deserialize_u"), Some(37));
        assert_eq!(through(folded, "entry"), Some(44));
        assert_eq!(through(folded, "insert"), None);
    }
}
