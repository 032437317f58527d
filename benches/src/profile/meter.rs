//! Each syscall's exact charge, read from the compute meter around it.
//!
//! The trace gives one entry per executed instruction; what a syscall
//! charges on top depends on its arguments (a copy's length, a CPI's
//! callee, a PDA search's bumps). Rather than restate agave's cost rules,
//! every syscall a program can call is replaced, in the profiling Mollusk
//! only, by a wrapper that calls agave's own implementation and records
//! the meter's fall across it: the charge exactly, whatever the rule.
//! mollusk-svm's `cpi_compute_units` does the same for the two CPI calls.

use std::{cell::RefCell, marker::PhantomData};

use mollusk_svm::Mollusk;
use solana_program_runtime::invoke_context::{BuiltinFunctionRegisterer, InvokeContext};
use solana_sbpf::{
    elf::ElfError,
    program::{BuiltinFunctionDefinition, BuiltinProgram},
    vm::ContextObject,
};
use solana_syscalls::{
    SyscallAbort, SyscallAllocFree, SyscallCreateProgramAddress, SyscallGetClockSysvar,
    SyscallGetEpochRewardsSysvar, SyscallGetEpochScheduleSysvar, SyscallGetEpochStake,
    SyscallGetFeesSysvar, SyscallGetLastRestartSlotSysvar, SyscallGetProcessedSiblingInstruction,
    SyscallGetRentSysvar, SyscallGetReturnData, SyscallGetStackHeight, SyscallGetSysvar,
    SyscallInvokeSignedC, SyscallInvokeSignedRust, SyscallLog, SyscallLogBpfComputeUnits,
    SyscallLogData, SyscallLogPubkey, SyscallLogU64, SyscallMemcmp, SyscallMemcpy, SyscallMemmove,
    SyscallMemset, SyscallPanic, SyscallRemainingComputeUnits, SyscallSetReturnData,
    SyscallTryFindProgramAddress,
};

type Context = InvokeContext<'static, 'static>;

/// One syscall's charge: the instruction (its index in the transaction's
/// instruction trace) whose VM made the call, and the CUs the meter fell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Charge {
    pub index_in_trace: usize,
    pub cus: u64,
    /// A CPI's callee: its index in the instruction trace, where the call
    /// reached it.
    pub callee: Option<usize>,
}

thread_local! {
    static CHARGES: RefCell<Vec<Charge>> = const { RefCell::new(Vec::new()) };
}

/// The charges recorded since the last call, in the order the syscalls
/// returned (a CPI's callee's before the CPI's own).
pub fn take() -> Vec<Charge> {
    CHARGES.with_borrow_mut(std::mem::take)
}

/// A syscall `S` that records its charge.
struct Metered<S>(PhantomData<S>);

impl<S: BuiltinFunctionDefinition<Context>> BuiltinFunctionDefinition<Context> for Metered<S> {
    type Error = Box<dyn std::error::Error>;

    fn rust(
        context: &mut Context,
        a: u64,
        b: u64,
        c: u64,
        d: u64,
        e: u64,
    ) -> Result<u64, Self::Error> {
        let index_in_trace = context
            .transaction_context
            .get_current_instruction_context()
            .map(|ix| ix.get_index_in_trace())
            .unwrap_or(usize::MAX);
        // A callee is pushed at the trace's length.
        let next = context.transaction_context.get_instruction_trace_length();
        let before = context.get_remaining();
        let result = S::rust(context, a, b, c, d, e).map_err(Into::into);
        let cus = before.saturating_sub(context.get_remaining());
        let callee =
            (context.transaction_context.get_instruction_trace_length() > next).then_some(next);
        CHARGES.with_borrow_mut(|charges| {
            charges.push(Charge {
                index_in_trace,
                cus,
                callee,
            })
        });
        result
    }
}

/// Replaces `name`'s registration with `S` metered; a syscall the
/// feature set leaves out stays out.
fn metered<S: BuiltinFunctionDefinition<Context> + 'static>(
    loader: &mut BuiltinProgram<Context>,
    name: &str,
) -> Result<(), ElfError> {
    if !loader.unregister_function(name) {
        return Ok(());
    }
    Metered::<S>::register(loader, name)
}

/// Every syscall agave registers for programs (solana-syscalls 4.3.2's
/// `create_program_runtime_environment`) but the curve, hashing and
/// big-number ones, which no program here calls; a call to one of those
/// has no charge recorded, and its profile says so.
const METERED: &[(&str, BuiltinFunctionRegisterer)] = &[
    ("abort", metered::<SyscallAbort>),
    ("sol_panic_", metered::<SyscallPanic>),
    ("sol_log_", metered::<SyscallLog>),
    ("sol_log_64_", metered::<SyscallLogU64>),
    ("sol_log_pubkey", metered::<SyscallLogPubkey>),
    (
        "sol_log_compute_units_",
        metered::<SyscallLogBpfComputeUnits>,
    ),
    ("sol_log_data", metered::<SyscallLogData>),
    (
        "sol_create_program_address",
        metered::<SyscallCreateProgramAddress>,
    ),
    (
        "sol_try_find_program_address",
        metered::<SyscallTryFindProgramAddress>,
    ),
    ("sol_get_clock_sysvar", metered::<SyscallGetClockSysvar>),
    (
        "sol_get_epoch_schedule_sysvar",
        metered::<SyscallGetEpochScheduleSysvar>,
    ),
    ("sol_get_fees_sysvar", metered::<SyscallGetFeesSysvar>),
    ("sol_get_rent_sysvar", metered::<SyscallGetRentSysvar>),
    (
        "sol_get_last_restart_slot",
        metered::<SyscallGetLastRestartSlotSysvar>,
    ),
    (
        "sol_get_epoch_rewards_sysvar",
        metered::<SyscallGetEpochRewardsSysvar>,
    ),
    ("sol_get_sysvar", metered::<SyscallGetSysvar>),
    ("sol_get_epoch_stake", metered::<SyscallGetEpochStake>),
    ("sol_memcpy_", metered::<SyscallMemcpy>),
    ("sol_memmove_", metered::<SyscallMemmove>),
    ("sol_memset_", metered::<SyscallMemset>),
    ("sol_memcmp_", metered::<SyscallMemcmp>),
    (
        "sol_get_processed_sibling_instruction",
        metered::<SyscallGetProcessedSiblingInstruction>,
    ),
    ("sol_get_stack_height", metered::<SyscallGetStackHeight>),
    ("sol_set_return_data", metered::<SyscallSetReturnData>),
    ("sol_get_return_data", metered::<SyscallGetReturnData>),
    ("sol_invoke_signed_c", metered::<SyscallInvokeSignedC>),
    ("sol_invoke_signed_rust", metered::<SyscallInvokeSignedRust>),
    ("sol_alloc_free_", metered::<SyscallAllocFree>),
    (
        "sol_remaining_compute_units",
        metered::<SyscallRemainingComputeUnits>,
    ),
];

/// Whether a syscall's charge is recorded.
pub fn is_metered(name: &str) -> bool {
    METERED.iter().any(|(metered, _)| *metered == name)
}

/// Meters every syscall of [`METERED`] in `mollusk`'s environment.
/// Programs added afterwards are loaded against the metered environment.
pub fn install(mollusk: &mut Mollusk) {
    for (name, register) in METERED {
        mollusk
            .program_cache
            .register_builtin_function(name, *register)
            .expect("re-registering a syscall under its own name");
    }
}
