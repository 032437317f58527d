//! The tally: what the measured programs came to, gathered as each is
//! checked, and the items refused on the way (a refused link, a check that
//! was a bug).

use std::{collections::BTreeMap, path::Path};

use benches::exported::ExportedCase;

use crate::{
    measure::{self, Row},
    model::Site,
    plan::NoRow,
    profile::KeptProgram,
    render::RowFormat,
};

/// What the measured programs came to, gathered as each is checked.
#[derive(Default)]
pub(super) struct Tally {
    pub rows: Vec<Row>,
    pub failures: Vec<String>,
    pub hostile: BTreeMap<String, u32>,
    pub elfs: Vec<Vec<u8>>,
    /// Every row that ran, as `cases.json` exports it.
    pub cases: Vec<ExportedCase>,
    /// Items with no row: their program was refused, or its check
    /// panicked (a bug).
    pub refused: Vec<NoRow>,
    /// Every program whose rows were kept, for its profile.
    pub programs: Vec<KeptProgram>,
}

impl Tally {
    /// Keeps the checks of one program (its name, package and format; its
    /// `.so` is `elf`, at `so` under the project's `root`) and says so in
    /// a line: `what` its rows are.
    pub fn keep(
        &mut self,
        (program, package, format): (&str, &str, RowFormat),
        what: &str,
        (root, so): (&Path, &Path),
        elf: Vec<u8>,
        checked: measure::Checked,
        progress: &mut dyn FnMut(&str),
    ) {
        progress(&format!(
            "  {program}: {} {what} checked, {} hostile cases",
            checked.rows.len(),
            checked.hostile.values().sum::<u32>()
        ));
        for (name, count) in checked.hostile {
            *self.hostile.entry(name).or_insert(0) += count;
        }
        self.programs.push(KeptProgram {
            name: program.to_string(),
            package: package.to_string(),
            format,
            so: so.to_path_buf(),
        });
        let so = so.strip_prefix(root).unwrap_or(so).to_string_lossy();
        self.cases
            .extend(checked.rows.iter().filter_map(|row| row.exported(&so)));
        self.rows.extend(checked.rows);
        self.failures.extend(checked.failures);
        self.elfs.push(elf);
    }

    /// Refuses one item of `site`, with the reason.
    pub fn refuse(&mut self, site: Site, name: &str, format: RowFormat, reason: &str) {
        self.refused.push(NoRow {
            site,
            name: name.to_string(),
            format,
            reason: reason.to_string(),
            found: None,
        });
    }
}
