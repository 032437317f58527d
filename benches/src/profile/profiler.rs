//! Profiles a run's rows: each call's record attributed with its programs
//! named, kept by row for the files ([`super::output`]).

use std::collections::HashMap;

use solana_pubkey::Pubkey;

use super::{
    attribute::{Named, Profile, Symbols, attribute},
    record::{Recorded, VmRun},
    symbols::Functions,
};
use crate::Program;

/// A program the profiles name: its label and how its code is named.
struct Known {
    label: String,
    symbols: Box<dyn Symbols>,
}

/// Every row's profile, in the order profiled.
#[derive(Default)]
pub struct Profiler {
    programs: HashMap<Pubkey, Known>,
    pub rows: Vec<(String, Profile)>,
}

impl Profiler {
    /// Profiles one call of `row` that consumed `cus`; `programs` are the
    /// ones loaded beside it (which name the call's programs).
    pub fn profile(
        &mut self,
        row: &str,
        programs: &[Program],
        recorded: &Recorded,
        cus: u64,
    ) -> Result<(), String> {
        for run in &recorded.runs {
            if !self.programs.contains_key(&run.program_id)
                && let Some(program) = programs.iter().find(|p| p.id == run.program_id)
            {
                let known = Known {
                    label: program.label(),
                    symbols: Box::new(symbols_of(run)),
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
        let profile = attribute(recorded, cus, &named).map_err(|e| format!("{row}: {e}"))?;
        if profile.total() != cus {
            return Err(format!(
                "{row}: the profile sums to {} CUs, the call consumed {cus}",
                profile.total()
            ));
        }
        self.rows.push((row.to_string(), profile));
        Ok(())
    }
}

fn symbols_of(run: &VmRun) -> Functions {
    Functions::of(run)
}
