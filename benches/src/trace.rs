//! What a case uses besides compute units, from Mollusk's execution trace
//! (mollusk-svm's `register-tracing`: r0-r10 and the pc before every
//! executed instruction). Each instruction is decoded at its pc; a load's
//! or store's address is its base register plus its offset, and the
//! memory syscalls' ranges come from their argument registers.

use std::{
    cell::RefCell,
    collections::HashSet,
    io, process,
    sync::atomic::{AtomicUsize, Ordering},
};

use mollusk_svm::Mollusk;
use solana_program_runtime::invoke_context::InvokeContext;
use solana_pubkey::Pubkey;
use solana_sbpf::ebpf;

use crate::inspect::Inspector;

/// Where the VM maps the stack and the heap (sBPF v0 and v1+ alike).
const STACK_START: u64 = ebpf::MM_STACK_START;
const HEAP_START: u64 = ebpf::MM_HEAP_START;
const INPUT_START: u64 = ebpf::MM_INPUT_START;
/// One stack frame.
pub const FRAME_BYTES: u64 = 4096;

/// A case's use of the VM, beside its CUs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Footprint {
    /// sBPF instructions executed (each costs one CU; syscalls cost more).
    pub instructions: u64,
    /// The deepest byte below its frame's top that any access reached, in
    /// the frame it touched (a frame is 4,096 bytes); the arguments a call
    /// passes on the stack, at the bottom of the callee's frame, are not
    /// counted.
    pub stack_bytes: u64,
    /// The deepest call nesting: 1 for the entrypoint alone (limit 64).
    pub call_depth: u64,
    /// The span of the heap region touched: from its lowest to its highest
    /// byte accessed, loads, stores and memory syscalls included.
    pub heap_bytes: u64,
}

impl Footprint {
    /// One call's footprint from each of its invocations' (a CPI runs the
    /// callee in a VM of its own): their instructions add up; the stack,
    /// call depth and heap are each VM's own, so the deepest is the call's.
    /// `None` for no invocation.
    pub fn of_call(invocations: &[Footprint]) -> Option<Footprint> {
        invocations.iter().copied().reduce(|a, b| Footprint {
            instructions: a.instructions + b.instructions,
            stack_bytes: a.stack_bytes.max(b.stack_bytes),
            call_depth: a.call_depth.max(b.call_depth),
            heap_bytes: a.heap_bytes.max(b.heap_bytes),
        })
    }

    /// What the syscalls charged of `cus`: what instructions did not.
    pub fn syscall_cus(&self, cus: u64) -> u64 {
        cus.saturating_sub(self.instructions)
    }
}

/// One memory access: its address and length.
type Access = (u64, u64);

/// Reads a trace (registers before each instruction, pc in `regs[11]`)
/// over the program's text.
pub fn footprint(text: &[u8], trace: &[[u64; 12]]) -> Footprint {
    let syscalls = MemorySyscall::ALL.map(|s| (ebpf::hash_symbol_name(s.name().as_bytes()), s));
    // Each access with the frame pointer of the instruction making it.
    let mut accesses: Vec<(Access, u64)> = Vec::new();
    let mut frame_tops: Vec<u64> = Vec::new();
    for regs in trace {
        let frame_top = regs[10];
        if !frame_tops.contains(&frame_top) {
            frame_tops.push(frame_top);
        }
        let insn = ebpf::get_insn_unchecked(text, regs[11] as usize);
        let at = |reg: u8| regs[reg as usize].wrapping_add(insn.off as i64 as u64);
        let size = match insn.opc & 0x18 {
            0x10 => 1,
            0x08 => 2,
            0x00 => 4,
            _ => 8,
        };
        match insn.opc & 0x07 {
            // Loads (`ldx`): the source register's address.
            0x01 => accesses.push(((at(insn.src), size), frame_top)),
            // Stores (`st`, `stx`): the destination register's address.
            0x02 | 0x03 => accesses.push(((at(insn.dst), size), frame_top)),
            _ => {}
        }
        if insn.opc == ebpf::CALL_IMM
            && let Some((_, syscall)) = syscalls.iter().find(|(h, _)| *h == insn.imm as u32)
        {
            accesses.extend(syscall.accesses(regs).into_iter().map(|a| (a, frame_top)));
        }
    }
    frame_tops.sort_unstable();
    let deepest_frame = frame_tops.len() as u64;
    let mut stack_bytes = 0;
    let (mut heap_low, mut heap_high) = (u64::MAX, 0);
    // The arguments a call passes on the stack (the SBF ABI's sixth and
    // later): the caller writes them at or above its frame pointer, into
    // the bottom of the callee's frame, where the callee reads them. They
    // are not the frame's locals, so not its depth.
    let arguments: HashSet<u64> = accesses
        .iter()
        .filter(|&&((addr, _), frame_top)| (frame_top..HEAP_START).contains(&addr))
        .map(|&((addr, _), _)| addr)
        .collect();
    for ((addr, len), _) in accesses.into_iter().filter(|&((_, len), _)| len > 0) {
        if (STACK_START..HEAP_START).contains(&addr) {
            if arguments.contains(&addr) {
                continue;
            }
            // The frame holding `addr`: the lowest frame top above it (the
            // current frame, or a caller's through a pointer).
            if let Some(top) = frame_tops.iter().find(|&&top| top > addr) {
                stack_bytes = stack_bytes.max(top - addr);
            }
        } else if (HEAP_START..INPUT_START).contains(&addr) {
            heap_low = heap_low.min(addr);
            heap_high = heap_high.max(addr + len);
        }
    }
    Footprint {
        instructions: trace.len() as u64,
        stack_bytes,
        call_depth: deepest_frame,
        heap_bytes: heap_high.saturating_sub(heap_low),
    }
}

/// The syscalls that read or write memory the program names in registers.
#[derive(Clone, Copy, Debug)]
enum MemorySyscall {
    Memcpy,
    Memmove,
    Memset,
    Memcmp,
}

impl MemorySyscall {
    const ALL: [Self; 4] = [Self::Memcpy, Self::Memmove, Self::Memset, Self::Memcmp];

    fn name(self) -> &'static str {
        match self {
            Self::Memcpy => "sol_memcpy_",
            Self::Memmove => "sol_memmove_",
            Self::Memset => "sol_memset_",
            Self::Memcmp => "sol_memcmp_",
        }
    }

    /// The ranges it touches: `(r1, r3)` and, but for memset, `(r2, r3)`.
    fn accesses(self, regs: &[u64; 12]) -> Vec<Access> {
        match self {
            Self::Memset => vec![(regs[1], regs[3])],
            _ => vec![(regs[1], regs[3]), (regs[2], regs[3])],
        }
    }
}

pub use crate::section_names::with_section_names;

/// A Mollusk with register tracing and `elf` loaded as `program_id`
/// ([`with_section_names`] applied). Mollusk chooses tracing when it is
/// made, and then loads a first program by file name: a copy is written to
/// the temporary folder for that and removed.
pub fn traced_mollusk(program_id: &Pubkey, elf: &[u8]) -> io::Result<Mollusk> {
    static COPIES: AtomicUsize = AtomicUsize::new(0);
    let copy = std::env::temp_dir().join(format!(
        "benches-trace-{}-{}",
        process::id(),
        COPIES.fetch_add(1, Ordering::Relaxed)
    ));
    let so = copy.with_extension("so");
    std::fs::write(&so, with_section_names(elf))?;
    let mollusk = Mollusk::new_debuggable(program_id, &copy.to_string_lossy(), true);
    std::fs::remove_file(&so)?;
    Ok(mollusk)
}

/// Collects the footprint of each VM run of every traced invocation (in a
/// Mollusk made with register tracing); `take` gives them in order.
pub type Tracer = Inspector<Footprint>;

impl Default for Tracer {
    fn default() -> Self {
        Inspector::new(read_footprints)
    }
}

fn read_footprints(invoke_context: &InvokeContext, traced: bool, kept: &RefCell<Vec<Footprint>>) {
    if !traced {
        return;
    }
    invoke_context.iterate_vm_traces(&|_, executable, trace| {
        let (_, text) = executable.get_text_bytes();
        kept.borrow_mut().push(footprint(text, trace));
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One instruction's bytes.
    fn insn(opc: u8, dst: u8, src: u8, off: i16, imm: i64) -> [u8; 8] {
        ebpf::Insn {
            ptr: 0,
            opc,
            dst,
            src,
            off,
            imm,
        }
        .to_array()
    }

    /// Registers before one instruction: `r1`, `r2`, `r3`, the frame
    /// pointer and the pc.
    fn regs(pc: u64, r1: u64, r2: u64, r3: u64, r10: u64) -> [u64; 12] {
        let mut regs = [0; 12];
        (regs[1], regs[2], regs[3], regs[10], regs[11]) = (r1, r2, r3, r10, pc);
        regs
    }

    /// A program with known answers: a store 24 bytes below the frame's
    /// top, a call (the callee's frame 8 KiB up, as with frame gaps) that
    /// stores 100 bytes down its frame, a heap load at +0 and a heap store
    /// at +96 (8 bytes), a `sol_memcpy_` of 50 bytes from the first frame
    /// into the heap at +1000, and a stack-passed argument the caller
    /// writes 8 bytes above its frame pointer and the callee reads.
    #[test]
    fn known_stack_depth_and_heap() {
        let top = STACK_START + FRAME_BYTES;
        let callee = top + 2 * FRAME_BYTES;
        let memcpy = ebpf::hash_symbol_name(b"sol_memcpy_") as i64;
        let text: Vec<u8> = [
            insn(ebpf::ST_DW_REG, 10, 1, -24, 0),
            insn(ebpf::ST_DW_REG, 10, 1, -100, 0),
            insn(ebpf::LD_B_REG, 2, 1, 0, 0),
            insn(ebpf::ST_DW_REG, 1, 2, 96, 0),
            insn(ebpf::CALL_IMM, 0, 0, 0, memcpy),
            insn(ebpf::ST_DW_REG, 10, 1, 8, 0),
            insn(ebpf::LD_DW_REG, 1, 3, 0, 0),
            insn(ebpf::EXIT, 0, 0, 0, 0),
        ]
        .concat();
        let trace = [
            regs(0, 0, 0, 0, top),
            regs(1, 0, 0, 0, callee),
            regs(2, HEAP_START, 0, 0, callee),
            regs(3, HEAP_START, 0, 0, top),
            regs(4, HEAP_START + 1000, top - 50, 50, top),
            regs(5, 0, 0, 0, top),
            regs(6, 0, 0, top + 8, callee),
            regs(7, 0, 0, 0, top),
        ];
        assert_eq!(
            footprint(&text, &trace),
            Footprint {
                instructions: 8,
                stack_bytes: 100,
                call_depth: 2,
                heap_bytes: 1050,
            }
        );
    }

    /// An ELF without section headers (sBPF v3's) gains the null header
    /// and `.shstrtab` after its last byte, which stay as they were; one
    /// that has them is left alone.
    #[test]
    fn section_names_are_appended_and_nothing_else_moves() {
        let mut elf = vec![0u8; 0x40 + 13];
        elf[..4].copy_from_slice(b"\x7fELF");
        elf[0x40..].fill(0xab);
        let out = with_section_names(&elf);
        assert_eq!(&out[..0x28], &elf[..0x28]);
        assert_eq!(&out[0x40..elf.len()], &elf[0x40..]);
        let u16_at = |at: usize| u16::from_le_bytes([out[at], out[at + 1]]);
        let shoff = u64::from_le_bytes(out[0x28..0x30].try_into().unwrap()) as usize;
        assert_eq!((u16_at(0x3a), u16_at(0x3c), u16_at(0x3e)), (64, 2, 1));
        assert_eq!(shoff % 8, 0);
        assert_eq!(out.len(), shoff + 2 * 64);
        assert_eq!(out[shoff..shoff + 64], [0; 64]);
        let names_at = u64::from_le_bytes(out[shoff + 88..shoff + 96].try_into().unwrap());
        assert_eq!(&out[names_at as usize..][..11], b"\0.shstrtab\0");
        assert_eq!(with_section_names(&out), out);
    }

    /// No memory access: no stack, no heap.
    #[test]
    fn arithmetic_touches_nothing() {
        let text: Vec<u8> = [
            insn(ebpf::ADD64_IMM, 1, 0, 0, 7),
            insn(ebpf::EXIT, 0, 0, 0, 0),
        ]
        .concat();
        let top = STACK_START + FRAME_BYTES;
        let trace = [regs(0, 0, 0, 0, top), regs(1, 0, 0, 0, top)];
        assert_eq!(
            footprint(&text, &trace),
            Footprint {
                instructions: 2,
                stack_bytes: 0,
                call_depth: 1,
                heap_bytes: 0,
            }
        );
    }
}
