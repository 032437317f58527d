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
        use object::{Object, ObjectSection, ObjectSymbol, SymbolKind};
        let file = object::File::parse(elf).map_err(|e| format!("not an ELF object: {e}"))?;
        let text = file
            .sections()
            .find(|section| section.data().is_ok_and(|data| data == run.text.as_slice()))
            .ok_or("no section holds the text the loader ran")?;
        let base = text.address();
        let end = base + run.text.len() as u64;
        let symbols: std::collections::BTreeMap<usize, (usize, String)> = file
            .symbols()
            .filter(|symbol| symbol.kind() == SymbolKind::Text && symbol.size() > 0)
            .filter(|symbol| (base..end).contains(&symbol.address()))
            .filter_map(|symbol| {
                let name = symbol.name().ok()?;
                let slot = ((symbol.address() - base) / ebpf::INSN_SIZE as u64) as usize;
                let slots = symbol.size().div_ceil(ebpf::INSN_SIZE as u64) as usize;
                Some((slot, (slots, super::dwarf::short_name(name))))
            })
            .collect();
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
