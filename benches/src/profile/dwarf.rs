//! Inlined frames for each pc, from the DWARF of a program's `.so.debug`:
//! the program as linked with line tables (`.cargo/line-tables.toml`) by
//! the patched linker (`benches/profile-linker`), which resolves the debug
//! sections' addresses into the concatenated text, before its debug
//! sections were split off (`benches/split-debug`); or a team's own.
//!
//! Two checks stand between the `.so.debug` (the "copy" below) and the
//! measured program. Its loadable segments must be the measured
//! program's bytes, or its DWARF describes other code. And its DWARF addresses are those of the text
//! before the linker's dead-function pass, which removes functions and
//! moves the code after them (by 5 to 2,192 slots in the programs
//! measured here). So each final function (from the text: the entry and every
//! call's target) is matched, in order, to the DWARF subprograms that fill
//! exactly its length, and its pcs are read at that subprogram's address
//! plus their offset. A function that matches none (code without line
//! tables, such as compiler builtins) is named by address, and counted; a
//! copy where none matches is refused, and the program named by function.

use std::borrow::Cow;

use addr2line::{
    LookupResult,
    gimli::{self, EndianSlice, RunTimeEndian},
};
use object::{Object, ObjectSection, ObjectSegment};

use super::symbols::{Functions, Symbols, short_name};

type Reader<'a> = EndianSlice<'a, RunTimeEndian>;

/// Every pc's frames, from a `.so.debug`'s DWARF.
pub struct Inlined {
    /// Outermost first, per instruction slot of the text.
    frames: Vec<Vec<String>>,
    /// The program's functions, and how many of them matched no DWARF
    /// subprogram (named by address).
    pub functions: usize,
    pub unmatched: usize,
}

impl Symbols for Inlined {
    fn frames(&self, pc: usize) -> Vec<String> {
        match self.frames.get(pc) {
            Some(frames) if !frames.is_empty() => frames.clone(),
            _ => vec![format!("pc@{pc:#x}")],
        }
    }
}

/// The (address, bytes) of each loadable segment.
fn segments(elf: &[u8]) -> Result<Vec<(u64, Vec<u8>)>, String> {
    let file = object::File::parse(elf).map_err(|e| format!("not an ELF object: {e}"))?;
    file.segments()
        .map(|s| Ok((s.address(), s.data().map_err(|e| e.to_string())?.to_vec())))
        .collect()
}

impl Inlined {
    /// `functions` of the measured program; `measured` its ELF, `copy`
    /// its `.so.debug`'s.
    pub fn new(functions: &Functions, measured: &[u8], copy: &[u8]) -> Result<Self, String> {
        if segments(measured)? != segments(copy)? {
            return Err("its .so.debug's loadable segments differ from the measured program's (another build's)".into());
        }
        let sections = load(copy)?;
        let dwarf = sections.borrow(|section| EndianSlice::new(section, RunTimeEndian::Little));
        let subprograms = subprograms(&dwarf)?;
        if subprograms.is_empty() {
            return Err("its .so.debug has no DWARF subprograms".into());
        }
        let regions = match_functions(functions, &subprograms)?;
        let context =
            addr2line::Context::from_dwarf(dwarf).map_err(|e| format!("reading its DWARF: {e}"))?;
        let mut frames = vec![Vec::new(); functions.slots];
        let mut unmatched = 0;
        for ((start, len), dwarf_start) in functions.extents().into_iter().zip(regions) {
            let Some(dwarf_start) = dwarf_start else {
                unmatched += 1;
                let name = functions.name(start);
                frames[start..start + len].fill(vec![name]);
                continue;
            };
            for offset in 0..len {
                let address = (dwarf_start + offset) as u64 * 8;
                frames[start + offset] = frames_at(&context, address)?;
            }
        }
        Ok(Inlined {
            frames,
            functions: functions.starts.len(),
            unmatched,
        })
    }
}

fn load(elf: &[u8]) -> Result<gimli::DwarfSections<Vec<u8>>, String> {
    let file = object::File::parse(elf).map_err(|e| format!("not an ELF object: {e}"))?;
    gimli::DwarfSections::load(|id| -> Result<Vec<u8>, String> {
        let data: Cow<[u8]> = match file.section_by_name(id.name()) {
            Some(section) => section.uncompressed_data().map_err(|e| e.to_string())?,
            None => Cow::Borrowed(&[]),
        };
        Ok(data.into_owned())
    })
}

/// Each concrete subprogram's [start, end) in instruction slots, by start.
fn subprograms(dwarf: &gimli::Dwarf<Reader<'_>>) -> Result<Vec<(usize, usize)>, String> {
    let err = |e: gimli::Error| format!("reading its DWARF: {e}");
    let mut out = Vec::new();
    let mut units = dwarf.units();
    while let Some(header) = units.next().map_err(err)? {
        let unit = dwarf.unit(header).map_err(err)?;
        let mut entries = unit.entries();
        while let Some((_, entry)) = entries.next_dfs().map_err(err)? {
            if entry.tag() != gimli::DW_TAG_subprogram {
                continue;
            }
            let Some(low) = entry.attr_value(gimli::DW_AT_low_pc).map_err(err)? else {
                continue;
            };
            let Some(low) = dwarf.attr_address(&unit, low).map_err(err)? else {
                continue;
            };
            let high = match entry.attr_value(gimli::DW_AT_high_pc).map_err(err)? {
                Some(gimli::AttributeValue::Udata(len)) => low + len,
                Some(other) => match dwarf.attr_address(&unit, other).map_err(err)? {
                    Some(high) => high,
                    None => continue,
                },
                None => continue,
            };
            out.push(((low / 8) as usize, (high / 8) as usize));
        }
    }
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

/// Each final function's start in DWARF slots, `None` where it has no
/// DWARF subprogram of its length (code built without line tables, such
/// as compiler builtins). Both lists are in address order and the linker
/// only removes code, so the matching is the order-preserving alignment of
/// equal lengths with the most matches (a longest common subsequence):
/// one function's coincidental match far ahead cannot push every later
/// function out of line, as a greedy walk would; between alignments with
/// as many matches, the one that moves the functions least.
fn match_functions(
    functions: &Functions,
    subprograms: &[(usize, usize)],
) -> Result<Vec<Option<usize>>, String> {
    let extents = functions.extents();
    let (n, m) = (extents.len(), subprograms.len());
    let fits = |i: usize, j: usize| extents[i].1 == subprograms[j].1 - subprograms[j].0;
    // How far a match moved the function: less is likelier, among
    // alignments with as many matches.
    let shift = |i: usize, j: usize| subprograms[j].0.abs_diff(extents[i].0) as i64;
    // best[i][j]: the most matches among the first i functions and the
    // first j subprograms, then the least total shift.
    let mut best = vec![vec![(0u32, 0i64); m + 1]; n + 1];
    for i in 1..=n {
        for j in 1..=m {
            let skip = best[i - 1][j].max(best[i][j - 1]);
            best[i][j] = if fits(i - 1, j - 1) {
                let (count, shifts) = best[i - 1][j - 1];
                skip.max((count + 1, shifts - shift(i - 1, j - 1)))
            } else {
                skip
            };
        }
    }
    let mut out = vec![None; n];
    let (mut i, mut j) = (n, m);
    while i > 0 && j > 0 {
        let (count, shifts) = best[i - 1][j - 1];
        if fits(i - 1, j - 1) && best[i][j] == (count + 1, shifts - shift(i - 1, j - 1)) {
            out[i - 1] = Some(subprograms[j - 1].0);
            (i, j) = (i - 1, j - 1);
        } else if best[i - 1][j] >= best[i][j - 1] {
            i -= 1;
        } else {
            j -= 1;
        }
    }
    if out.iter().all(Option::is_none) {
        return Err("no function of the program matches its .so.debug's DWARF subprograms".into());
    }
    Ok(out)
}

/// The frames at a DWARF address, outermost first: demangled, without the
/// hash.
fn frames_at(
    context: &addr2line::Context<Reader<'_>>,
    address: u64,
) -> Result<Vec<String>, String> {
    let mut frames = match context.find_frames(address) {
        LookupResult::Output(result) => result.map_err(|e| format!("reading its DWARF: {e}"))?,
        LookupResult::Load { .. } => return Err("its DWARF is split (no supported)".into()),
    };
    let mut names = Vec::new();
    while let Some(frame) = frames
        .next()
        .map_err(|e| format!("reading its DWARF: {e}"))?
    {
        if let Some(function) = frame.function {
            let raw = function
                .raw_name()
                .map_err(|e| format!("reading its DWARF: {e}"))?;
            names.push(short_name(&raw));
        }
    }
    names.reverse();
    Ok(names)
}

#[cfg(test)]
mod tests {
    use super::{Functions, match_functions};

    /// A function with no DWARF of its length (the 108-slot one) is left
    /// by address, and does not push the later ones out of line, though a
    /// subprogram of its length lies far ahead among dead code.
    #[test]
    fn functions_align_with_their_subprograms_in_order() {
        let functions = Functions {
            starts: vec![0, 9, 137, 245],
            entry: 0,
            slots: 619,
        };
        // Final lengths 9, 128, 108, 374; DWARF shifted by 9 after the
        // entry, with dead code between and a 108-slot subprogram at the end.
        let subprograms = [
            (0, 5),
            (5, 14),
            (18, 146),
            (254, 628),
            (2959, 3278),
            (6000, 6108),
        ];
        assert_eq!(
            match_functions(&functions, &subprograms).unwrap(),
            vec![Some(5), Some(18), None, Some(254)]
        );
    }
}
