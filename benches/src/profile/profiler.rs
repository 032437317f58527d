//! Profiles a run's rows: each call's record attributed with its programs
//! named, kept by row for the files ([`super::output`]).

use std::collections::HashMap;

use solana_pubkey::Pubkey;

use super::{
    attribute::{Named, Profile, attribute},
    dwarf::Inlined,
    frames::NamedBy,
    record::{Recorded, VmRun},
    symbols::{Functions, Symbols},
};
use crate::Program;

/// How a program's code is named in its profiles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Naming {
    /// By inlined frame, from its `.so.debug`'s DWARF: how many of its
    /// functions have no place in it (named by address), and how many
    /// stretches of code with line rows and no subprogram are named by
    /// their first row.
    Inlined {
        unmatched: usize,
        functions: usize,
        by_line: usize,
    },
    /// By function (`entrypoint`, `fn@<slot>`), and why not by inlined
    /// frame.
    Functions(String),
}

impl Naming {
    /// How its frames are named, for a comparison: a program named by
    /// function here has no symbol table (the benchmark's are stripped),
    /// so by address.
    pub fn named_by(&self) -> NamedBy {
        match self {
            Naming::Inlined { .. } => NamedBy::Dwarf,
            Naming::Functions(_) => NamedBy::Addresses,
        }
    }
}

/// A program the profiles name: its label and how its code is named.
struct Known {
    label: String,
    symbols: Box<dyn Symbols>,
    naming: Naming,
}

/// Every row's profile, in the order profiled.
#[derive(Default)]
pub struct Profiler {
    programs: HashMap<Pubkey, Known>,
    pub rows: Vec<ProfiledRow>,
}

/// One profiled row.
#[derive(Clone, Debug, Default)]
pub struct ProfiledRow {
    /// Its name in every report (`results.json`'s `row`).
    pub row: String,
    /// Its family's and framework's names (`summary.md`'s groups).
    pub family: &'static str,
    pub framework: &'static str,
    pub profile: Profile,
}

impl Profiler {
    /// Each profiled program's label and how it was named, by label.
    pub fn namings(&self) -> std::collections::BTreeMap<String, Naming> {
        self.programs
            .values()
            .map(|known| (known.label.clone(), known.naming.clone()))
            .collect()
    }

    /// Profiles the call of `row` (its profile empty until now) that
    /// consumed `cus`; `programs` are the ones loaded beside it (which
    /// name the call's programs).
    pub fn profile(
        &mut self,
        mut row: ProfiledRow,
        cus: u64,
        programs: &[Program],
        recorded: &Recorded,
    ) -> Result<(), String> {
        for run in &recorded.runs {
            if !self.programs.contains_key(&run.program_id)
                && let Some(program) = programs.iter().find(|p| p.id == run.program_id)
            {
                let (symbols, naming) = self.symbols_of(program, run);
                let known = Known {
                    label: program.label(),
                    symbols,
                    naming,
                };
                self.programs.insert(run.program_id, known);
            }
        }
        let named = |id: &Pubkey| {
            self.programs.get(id).map(|known| Named {
                label: known.label.clone(),
                symbols: known.symbols.as_ref(),
            })
        };
        let profile = attribute(recorded, cus, &named).map_err(|e| format!("{}: {e}", row.row))?;
        if profile.total() != cus {
            return Err(format!(
                "{}: the profile sums to {} CUs, the call consumed {cus}",
                row.row,
                profile.total()
            ));
        }
        row.profile = profile;
        self.rows.push(row);
        Ok(())
    }
}

impl Profiler {
    /// By inlined frame where the program's `.so.debug` (beside it, from
    /// `make all`) is there and checks; by function, with the reason,
    /// where not.
    fn symbols_of(&self, program: &Program, run: &VmRun) -> (Box<dyn Symbols>, Naming) {
        let debug = split_debug::debug_path(&program.so_path);
        let copy = std::fs::read(&debug)
            .map_err(|_| format!("no {} (make all writes it)", debug.display()));
        match std::fs::read(&program.so_path) {
            Ok(measured) => named_by(run, &measured, copy),
            Err(e) => named_by(
                run,
                &[],
                Err(format!("reading {}: {e}", program.so_path.display())),
            ),
        }
    }
}

/// How a program's code is named, from its first run (`run`): by inlined
/// frame where its `.so.debug` (`copy`, or why there is none) is the
/// `measured` program's bytes with line tables and its functions match
/// its DWARF; by function, with the reason, where not.
pub fn named_by(
    run: &VmRun,
    measured: &[u8],
    copy: Result<Vec<u8>, String>,
) -> (Box<dyn Symbols>, Naming) {
    let functions = Functions::of(run);
    match copy.and_then(|copy| Inlined::new(&functions, measured, &copy)) {
        Ok(inlined) => {
            let naming = Naming::Inlined {
                unmatched: inlined.unmatched,
                functions: inlined.functions,
                by_line: inlined.by_line,
            };
            (Box::new(inlined), naming)
        }
        Err(reason) => (Box::new(functions), Naming::Functions(reason)),
    }
}
