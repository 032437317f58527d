//! How a program's code is named: by function from the text alone
//! ([`Functions`]: the entry and every call's target), or by inlined frame
//! from the DWARF of a copy built with line tables ([`super::dwarf`]).

use solana_sbpf::ebpf;

use super::record::VmRun;

/// Names the code at a pc.
pub trait Symbols {
    /// The frames at `pc` (an instruction slot), outermost first: its
    /// function, then each function inlined into it down to the code at
    /// `pc`. Never empty.
    fn frames(&self, pc: usize) -> Vec<String>;
}

/// The program's functions, from its text: where its entry and each
/// internal call's target start (sBPF v3 calls are pc-relative; before
/// v3, the targets the trace reached). A function runs to the next
/// one's start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Functions {
    /// Each function's first slot, ascending.
    pub starts: Vec<usize>,
    pub entry: usize,
    /// The text's length in slots.
    pub slots: usize,
}

impl Functions {
    /// The functions of `run`'s program.
    pub fn of(run: &VmRun) -> Self {
        let slots = run.text.len() / ebpf::INSN_SIZE;
        let entry = run.trace.first().map_or(0, |regs| regs[11] as usize);
        let mut starts = vec![entry];
        if run.static_syscalls {
            for pc in 0..slots {
                let insn = ebpf::get_insn_unchecked(&run.text, pc);
                if insn.opc == ebpf::CALL_IMM && insn.src == 1 {
                    let target = pc as i64 + 1 + insn.imm;
                    if (0..slots as i64).contains(&target) {
                        starts.push(target as usize);
                    }
                }
            }
        }
        // Whatever the trace entered by a call (callx, or pre-v3 calls).
        for pair in run.trace.windows(2) {
            let insn = ebpf::get_insn_unchecked(&run.text, pair[0][11] as usize);
            let called = insn.opc == ebpf::CALL_REG
                || (insn.opc == ebpf::CALL_IMM && !run.syscalls.contains_key(&(insn.imm as u32)));
            if called {
                starts.push(pair[1][11] as usize);
            }
        }
        starts.sort_unstable();
        starts.dedup();
        Functions {
            starts,
            entry,
            slots,
        }
    }

    /// The start of the function holding `pc`.
    pub fn start_of(&self, pc: usize) -> usize {
        match self.starts.binary_search(&pc) {
            Ok(i) => self.starts[i],
            Err(0) => 0,
            Err(i) => self.starts[i - 1],
        }
    }

    /// Each function's start and length in slots.
    pub fn extents(&self) -> Vec<(usize, usize)> {
        self.starts
            .iter()
            .enumerate()
            .map(|(i, &start)| {
                let end = self.starts.get(i + 1).copied().unwrap_or(self.slots);
                (start, end - start)
            })
            .collect()
    }

    /// A function's name without symbols: `entrypoint`, or its address.
    pub fn name(&self, start: usize) -> String {
        if start == self.entry {
            "entrypoint".into()
        } else {
            format!("fn@{start:#x}")
        }
    }
}

impl Symbols for Functions {
    fn frames(&self, pc: usize) -> Vec<String> {
        vec![self.name(self.start_of(pc))]
    }
}

/// The program's functions named from its ELF symbol table (an
/// unstripped `.so`): each pc's frame is the function symbol that holds
/// it, demangled; code no symbol covers is named as [`Functions`] names
/// it.
#[derive(Clone, Debug)]
pub struct SymbolTable {
    functions: Functions,
    /// Each function symbol's first slot, slots and name, by first slot.
    symbols: std::collections::BTreeMap<usize, (usize, String)>,
}

impl SymbolTable {
    /// The function symbols of `elf`, placed on `run`'s text (the section
    /// whose bytes the loader ran). An error where it has no symbol table
    /// or none of its functions lies on that text.
    pub fn new(run: &VmRun, elf: &[u8]) -> Result<Self, String> {
        use object::{Object, ObjectSection};
        let file = object::File::parse(elf).map_err(|e| format!("not an ELF object: {e}"))?;
        let text = file
            .sections()
            .find(|section| section.data().is_ok_and(|data| data == run.text.as_slice()))
            .ok_or("no section holds the text the loader ran")?;
        let symbols = function_symbols(&file, &text);
        if symbols.is_empty() {
            return Err("no symbol table (a stripped .so)".into());
        }
        Ok(SymbolTable {
            functions: Functions::of(run),
            symbols,
        })
    }

    /// How many function symbols it has.
    pub fn len(&self) -> usize {
        self.symbols.len()
    }

    pub fn is_empty(&self) -> bool {
        self.symbols.is_empty()
    }
}

impl Symbols for SymbolTable {
    fn frames(&self, pc: usize) -> Vec<String> {
        match self.symbols.range(..=pc).next_back() {
            Some((start, (slots, name))) if pc < start + slots => vec![name.clone()],
            _ => self.functions.frames(pc),
        }
    }
}

/// A Rust name as a reader wants it. The BPF backend writes names with
/// every character a symbol cannot hold as `_XX_` (its hex code:
/// `read_owner_3C_160_3E_` is `read_owner<160>`), and cuts a long one to a
/// prefix and a hash; the escapes are undone, a cut name ends in `…`, and
/// a mangled name is demangled without its hash.
pub fn short_name(raw: &str) -> String {
    let demangled = format!("{:#}", rustc_demangle::demangle(raw));
    // A cut name: a prefix, `_`, and 16 hex digits; the cut may fall inside
    // an escape, whose start is dropped with it.
    let (name, cut) = match demangled.rsplit_once('_') {
        Some((prefix, hash))
            if hash.len() == 16
                && hash.bytes().all(|c| c.is_ascii_hexdigit())
                && prefix.contains("_3C_") =>
        {
            let partial = prefix.rfind('_').filter(|&at| {
                prefix[at + 1..].len() < 3
                    && prefix[at + 1..]
                        .bytes()
                        .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_lowercase())
            });
            (&prefix[..partial.unwrap_or(prefix.len())], true)
        }
        _ => (demangled.as_str(), false),
    };
    let bytes = name.as_bytes();
    let mut out = String::with_capacity(name.len());
    let mut i = 0;
    while i < bytes.len() {
        let escape = bytes.get(i..i + 4).filter(|b| {
            b[0] == b'_'
                && b[3] == b'_'
                && b[1..3]
                    .iter()
                    .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_lowercase())
        });
        match escape.and_then(|b| u8::from_str_radix(std::str::from_utf8(&b[1..3]).ok()?, 16).ok())
        {
            Some(byte) if byte.is_ascii_punctuation() || byte == b' ' => {
                out.push(byte as char);
                i += 4;
            }
            _ => {
                out.push(bytes[i] as char);
                i += 1;
            }
        }
    }
    if cut {
        out.push('…');
    }
    out
}

/// The function symbols of `file` that lie in `text` (one of its
/// sections): by their first slot from the section's start, each with its
/// length in slots and its short name. Empty where the file has no symbol
/// table (a stripped `.so`).
pub(crate) fn function_symbols(
    file: &object::File<'_>,
    text: &object::Section<'_, '_>,
) -> std::collections::BTreeMap<usize, (usize, String)> {
    use object::{Object, ObjectSection, ObjectSymbol, SymbolKind};
    let (base, end) = (text.address(), text.address() + text.size());
    file.symbols()
        .filter(|symbol| symbol.kind() == SymbolKind::Text && symbol.size() > 0)
        .filter(|symbol| (base..end).contains(&symbol.address()))
        .filter_map(|symbol| {
            let name = symbol.name().ok()?;
            let slot = ((symbol.address() - base) / ebpf::INSN_SIZE as u64) as usize;
            let slots = symbol.size().div_ceil(ebpf::INSN_SIZE as u64) as usize;
            Some((slot, (slots, short_name(name))))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::short_name;

    #[test]
    fn names_are_unescaped_and_cut_names_marked() {
        assert_eq!(
            short_name("read_owner_3C_160_2C__20_borsh_program_3A__3A_Borsh_3E_"),
            "read_owner<160, borsh_program::Borsh>"
        );
        assert_eq!(short_name("eq_3C__5B_u8_3B__20_32_5D__3E_"), "eq<[u8; 32]>");
        assert_eq!(
            short_name("deserialize_struct_3C_postcard_3A__3A_de_5d917754329cea23"),
            "deserialize_struct<postcard::de…"
        );
        assert_eq!(short_name("process_instruction"), "process_instruction");
        assert_eq!(
            short_name("_ZN4core3ptr13drop_in_place17h0123456789abcdefE"),
            "core::ptr::drop_in_place"
        );
    }
}
