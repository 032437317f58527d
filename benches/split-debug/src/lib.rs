//! A program is built once, with line tables (`.cargo/line-tables.toml`),
//! and split in two: `<name>.so`, the program without its debug sections,
//! which is deployed and measured, and `<name>.so.debug`, the file as
//! linked, whose DWARF names each pc's inlined frames (`make profile`).
//!
//! sbpf-linker lays out an sBPF v3 program as the ELF header, the program
//! headers and the loadable segments, in that order; with debug sections
//! it appends them, their names and the section headers after the
//! segments. Without them it writes no section headers at all. So the
//! split keeps the file up to the end of its last segment and clears the
//! header's section fields: the bytes the linker writes without debug
//! sections, and the loadable bytes of the linked file, unchanged. A
//! file whose loader reads its sections (sBPF v0: `.dynsym`, `.rel.dyn`)
//! or with any section past the segments other than debug information,
//! symbols and names is refused rather than cut.

use std::{
    fmt, fs, io,
    path::{Path, PathBuf},
};

/// Where the `.so.debug` of the program at `so` is: beside it, its name
/// with `.debug` added (`borsh.so` -> `borsh.so.debug`).
pub fn debug_path(so: &Path) -> PathBuf {
    let mut name = so.as_os_str().to_owned();
    name.push(".debug");
    PathBuf::from(name)
}

/// The ELF header's offsets this split reads or clears (ELF64).
const E_FLAGS: usize = 0x30;
const E_PHOFF: usize = 0x20;
const E_SHOFF: usize = 0x28;
const E_PHENTSIZE: usize = 0x36;
const E_PHNUM: usize = 0x38;
const E_SHENTSIZE: usize = 0x3a;
const E_SHNUM: usize = 0x3c;
const E_SHSTRNDX: usize = 0x3e;
const HEADER: usize = 0x40;
const PT_LOAD: u32 = 1;
/// `e_flags` of an sBPF v3 program.
const SBPF_V3: u32 = 3;

/// What a linked program splits into.
#[derive(Debug, PartialEq, Eq)]
pub enum Split {
    /// No debug sections: the file is the program as it is.
    Plain,
    /// The program without its debug sections (the linked file is its
    /// `.so.debug`).
    Stripped(Vec<u8>),
}

/// Why a file was not split.
#[derive(Debug, PartialEq, Eq)]
pub struct Refused(pub String);

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Section types the split may drop past the segments: a symbol table
/// and a string table (symbols' names, or the sections' own: sbpf-linker
/// calls that one `.s`).
const SHT_SYMTAB: u32 = 2;
const SHT_STRTAB: u32 = 3;
/// A section type that holds no bytes in the file.
const SHT_NOBITS: u32 = 8;

/// A section past the segments that the split may drop, by name: DWARF,
/// BTF, a toolchain's comment.
fn droppable(name: &[u8]) -> bool {
    name.starts_with(b".debug_") || name.starts_with(b".BTF") || name == b".comment"
}

fn read<const N: usize>(elf: &[u8], at: usize) -> Result<[u8; N], Refused> {
    elf.get(at..at + N)
        .and_then(|bytes| bytes.try_into().ok())
        .ok_or_else(|| Refused(format!("cut short at byte {at}: not a whole ELF file")))
}
fn u16_at(elf: &[u8], at: usize) -> Result<usize, Refused> {
    Ok(u16::from_le_bytes(read(elf, at)?) as usize)
}
fn u32_at(elf: &[u8], at: usize) -> Result<u32, Refused> {
    Ok(u32::from_le_bytes(read(elf, at)?))
}
fn u64_at(elf: &[u8], at: usize) -> Result<usize, Refused> {
    usize::try_from(u64::from_le_bytes(read(elf, at)?))
        .map_err(|_| Refused(format!("an offset past memory at byte {at}")))
}

/// Splits the program linked at `linked`: the program without its debug
/// sections to `deployed`, and the linked file to its [`debug_path`]
/// where it had any (a stale one removed where it had none).
pub fn write(linked: &Path, deployed: &Path) -> Result<(), String> {
    let elf = fs::read(linked).map_err(|e| e.to_string())?;
    let debug = debug_path(deployed);
    match split(&elf).map_err(|e| e.to_string())? {
        Split::Plain => {
            fs::write(deployed, &elf).map_err(at(deployed))?;
            match fs::remove_file(&debug) {
                Err(e) if e.kind() != io::ErrorKind::NotFound => Err(at(&debug)(e)),
                _ => Ok(()),
            }
        }
        Split::Stripped(program) => {
            fs::write(deployed, program).map_err(at(deployed))?;
            fs::write(&debug, &elf).map_err(at(&debug))
        }
    }
}

/// An error about the file at `path`, named.
fn at(path: &Path) -> impl Fn(io::Error) -> String + '_ {
    move |e| format!("{}: {e}", path.display())
}

/// One section header's fields the split reads.
struct Section<'a> {
    name: &'a [u8],
    section_type: u32,
    offset: usize,
    size: usize,
}

/// The section headers of `elf` (none where it has none).
fn sections(elf: &[u8]) -> Result<Vec<Section<'_>>, Refused> {
    let (shoff, shnum) = (u64_at(elf, E_SHOFF)?, u16_at(elf, E_SHNUM)?);
    if shoff == 0 || shnum == 0 {
        return Ok(Vec::new());
    }
    let shentsize = u16_at(elf, E_SHENTSIZE)?;
    if shoff + shentsize * shnum > elf.len() {
        return Err(Refused(format!(
            "its section headers end past its {} bytes: not a whole ELF file",
            elf.len()
        )));
    }
    let names = u64_at(elf, shoff + u16_at(elf, E_SHSTRNDX)? * shentsize + 24)?;
    (0..shnum)
        .map(|i| {
            let header = shoff + i * shentsize;
            let name = elf
                .get(names + u32_at(elf, header)? as usize..)
                .unwrap_or_default();
            Ok(Section {
                name: &name[..name.iter().position(|&b| b == 0).unwrap_or(name.len())],
                section_type: u32_at(elf, header + 4)?,
                offset: u64_at(elf, header + 24)?,
                size: u64_at(elf, header + 32)?,
            })
        })
        .collect()
}

/// Where the loadable segments of `elf` (and its program headers) end.
fn segments_end(elf: &[u8]) -> Result<usize, Refused> {
    let (phoff, phentsize, phnum) = (
        u64_at(elf, E_PHOFF)?,
        u16_at(elf, E_PHENTSIZE)?,
        u16_at(elf, E_PHNUM)?,
    );
    let mut end = phoff + phentsize * phnum;
    for header in (0..phnum).map(|i| phoff + i * phentsize) {
        if u32_at(elf, header)? == PT_LOAD {
            end = end.max(u64_at(elf, header + 8)? + u64_at(elf, header + 32)?);
        }
    }
    if end < HEADER || end > elf.len() {
        return Err(Refused(format!(
            "its segments end at byte {end}, outside the file's {} bytes",
            elf.len()
        )));
    }
    Ok(end)
}

/// Splits the linked program `elf`: [`Split::Plain`] where it has no
/// debug sections, the stripped program where it is sBPF v3 and every
/// section past its loadable segments is droppable.
pub fn split(elf: &[u8]) -> Result<Split, Refused> {
    if elf.get(..6) != Some(&[0x7f, b'E', b'L', b'F', 2, 1][..]) {
        return Err(Refused("not a 64-bit little-endian ELF file".into()));
    }
    let sections = sections(elf)?;
    if !sections.iter().any(|s| droppable(s.name)) {
        return Ok(Split::Plain);
    }
    let flags = u32_at(elf, E_FLAGS)?;
    if flags != SBPF_V3 {
        return Err(Refused(format!(
            "e_flags {flags:#x}, not sBPF v3: its loader reads the section headers, so its debug sections cannot be cut off the end"
        )));
    }
    let end = segments_end(elf)?;
    let kept = |s: &Section| {
        s.offset + s.size <= end || [SHT_SYMTAB, SHT_STRTAB, SHT_NOBITS].contains(&s.section_type)
    };
    if let Some(section) = sections.iter().find(|s| !kept(s) && !droppable(s.name)) {
        return Err(Refused(format!(
            "section {} lies past the loadable segments and is not debug information",
            String::from_utf8_lossy(section.name)
        )));
    }
    let mut program = elf[..end].to_vec();
    program[E_SHOFF..E_SHOFF + 8].fill(0);
    program[E_SHNUM..E_SHSTRNDX + 2].fill(0);
    Ok(Split::Stripped(program))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An ELF as sbpf-linker lays one out: header, one program header, a
    /// 16-byte segment, then (with `sections`) each named section's bytes,
    /// the section names and the section headers.
    fn linked(flags: u32, sections: &[(&str, &[u8])]) -> (Vec<u8>, Vec<u8>) {
        let mut elf = vec![0u8; HEADER];
        elf[..6].copy_from_slice(&[0x7f, b'E', b'L', b'F', 2, 1]);
        elf[E_FLAGS..E_FLAGS + 4].copy_from_slice(&flags.to_le_bytes());
        elf[E_PHOFF..E_PHOFF + 8].copy_from_slice(&(HEADER as u64).to_le_bytes());
        elf[E_PHENTSIZE..E_PHENTSIZE + 2].copy_from_slice(&56u16.to_le_bytes());
        elf[E_PHNUM..E_PHNUM + 2].copy_from_slice(&1u16.to_le_bytes());
        elf[E_SHENTSIZE..E_SHENTSIZE + 2].copy_from_slice(&64u16.to_le_bytes());
        let mut header = vec![0u8; 56];
        header[..4].copy_from_slice(&PT_LOAD.to_le_bytes());
        header[8..16].copy_from_slice(&((HEADER + 56) as u64).to_le_bytes());
        header[32..40].copy_from_slice(&16u64.to_le_bytes());
        elf.extend(header);
        elf.extend([0x95; 16]);
        let plain = elf.clone();
        if sections.is_empty() {
            return (elf, plain);
        }
        let mut names = vec![0u8];
        // (name, offset, size, type): the null section, each given one
        // (PROGBITS), the names (STRTAB, named `.s` as sbpf-linker does).
        let mut placed = vec![(0u32, 0usize, 0usize, 0u32)];
        for (name, bytes) in sections {
            placed.push((names.len() as u32, elf.len(), bytes.len(), 1));
            names.extend(name.bytes().chain([0]));
            elf.extend(*bytes);
        }
        placed.push((names.len() as u32, elf.len(), 0, SHT_STRTAB));
        names.extend(b".s\0");
        let last = placed.len() - 1;
        placed[last].2 = names.len();
        elf.extend(&names);
        let shoff = elf.len();
        for (name, offset, size, section_type) in &placed {
            let mut header = vec![0u8; 64];
            header[..4].copy_from_slice(&name.to_le_bytes());
            header[4..8].copy_from_slice(&section_type.to_le_bytes());
            header[24..32].copy_from_slice(&(*offset as u64).to_le_bytes());
            header[32..40].copy_from_slice(&(*size as u64).to_le_bytes());
            elf.extend(header);
        }
        elf[E_SHOFF..E_SHOFF + 8].copy_from_slice(&(shoff as u64).to_le_bytes());
        elf[E_SHNUM..E_SHNUM + 2].copy_from_slice(&(placed.len() as u16).to_le_bytes());
        elf[E_SHSTRNDX..E_SHSTRNDX + 2].copy_from_slice(&(last as u16).to_le_bytes());
        (elf, plain)
    }

    #[test]
    fn debug_sections_are_cut_to_the_bytes_linked_without_them() {
        let (elf, plain) = linked(SBPF_V3, &[(".debug_line", b"lines"), (".BTF", b"btf")]);
        assert_eq!(split(&elf), Ok(Split::Stripped(plain)));
    }

    #[test]
    fn a_program_without_debug_sections_is_left_as_it_is() {
        let (elf, _) = linked(SBPF_V3, &[]);
        assert_eq!(split(&elf), Ok(Split::Plain));
        // sBPF v0 keeps its section headers, and is not cut either.
        let (elf, _) = linked(0, &[(".dynsym", b"symbols")]);
        assert_eq!(split(&elf), Ok(Split::Plain));
    }

    #[test]
    fn a_section_that_is_not_debug_information_is_not_cut() {
        let (elf, _) = linked(
            SBPF_V3,
            &[(".debug_line", b"x"), (".rodata.extra", b"data")],
        );
        assert_eq!(
            split(&elf),
            Err(Refused(
                "section .rodata.extra lies past the loadable segments and is not debug information".into()
            ))
        );
    }

    #[test]
    fn sbpf_v0_is_refused_and_a_truncated_file_named() {
        let (elf, _) = linked(0, &[(".debug_line", b"x")]);
        assert!(
            split(&elf)
                .unwrap_err()
                .0
                .starts_with("e_flags 0x0, not sBPF v3")
        );
        let (elf, _) = linked(SBPF_V3, &[(".debug_line", b"x")]);
        assert_eq!(
            split(&elf[..elf.len() - 10]),
            Err(Refused(format!(
                "its section headers end past its {} bytes: not a whole ELF file",
                elf.len() - 10
            )))
        );
        assert_eq!(
            split(b"MZ"),
            Err(Refused("not a 64-bit little-endian ELF file".into()))
        );
    }
}
