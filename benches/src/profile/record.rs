//! What one call leaves to profile: each VM run's trace (the program's and
//! every CPI callee's) with what is needed to read it, and the syscalls'
//! charges ([`super::meter`]).

use std::{cell::RefCell, collections::BTreeMap};

use solana_program_runtime::{
    invoke_context::{Executable, InvokeContext},
    vm::calculate_heap_cost,
};
use solana_pubkey::Pubkey;

use super::meter::{self, Charge};
use crate::inspect::Inspector;

/// One VM run: a program executing one instruction (the call's, or a
/// CPI's), as the VM traced it.
#[derive(Clone, Debug, Default)]
pub struct VmRun {
    /// Its instruction's index in the transaction's instruction trace.
    pub index_in_trace: usize,
    /// 1 for the call's program, 2 for a program it invoked, ...
    pub stack_height: usize,
    pub program_id: Pubkey,
    /// The loaded program's text (pc = an instruction slot from its start).
    pub text: Vec<u8>,
    /// sBPF v3 and later: a syscall is `call imm` with src 0, an internal
    /// call src 1; before, any `call imm` whose hash names a syscall.
    pub static_syscalls: bool,
    /// The syscalls the program's loader knows, by hash.
    pub syscalls: BTreeMap<u32, String>,
    /// r0-r10 and the pc before each executed instruction.
    pub trace: Vec<[u64; 12]>,
    /// What the loader charged before the VM ran: the heap frame's pages
    /// beyond the first 32 KiB (agave's `calculate_heap_cost`).
    pub heap_cus: u64,
    /// The heap frame's size in bytes.
    pub heap_bytes: u32,
}

/// One call: its VM runs in instruction-trace order, and every syscall's
/// charge in the order each returned.
#[derive(Clone, Debug, Default)]
pub struct Recorded {
    pub runs: Vec<VmRun>,
    pub charges: Vec<Charge>,
}

/// Keeps each call's [`Recorded`]; installed in a Mollusk made with
/// register tracing and [`meter::install`]ed syscalls.
pub type Recorder = Inspector<Recorded>;

impl Default for Recorder {
    fn default() -> Self {
        // Charges from an earlier call that ended outside the callback go.
        Inspector::new(read_call).before_each(|| {
            meter::take();
        })
    }
}

fn read_call(invoke_context: &InvokeContext, traced: bool, kept: &RefCell<Vec<Recorded>>) {
    if !traced {
        return;
    }
    let runs = RefCell::new(Vec::new());
    let heap_bytes = invoke_context.get_compute_budget().heap_size;
    let heap_cus = calculate_heap_cost(heap_bytes, invoke_context.get_execution_cost().heap_cost);
    invoke_context.iterate_vm_traces(&|instruction, executable, trace| {
        let Ok(program_id) = instruction.get_program_key() else {
            return;
        };
        let syscalls = syscalls_of(executable);
        runs.borrow_mut().push(VmRun {
            index_in_trace: instruction.get_index_in_trace(),
            stack_height: instruction.get_stack_height(),
            program_id: *program_id,
            text: executable.get_text_bytes().1.to_vec(),
            static_syscalls: executable.get_sbpf_version().static_syscalls(),
            syscalls,
            trace: trace.to_vec(),
            heap_cus,
            heap_bytes,
        });
    });
    let mut runs = runs.into_inner();
    runs.sort_by_key(|run| run.index_in_trace);
    kept.borrow_mut().push(Recorded {
        runs,
        charges: meter::take(),
    });
}

/// The syscalls `executable`'s loader knows, by hash.
pub fn syscalls_of(executable: &Executable) -> BTreeMap<u32, String> {
    executable
        .get_loader()
        .get_function_registry()
        .iter()
        .map(|(hash, (name, _))| (hash, String::from_utf8_lossy(name).into_owned()))
        .collect()
}
