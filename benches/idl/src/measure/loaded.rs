//! A generated program under test: loaded plain (the runtime's log and
//! what the VM saw kept for the checks) and traced; one valid call
//! measured, an input made for an error expected to be refused with it and
//! nothing changed, and the hostile generator's inputs.

use benches::{
    hostile,
    trace::{self, Footprint, Tracer},
    vm::{LoggedMollusk, Outcome as RunOutcome},
};
use mollusk_svm::{
    Mollusk,
    result::{InstructionResult, ProgramResult},
};
use proptest::{
    strategy::{Strategy, ValueTree},
    test_runner::{Config, RngAlgorithm, TestRng, TestRunner},
};
use solana_account::Account as SolanaAccount;
use solana_instruction::Instruction;
use solana_program_error::ProgramError;
use solana_pubkey::Pubkey;

use super::{Called, Checked, HEAP_FRAME, HOSTILE_CASES, Measured};

/// A generated program loaded twice: plain, with the runtime's log and
/// what the VM saw kept for the checks, and traced, for instructions,
/// stack and heap.
pub(crate) struct Loaded {
    pub logged: LoggedMollusk,
    traced: Option<(Mollusk, Tracer)>,
}

impl Loaded {
    /// `elf` at `id`, with the generated programs' heap frame; a program
    /// that cannot be traced is a failure in `failures`.
    pub(crate) fn new(id: Pubkey, elf: &[u8], label: &str, failures: &mut Vec<String>) -> Self {
        let mut plain = Mollusk::default();
        plain.compute_budget.heap_size = HEAP_FRAME;
        plain.add_program_with_loader_and_elf(
            &id,
            &solana_sdk_ids::bpf_loader_upgradeable::id(),
            elf,
        );
        let traced = match trace::traced_mollusk(&id, elf) {
            Ok(mut traced) => {
                traced.compute_budget.heap_size = HEAP_FRAME;
                let tracer = Tracer::default();
                tracer.install(&mut traced);
                Some((traced, tracer))
            }
            Err(e) => {
                failures.push(format!("{label}: cannot trace: {e}"));
                None
            }
        };
        Self {
            logged: LoggedMollusk::new(plain),
            traced,
        }
    }

    /// A call that succeeded with `cus`, measured: its footprint from the
    /// traced pass, which must cost the same CUs (else a failure).
    pub(crate) fn ran(
        &self,
        instruction: &Instruction,
        accounts: &[(Pubkey, SolanaAccount)],
        cus: u64,
        case: &str,
        failures: &mut Vec<String>,
    ) -> Measured {
        let footprint = self
            .traced
            .as_ref()
            .map_or(Footprint::default(), |(traced, tracer)| {
                let again = traced.process_instruction(instruction, accounts);
                if again.compute_units_consumed != cus {
                    failures.push(format!(
                        "{case}: {} CUs traced, {cus} untraced",
                        again.compute_units_consumed
                    ));
                }
                Footprint::of_call(&tracer.take()).unwrap_or_default()
            });
        Measured::Ran { cus, footprint }
    }
}

impl Loaded {
    /// Runs a valid call and says what it measured. Where it succeeds,
    /// `accept` checks what it left (its `Err` is the contract failure)
    /// and gives what the replay must see, and the call is measured
    /// ([`Loaded::ran`]); a fault or an exhausted heap is [`cannot_run`];
    /// any other outcome refuses a valid `what`, a failure. `None` where
    /// the call failed (the failure is in `failures`).
    pub(crate) fn valid_call(
        &self,
        instruction: &Instruction,
        before: &[(Pubkey, SolanaAccount)],
        (case, what): (&str, &str),
        failures: &mut Vec<String>,
        accept: impl FnOnce(&InstructionResult) -> Result<Called, String>,
    ) -> Option<(Measured, Option<Called>)> {
        let (result, outcome) = self.logged.run_instruction(instruction, before);
        match outcome {
            RunOutcome::Success => match accept(&result) {
                Ok(called) => {
                    let cus = result.compute_units_consumed;
                    let measured = self.ran(instruction, before, cus, case, failures);
                    Some((measured, Some(called)))
                }
                Err(failure) => {
                    failures.push(format!("{case}: {failure}"));
                    None
                }
            },
            other => match cannot_run(other) {
                Some(measured) => Some((measured, None)),
                None => {
                    failures.push(format!(
                        "{case}: {what} refused ({:?})",
                        result.program_result
                    ));
                    None
                }
            },
        }
    }
}

/// What a valid call that did not succeed measured: a fault or the heap
/// exhausted (a format that cannot hold it); `None` for an error, which
/// breaks the contract.
pub(crate) fn cannot_run(outcome: RunOutcome) -> Option<Measured> {
    match outcome {
        RunOutcome::Fault(message) => Some(Measured::CannotRun(message)),
        RunOutcome::OutOfMemory => Some(Measured::CannotRun(format!(
            "the {} KiB heap exhausted",
            HEAP_FRAME / 1024
        ))),
        _ => None,
    }
}

/// Runs an input made for `error`: the program must refuse it with
/// exactly that error (nothing changed before it, as `logged` sees);
/// otherwise a failure naming `what`.
pub(crate) fn expect_error(
    logged: &LoggedMollusk,
    instruction: &Instruction,
    accounts: &[(Pubkey, SolanaAccount)],
    error: &ProgramError,
    what: &str,
    failures: &mut Vec<String>,
) {
    let (result, outcome) = logged.run_instruction(instruction, accounts);
    let right = matches!(&result.program_result, ProgramResult::Failure(e) if e == error);
    if !right || !matches!(outcome, RunOutcome::Error(_)) {
        failures.push(format!(
            "{what}: {:?} ({outcome:?}), the contract says {error:?}",
            result.program_result
        ));
    }
}

/// The project's hostile generator on `inputs` (valid bytes: instruction
/// data, or an account's data) in turn: `run` runs input `which` damaged
/// and names its outcome for the tally, or says what broke the contract (a
/// failure naming the input and the mutation).
pub(crate) fn hostile_inputs(
    inputs: &[(&str, &[u8])],
    label: &str,
    checked: &mut Checked,
    mut run: impl FnMut(usize, &[u8]) -> Result<String, String>,
) {
    if inputs.is_empty() {
        return;
    }
    let config = Config {
        cases: HOSTILE_CASES,
        failure_persistence: None,
        ..Config::default()
    };
    let mut runner =
        TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha));
    let strategy = (hostile::mutation(), 0..inputs.len());
    for _ in 0..HOSTILE_CASES {
        let Ok(tree) = strategy.new_tree(&mut runner) else {
            continue;
        };
        let (mutation, which) = tree.current();
        let (name, data) = inputs[which];
        match run(which, &mutation.apply(data)) {
            Ok(outcome) => *checked.hostile.entry(outcome).or_default() += 1,
            Err(what) => checked
                .failures
                .push(format!("{label}, hostile {mutation:?} on `{name}`: {what}")),
        }
    }
}

pub(crate) fn first_difference(found: &[u8], expected: &[u8]) -> String {
    if found.len() != expected.len() {
        return format!("left {} bytes, the oracle {}", found.len(), expected.len());
    }
    let at = found
        .iter()
        .zip(expected)
        .position(|(a, b)| a != b)
        .unwrap_or(0);
    format!(
        "byte {at} is {:#04x}, the oracle's {:#04x}",
        found[at], expected[at]
    )
}
