//! Inlined frames for each pc, from the DWARF of a program's `.so.debug`:
//! the program as linked with line tables (`.cargo/line-tables.toml`) by
//! the patched linker (`benches/profile-linker`), which resolves the debug
//! sections' addresses into the concatenated text, before its debug
//! sections were split off (`benches/split-debug`); or a team's own.
//!
//! Two checks stand between the `.so.debug` (the "copy" below) and the
//! measured program. Its loadable segments must be the measured
//! program's bytes, or its DWARF describes other code. And its DWARF
//! addresses are those of the text before the linker's dead-function
//! pass, which removes functions and moves the code after them (by 5 to
//! 2,192 slots in the programs measured here). So each final function
//! (from the text: the entry and every call's target) is placed, in
//! order, on the stretch of the DWARF it came from ([`placement`]), and
//! its pcs are read there. A pc the stretch gives no subprogram (code
//! with line rows and none) is named by its first line row, marked
//! `code at <file>:<line>` (at the program's entry, `entrypoint`, its
//! symbol); a function placed nowhere by its symbol
//! where the copy has a symbol table, else by address, and counted; a
//! copy where nothing is placed is refused, and the program named by
//! function.

use std::{borrow::Cow, collections::BTreeMap};

use addr2line::{
    LookupResult,
    gimli::{self, EndianSlice, RunTimeEndian},
};
use object::{Object, ObjectSection, ObjectSegment};

use super::symbols::{Functions, Symbols, function_symbols, short_name};

pub mod placement;

type Reader<'a> = EndianSlice<'a, RunTimeEndian>;

/// Every pc's frames, from a `.so.debug`'s DWARF.
pub struct Inlined {
    /// Outermost first, per instruction slot of the text.
    frames: Vec<Vec<String>>,
    /// The program's functions, and how many of them have no place in
    /// the DWARF (named by symbol, else by address).
    pub functions: usize,
    pub unmatched: usize,
    /// Stretches of code with line rows and no subprogram, named by
    /// their first line row.
    pub by_line: usize,
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
        let layout = layout(&dwarf)?;
        let file = object::File::parse(copy).map_err(|e| format!("not an ELF object: {e}"))?;
        let functions = with_pointed_to(functions, &file);
        let placed = placement::place(&functions, &layout);
        if placed.iter().all(Option::is_none) {
            return Err(
                "no function of the program matches its .so.debug's DWARF subprograms".into(),
            );
        }
        let symbols = text_symbols(&file, functions.slots);
        let context =
            addr2line::Context::from_dwarf(dwarf).map_err(|e| format!("reading its DWARF: {e}"))?;
        let mut frames = vec![Vec::new(); functions.slots];
        let (mut unmatched, mut by_line) = (0, 0);
        for (start, len) in functions.extents() {
            if placed[start].is_none() {
                unmatched += 1;
                let name = symbols
                    .get(&start)
                    .cloned()
                    .unwrap_or_else(|| functions.name(start));
                frames[start..start + len].fill(vec![name]);
                continue;
            }
            let address = |slot: usize| placed[slot].map_or(u64::MAX, |at| at as u64 * 8);
            // The name of the stretch of code without a subprogram that
            // the function is in, once found.
            let mut stretch: Option<String> = None;
            for (slot, frame) in (start..).zip(&mut frames[start..start + len]) {
                let mut names = frames_at(&context, address(slot))?;
                if names.is_empty() {
                    if stretch.is_none() {
                        by_line += 1;
                        // At the entry, the ELF's entry symbol names it.
                        let name = if slot == functions.entry {
                            functions.name(slot)
                        } else {
                            stretch_name(&context, (slot..start + len).map(address))?
                                .unwrap_or_else(|| functions.name(slot))
                        };
                        stretch = Some(name);
                    }
                    names = vec![stretch.clone().expect("named")];
                } else {
                    stretch = None;
                }
                *frame = names;
            }
        }
        Ok(Inlined {
            frames,
            functions: functions.starts.len(),
            unmatched,
            by_line,
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

/// `functions` with the starts of the functions the program takes the
/// address of (a vtable's entries in its read-only data, a function
/// pointer loaded with `lddw`): a function reached only through one that
/// the trace never took is not a call's target, and would otherwise run
/// on from the function before it.
fn with_pointed_to(functions: &Functions, file: &object::File<'_>) -> Functions {
    use object::SectionKind;
    let mut functions = functions.clone();
    let Some(text) = text_of(file, functions.slots) else {
        return functions;
    };
    let (base, len) = (text.address(), text.size());
    let slot_of = |value: u64| {
        let offset = value.checked_sub(base).filter(|&offset| offset < len)?;
        (offset % 8 == 0).then_some((offset / 8) as usize)
    };
    let mut starts = Vec::new();
    if let Ok(code) = text.data() {
        for pc in 0..functions.slots.saturating_sub(1) {
            let insn = solana_sbpf::ebpf::get_insn_unchecked(code, pc);
            if insn.opc == solana_sbpf::ebpf::LD_DW_IMM {
                let high = solana_sbpf::ebpf::get_insn_unchecked(code, pc + 1).imm as u32;
                starts.extend(slot_of((insn.imm as u32 as u64) | (u64::from(high) << 32)));
            }
        }
    }
    for section in file
        .sections()
        .filter(|s| s.kind() == SectionKind::ReadOnlyData)
    {
        if let Ok(data) = section.data() {
            for word in data.windows(8) {
                starts.extend(slot_of(u64::from_le_bytes(
                    word.try_into().expect("8 bytes"),
                )));
            }
        }
    }
    functions.starts.extend(starts);
    functions.starts.sort_unstable();
    functions.starts.dedup();
    functions
}

/// The DWARF's address space: each concrete subprogram's [start, end) in
/// instruction slots, in the code its compile units cover.
fn layout(dwarf: &gimli::Dwarf<Reader<'_>>) -> Result<placement::Layout, String> {
    let err = |e: gimli::Error| format!("reading its DWARF: {e}");
    let mut subprograms = Vec::new();
    let mut end = 0;
    let mut units = dwarf.units();
    while let Some(header) = units.next().map_err(err)? {
        let unit = dwarf.unit(header).map_err(err)?;
        let mut ranges = dwarf.unit_ranges(&unit).map_err(err)?;
        while let Some(range) = ranges.next().map_err(err)? {
            end = end.max(range.end.div_ceil(8) as usize);
        }
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
            subprograms.push(((low / 8) as usize, (high / 8) as usize));
        }
    }
    if subprograms.is_empty() {
        return Err("its .so.debug has no DWARF subprograms".into());
    }
    Ok(placement::Layout::new(subprograms, end))
}

/// The copy's text: its executable section `slots` instructions long.
fn text_of<'f>(file: &'f object::File<'_>, slots: usize) -> Option<object::Section<'f, 'f>> {
    file.sections()
        .find(|s| s.kind() == object::SectionKind::Text && s.size() == (slots * 8) as u64)
}

/// The copy's function symbols by their first slot in the text (`slots`
/// long), demangled; none where it has no symbol table.
fn text_symbols(file: &object::File<'_>, slots: usize) -> BTreeMap<usize, String> {
    text_of(file, slots)
        .map(|text| function_symbols(file, &text))
        .unwrap_or_default()
        .into_iter()
        .map(|(slot, (_, name))| (slot, name))
        .collect()
}

/// Code that no subprogram covers, from the first of `addresses` on,
/// named by its first line row: `code at <file>:<line>`, the file from
/// its crate's folder on; `None` where it has none before a subprogram.
fn stretch_name(
    context: &addr2line::Context<Reader<'_>>,
    addresses: impl Iterator<Item = u64>,
) -> Result<Option<String>, String> {
    for address in addresses {
        if !frames_at(context, address)?.is_empty() {
            return Ok(None);
        }
        let location = context
            .find_location(address)
            .map_err(|e| format!("reading its DWARF: {e}"))?;
        if let Some((file, line)) = location.and_then(|l| Some((l.file?, l.line?))) {
            return Ok(Some(format!("code at {}:{line}", short_path(file))));
        }
    }
    Ok(None)
}

/// A source path from its crate's folder (`pinocchio-0.11.2/src/lib.rs`)
/// or the standard library's (`core/src/fmt/mod.rs`) on; one relative to
/// the build's folder without its `./`.
fn short_path(path: &str) -> &str {
    let path = path.strip_prefix("./").unwrap_or(path);
    if let Some(at) = path.find("/library/") {
        return &path[at + "/library/".len()..];
    }
    // A registry source: `<registry>/<hash>/<crate>-<version>/...`.
    if let Some(at) = path.find("/registry/") {
        let rest = &path[at + "/registry/".len()..];
        if let Some((_, in_crate)) = rest.split_once('/') {
            return in_crate;
        }
    }
    path
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
