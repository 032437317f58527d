//! Building and running the VM: a Mollusk with each program loaded from
//! its checked ELF under its id, its family's heap frame, and the
//! runtime's log kept ([`Workspace::mollusk`]); a call's [`Outcome`], told
//! apart from the runtime's own log, since an out-of-memory abort and an
//! access violation both end the instruction with
//! `ProgramFailedToComplete`; and what the program did inside the VM before
//! the runtime discarded it ([`InsideVm`]), so that a failed call is
//! checked to have changed nothing.

use std::{
    cell::RefCell,
    fs,
    panic::{self, AssertUnwindSafe},
    rc::Rc,
    sync::{Arc, Mutex},
    thread,
};

use mollusk_svm::{Mollusk, result::InstructionResult, result::ProgramResult};
use solana_account::{Account, ReadableAccount};
use solana_instruction::Instruction;
use solana_program_error::ProgramError;
use solana_program_runtime::invoke_context::InvokeContext;
use solana_pubkey::Pubkey;
use solana_svm_log_collector::LogCollector;

use crate::{
    case::Case,
    error::HarnessError,
    inspect::Inspector,
    profile::{Recorder, VmRun, meter},
    program::{Family, Framework, Program},
    trace::{self, Tracer},
    workspace::{Workspace, newest_file},
};

impl Workspace {
    /// `framework`'s programs of `family` (the token family's with the
    /// framework's floor), and a Mollusk with all of them loaded.
    pub fn load_framework(
        &self,
        framework: Framework,
        family: Family,
    ) -> Result<(Vec<Program>, Mollusk), HarnessError> {
        let programs = self
            .framework_programs()
            .into_iter()
            .filter(|p| p.framework == framework)
            .collect();
        let folder = match framework {
            Framework::SOLANA_PROGRAM => "programs".to_string(),
            other => format!("programs/{}", other.name()),
        };
        self.load_from(programs, family, &folder)
    }

    /// The program's ELF, once it is known to exist and to be newer than
    /// every source it is built from.
    pub fn elf(&self, program: &Program) -> Result<Vec<u8>, HarnessError> {
        let built = fs::metadata(&program.so_path)
            .and_then(|meta| meta.modified())
            .map_err(|_| HarnessError::Missing {
                program: program.label(),
                path: self.relative(&program.so_path),
            })?;
        let inputs = program
            .shared_inputs()
            .into_iter()
            .map(|p| self.root.join(p));
        if let Some((source, _)) = std::iter::once(program.dir.clone())
            .chain(inputs)
            .flat_map(newest_file)
            .filter(|(_, modified)| *modified > built)
            .max_by_key(|(_, modified)| *modified)
        {
            return Err(HarnessError::Stale {
                program: program.label(),
                path: self.relative(&program.so_path),
                source_file: self.relative(&source),
            });
        }
        fs::read(&program.so_path).map_err(|_| HarnessError::Missing {
            program: program.label(),
            path: self.relative(&program.so_path),
        })
    }

    /// A Mollusk with every program loaded under its id.
    pub fn mollusk(&self, programs: &[Program]) -> Result<Mollusk, HarnessError> {
        let elfs = programs
            .iter()
            .map(|p| self.elf(p))
            .collect::<Result<Vec<_>, _>>()?;
        self.mollusk_with(programs, &elfs)
    }

    /// A Mollusk with each program loaded from its already checked ELF, and
    /// the heap frame of their family (one family per Mollusk).
    pub fn mollusk_with(
        &self,
        programs: &[Program],
        elfs: &[Vec<u8>],
    ) -> Result<Mollusk, HarnessError> {
        let mut mollusk = Mollusk::default();
        if let Some(program) = programs.first() {
            mollusk.compute_budget.heap_size = program.family.heap_frame();
        }
        keep_log(&mut mollusk);
        self.add_programs(&mut mollusk, programs, elfs)?;
        Ok(mollusk)
    }

    /// Loads each program into `mollusk` from its already checked ELF.
    fn add_programs(
        &self,
        mollusk: &mut Mollusk,
        programs: &[Program],
        elfs: &[Vec<u8>],
    ) -> Result<(), HarnessError> {
        for (program, elf) in programs.iter().zip(elfs) {
            add_program(mollusk, program, elf).map_err(|reason| HarnessError::Invalid {
                program: program.label(),
                path: self.relative(&program.so_path),
                reason,
            })?;
        }
        Ok(())
    }

    /// Like [`Workspace::mollusk_with`], with register tracing, reporting
    /// each call's footprint to the returned tracer.
    pub fn traced_mollusk(
        &self,
        programs: &[Program],
        elfs: &[Vec<u8>],
    ) -> Result<(Mollusk, Tracer), HarnessError> {
        let mut mollusk = self.tracing_mollusk(programs, elfs, false)?;
        let tracer = Tracer::default();
        tracer.install(&mut mollusk);
        Ok((mollusk, tracer))
    }

    /// Like [`Workspace::traced_mollusk`], with every syscall metered
    /// (`profile::meter`), recording each call's traces and charges for
    /// its profile.
    pub fn profiling_mollusk(
        &self,
        programs: &[Program],
        elfs: &[Vec<u8>],
    ) -> Result<(Mollusk, Recorder), HarnessError> {
        let mut mollusk = self.tracing_mollusk(programs, elfs, true)?;
        let recorder = Recorder::default();
        recorder.install(&mut mollusk);
        Ok((mollusk, recorder))
    }

    fn tracing_mollusk(
        &self,
        programs: &[Program],
        elfs: &[Vec<u8>],
        metered: bool,
    ) -> Result<Mollusk, HarnessError> {
        let first = programs
            .first()
            .ok_or_else(|| HarnessError::Report("no programs to trace".into()))?;
        // Tracing is chosen when Mollusk is made, with a first program (the
        // others, as in `mollusk_with`, from checked ELFs), each in the copy
        // a tracing loader accepts.
        let elfs: Vec<Vec<u8>> = elfs
            .iter()
            .map(|elf| trace::with_section_names(elf))
            .collect();
        let mut mollusk = trace::traced_mollusk(&first.id, &elfs[0]).map_err(|e| {
            HarnessError::Report(format!(
                "{}: cannot stage its traced copy: {e}",
                first.label()
            ))
        })?;
        mollusk.compute_budget.heap_size = first.family.heap_frame();
        keep_log(&mut mollusk);
        // Before the programs are added: they load against the metered
        // environment (the first one again, too).
        if metered {
            meter::install(&mut mollusk);
        }
        self.add_programs(&mut mollusk, programs, &elfs)?;
        Ok(mollusk)
    }

    /// Every program of `family`, and a Mollusk with all of them loaded.
    pub fn load(&self, family: Family) -> Result<(Vec<Program>, Mollusk), HarnessError> {
        self.load_from(self.programs()?, family, "programs")
    }

    /// The programs of `family` among `programs` (found under `folder`),
    /// and a Mollusk with all of them loaded.
    fn load_from(
        &self,
        programs: Vec<Program>,
        family: Family,
        folder: &str,
    ) -> Result<(Vec<Program>, Mollusk), HarnessError> {
        let programs: Vec<Program> = programs
            .into_iter()
            .filter(|p| p.family == family)
            .collect();
        if programs.is_empty() {
            return Err(HarnessError::NoPrograms(
                self.root.join(folder).join(family.name()),
            ));
        }
        let mollusk = self.mollusk(&programs)?;
        Ok((programs, mollusk))
    }
}

/// Keeps the runtime's log, so a case can check the event it emits
/// ([`crate::Case::run`] empties it before each call).
fn keep_log(mollusk: &mut Mollusk) {
    mollusk.logger = Some(solana_svm_log_collector::LogCollector::new_ref_with_limit(
        None,
    ));
}

/// A Mollusk that records every call for its profile, with `elf` loaded
/// as `program_id` and no program of this workspace: a team's own
/// program (`make profile SO=`). A file the loader rejects is its reason,
/// not a panic.
pub fn profiling_mollusk_for(
    program_id: &Pubkey,
    elf: &[u8],
) -> Result<(Mollusk, Recorder), String> {
    let elf = trace::with_section_names(elf);
    // Checked first in a plain Mollusk: the traced one panics on it.
    load_elf(&mut Mollusk::default(), program_id, &elf)?;
    let mut mollusk = trace::traced_mollusk(program_id, &elf)
        .map_err(|e| format!("cannot stage its traced copy: {e}"))?;
    keep_log(&mut mollusk);
    meter::install(&mut mollusk);
    load_elf(&mut mollusk, program_id, &elf)?;
    let recorder = Recorder::default();
    recorder.install(&mut mollusk);
    Ok((mollusk, recorder))
}

/// Mollusk panics on an ELF it cannot load; turn that into the reason.
fn add_program(mollusk: &mut Mollusk, program: &Program, elf: &[u8]) -> Result<(), String> {
    load_elf(mollusk, &program.id, elf)
}

/// Loads `elf` as `program_id`, or says why the loader refused it.
/// What the loader makes of `elf` as `program_id`, for reading a register
/// trace without a VM: a run with no trace yet (its text, its syscalls,
/// the default heap frame), and whether its sBPF version moved the load
/// and store instructions to other classes (v2 and later).
pub fn loaded_run(program_id: &Pubkey, elf: &[u8]) -> Result<(VmRun, bool), String> {
    use solana_program_runtime::program_cache_entry::ProgramCacheEntryType;
    let mut mollusk = Mollusk::default();
    load_elf(&mut mollusk, program_id, elf)?;
    let entry = mollusk
        .program_cache
        .load_program(program_id)
        .ok_or("the program cache holds no program for it")?;
    let ProgramCacheEntryType::Loaded(executable) = &entry.program else {
        return Err("the loader did not load it".into());
    };
    let version = executable.get_sbpf_version();
    let syscalls = crate::profile::record::syscalls_of(executable);
    let run = VmRun {
        index_in_trace: 0,
        stack_height: 1,
        program_id: *program_id,
        text: executable.get_text_bytes().1.to_vec(),
        static_syscalls: version.static_syscalls(),
        syscalls,
        trace: Vec::new(),
        heap_cus: 0,
        heap_bytes: mollusk.compute_budget.heap_size,
    };
    Ok((run, version.move_memory_instruction_classes()))
}

fn load_elf(mollusk: &mut Mollusk, program_id: &Pubkey, elf: &[u8]) -> Result<(), String> {
    if !elf.starts_with(b"\x7fELF") {
        return Err("no ELF header".into());
    }
    quietly(|| {
        mollusk.add_program_with_loader_and_elf(
            program_id,
            &solana_sdk_ids::bpf_loader_upgradeable::id(),
            elf,
        )
    })
    .map_err(|message| message.unwrap_or_else(|| "the loader rejected it".into()))
}

/// Runs `f`, turning a panic in it into its message (`None` where it has
/// none) without printing it: Mollusk and its fixture format panic on
/// input they cannot take, where the harness wants the reason.
pub fn quietly<T>(f: impl FnOnce() -> T) -> Result<T, Option<String>> {
    // Silence only this thread's panic, one at a time: a test on another
    // thread that panics meanwhile still prints its message.
    static QUIET: Mutex<()> = Mutex::new(());
    let _one_at_a_time = QUIET
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let previous: Arc<dyn Fn(&panic::PanicHookInfo<'_>) + Send + Sync> = panic::take_hook().into();
    let forward = previous.clone();
    let quiet = thread::current().id();
    panic::set_hook(Box::new(move |info| {
        if thread::current().id() != quiet {
            forward(info);
        }
    }));
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    panic::set_hook(Box::new(move |info| previous(info)));
    result.map_err(|payload| {
        payload
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
            .map(|message| message.replace("called `Result::unwrap()` on an `Err` value: ", ""))
    })
}

/// What a program did with an input, from the result and the runtime's log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Success,
    /// A program error (the contract's, or not).
    Error(ProgramError),
    /// The allocator refused an allocation and the program aborted in
    /// `handle_alloc_error` (a panic in `alloc/src/alloc.rs`).
    OutOfMemory,
    /// Anything else that stopped the VM: an access violation, another
    /// panic, an exceeded budget. Holds the runtime's message.
    Fault(String),
    /// The call failed (an error or an abort), but the program had changed
    /// an account before it did: what the runtime then discarded. Holds
    /// the failure and where the account first differs.
    ChangedBeforeFailure(String),
}

impl Outcome {
    /// The outcome's name in a test's tally.
    pub fn name(&self) -> String {
        match self {
            Self::Success => "success".into(),
            Self::Error(error) => format!("{error:?}"),
            Self::OutOfMemory => "out of memory".into(),
            Self::Fault(_) => "VM fault".into(),
            Self::ChangedBeforeFailure(_) => "changed before a failure".into(),
        }
    }
}

/// Every account's key and data as the program left them, read when the
/// invocation returns and before Mollusk rolls a failed one back: what a
/// program that calls this code and handles its error would keep. (The
/// programs' account data is mapped into the VM directly, so the
/// transaction's accounts hold the program's writes at that point.)
pub type InsideVm = Inspector<KeyedData>;

/// An account's key and data.
type KeyedData = (Pubkey, Vec<u8>);

impl Default for InsideVm {
    fn default() -> Self {
        Inspector::new(read_accounts)
    }
}

/// The accounts as the invocation left them, in place of the last ones.
fn read_accounts(invoke_context: &InvokeContext, _: bool, kept: &RefCell<Vec<KeyedData>>) {
    let context = &invoke_context.transaction_context;
    let accounts = context.accounts();
    let seen = (0..context.get_number_of_accounts())
        .filter_map(|index| {
            let key = *context.get_key_of_account_at_index(index).ok()?;
            let data = accounts.try_borrow(index).ok()?.data().to_vec();
            Some((key, data))
        })
        .collect();
    *kept.borrow_mut() = seen;
}

/// Runs cases with the runtime's log kept, so that an abort can be told
/// from a fault, and with every account seen inside the VM, so that a
/// failure that changed an account is caught before the rollback hides it.
/// Neither changes a CU; the benchmark itself runs without.
pub struct LoggedMollusk {
    pub mollusk: Mollusk,
    log: Rc<RefCell<LogCollector>>,
    inside: InsideVm,
}

impl LoggedMollusk {
    pub fn new(mut mollusk: Mollusk) -> Self {
        let log = LogCollector::new_ref_with_limit(None);
        mollusk.logger = Some(log.clone());
        let inside = InsideVm::default();
        inside.install(&mut mollusk);
        Self {
            mollusk,
            log,
            inside,
        }
    }

    /// The runtime's log of the last run (`Program data: ...` lines
    /// included).
    pub fn messages(&self) -> Vec<String> {
        self.log.borrow().messages.clone()
    }

    /// Runs `case`'s instruction (without checking it) and says what came
    /// of it.
    pub fn run(&self, case: &Case) -> (InstructionResult, Outcome) {
        self.run_instruction(&case.instruction, &case.accounts)
    }

    /// Runs `instruction` on `accounts` and says what came of it (for
    /// programs outside the families, as `make idl` generates them).
    pub fn run_instruction(
        &self,
        instruction: &Instruction,
        accounts: &[(Pubkey, Account)],
    ) -> (InstructionResult, Outcome) {
        self.log.borrow_mut().messages.clear();
        self.inside.take();
        let result = self.mollusk.process_instruction(instruction, accounts);
        let outcome = self.outcome(&result);
        if matches!(outcome, Outcome::Success | Outcome::Fault(_)) {
            return (result, outcome);
        }
        match changed(accounts, &self.inside.take()) {
            Some(change) => {
                let failure = outcome.name();
                let outcome = Outcome::ChangedBeforeFailure(format!("{failure}; {change}"));
                (result, outcome)
            }
            None => (result, outcome),
        }
    }

    fn outcome(&self, result: &InstructionResult) -> Outcome {
        match &result.program_result {
            ProgramResult::Success => Outcome::Success,
            ProgramResult::Failure(error) => Outcome::Error(error.clone()),
            ProgramResult::UnknownError(error) => {
                let log = self.log.borrow();
                let failed = log
                    .messages
                    .iter()
                    .rev()
                    .find(|line| line.contains(" failed: "))
                    .cloned()
                    .unwrap_or_else(|| format!("{error:?}"));
                if failed.contains("Panicked in") && failed.contains("alloc/src/alloc.rs") {
                    Outcome::OutOfMemory
                } else {
                    Outcome::Fault(failed)
                }
            }
        }
    }
}

/// Where an account seen inside the VM differs from the case's input: its
/// index, length or first differing byte, or `None` where none does.
fn changed(accounts: &[(Pubkey, Account)], inside: &[KeyedData]) -> Option<String> {
    accounts
        .iter()
        .enumerate()
        .find_map(|(index, (key, before))| {
            let (_, after) = inside.iter().find(|(k, _)| k == key)?;
            let before = &before.data;
            if before.len() != after.len() {
                return Some(format!(
                    "account [{index}] resized from {} to {} bytes inside the VM",
                    before.len(),
                    after.len()
                ));
            }
            let at = before.iter().zip(after).position(|(b, a)| b != a)?;
            Some(format!(
                "account [{index}] byte {at} changed inside the VM: {:#04x} -> {:#04x}",
                before[at], after[at]
            ))
        })
}
