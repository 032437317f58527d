//! Mollusk fixtures from a team's LiteSVM tests, for `profile-so
//! --fixtures` (`make profile SO= FIXTURES=`): one fixture per top-level
//! instruction of every transaction sent to a program that is not a
//! builtin, with the accounts as that instruction was given them, the
//! programs its CPIs reach, the compute budget, features and sysvars the
//! transaction ran with, and the result, CUs and accounts LiteSVM gave.
//!
//! One line on the test's `LiteSVM` (litesvm 0.18, feature
//! `invocation-inspect-callback`):
//!
//! ```ignore
//! let mut svm = LiteSVM::new();
//! litesvm_recorder::record(&mut svm); // LITESVM_FIXTURES=<folder> turns it on
//! ```
//!
//! Fixtures go to `<folder>/<program id>/<test>-<transaction>-<instruction>.json`
//! (the test named by its thread, as `cargo test` names it, or by the
//! `--exact` argument of a runner with a process a test). The recorder
//! changes nothing a test sees: it asks LiteSVM to simulate the
//! transaction (and, for a later instruction, its first instructions,
//! [`split`]), which commits nothing, and checks that the run LiteSVM
//! then makes leaves the logs and accounts the simulation did; where it
//! does not, or where an instruction cannot be written exactly, the
//! instruction is named on stderr and in `<folder>/not-recorded.txt`,
//! and no fixture is written for it. The callback takes the place of
//! LiteSVM's register tracing (one callback per `LiteSVM`).

mod fixture;
mod split;

use std::{
    cell::Cell,
    collections::BTreeMap,
    fs,
    io::Write,
    path::PathBuf,
    sync::{
        Mutex,
        atomic::{AtomicBool, Ordering},
    },
};

use litesvm::{InvocationInspectCallback, LiteSVM};
use solana_account::{AccountSharedData, ReadableAccount};
use solana_address::Address;
use solana_instruction_error::InstructionError;
use solana_program_error::ProgramError;
use solana_program_runtime::invoke_context::InvokeContext;
use solana_sdk_ids::{
    bpf_loader, bpf_loader_deprecated, bpf_loader_upgradeable, compute_budget, loader_v4,
};
use solana_transaction::sanitized::SanitizedTransaction;
use solana_transaction_error::TransactionError;

pub use fixture::Fixture;
use fixture::{AccountState, Context, Effects, FeatureSet, InstructionAccount};
use split::{Outcome, Prefixes};

/// The variable naming the folder fixtures are written into.
pub const FOLDER: &str = "LITESVM_FIXTURES";

/// Installs a recorder on `svm` when `LITESVM_FIXTURES` names a folder;
/// without it, leaves `svm` as it is.
pub fn record(svm: &mut LiteSVM) {
    if let Some(dir) = std::env::var_os(FOLDER).filter(|d| !d.is_empty()) {
        svm.set_invocation_inspect_callback(Recorder::new(dir));
    }
}

/// The callback: see the crate's documentation.
pub struct Recorder {
    dir: PathBuf,
    /// What `before_invocation` recorded, for `after_invocation` to check
    /// and write.
    pending: Mutex<Option<Pending>>,
}

impl Recorder {
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Self {
            dir: dir.into(),
            pending: Mutex::new(None),
        }
    }
}

/// One transaction's instructions, recorded before it ran, and what the
/// simulation of all of it left (which the run must leave too).
struct Pending {
    transaction: String,
    instructions: Vec<Recorded>,
    logs: Vec<String>,
    accounts: Vec<(Address, AccountSharedData)>,
}

/// A top-level instruction: its fixture, or why it has none.
struct Recorded {
    index: usize,
    program_id: Address,
    fixture: Result<Fixture, String>,
}

thread_local! {
    /// Set while the recorder simulates: the simulations call the
    /// callback too, and record nothing.
    static SIMULATING: Cell<bool> = const { Cell::new(false) };
    /// Transactions recorded on this thread (one test), for file names.
    static TRANSACTIONS: Cell<u64> = const { Cell::new(0) };
}

/// A write failure is reported once a process, not once a fixture.
static WRITE_FAILED: AtomicBool = AtomicBool::new(false);

impl InvocationInspectCallback for Recorder {
    fn before_invocation(
        &self,
        svm: &LiteSVM,
        tx: &SanitizedTransaction,
        _: &[u16],
        invoke_context: &mut InvokeContext,
        _: bool,
    ) {
        if SIMULATING.get() {
            return;
        }
        let given = transaction_accounts(invoke_context);
        let message = tx.message();
        let keys: Vec<Address> = message.account_keys().iter().copied().collect();
        let programs: Vec<usize> = message
            .instructions()
            .iter()
            .enumerate()
            .filter(|(_, ix)| is_loaded_program(svm, &given, &keys[ix.program_id_index as usize]))
            .map(|(index, _)| index)
            .collect();
        if programs.is_empty() {
            return;
        }
        SIMULATING.set(true);
        let pending = self.record(svm, tx, invoke_context, &given, &keys, &programs);
        SIMULATING.set(false);
        *self.pending.lock().unwrap_or_else(|e| e.into_inner()) = Some(pending);
    }

    fn after_invocation(
        &self,
        _: &LiteSVM,
        tx: &SanitizedTransaction,
        _: &[u16],
        invoke_context: &InvokeContext,
        _: bool,
    ) {
        if SIMULATING.get() {
            return;
        }
        let Some(pending) = self
            .pending
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
        else {
            return;
        };
        let differs = run_differs(&pending, tx, invoke_context);
        for recorded in pending.instructions {
            let fixture = match &differs {
                Some(why) => Err(format!(
                    "LiteSVM's run of the transaction differs from the recorder's simulation of it ({why})"
                )),
                None => recorded.fixture,
            };
            let name = format!("{}-{}", pending.transaction, recorded.index);
            match fixture {
                Ok(fixture) => self.write(&recorded.program_id, &name, &fixture),
                Err(why) => self.not_recorded(&recorded.program_id, &name, &why),
            }
        }
    }
}

impl Recorder {
    /// Each program instruction of `tx`, split out by simulations.
    fn record(
        &self,
        svm: &LiteSVM,
        tx: &SanitizedTransaction,
        invoke_context: &InvokeContext,
        given: &[(Address, AccountSharedData)],
        keys: &[Address],
        programs: &[usize],
    ) -> Pending {
        let message = tx.message();
        let instructions = message.instructions();
        let n = instructions.len();
        let transaction = TRANSACTIONS.with(|count| {
            count.set(count.get() + 1);
            format!("{}-{}", test_name(), count.get())
        });
        let budget = *invoke_context.get_compute_budget();
        let cost = *invoke_context.get_execution_cost();
        let features = FeatureSet {
            features: svm
                .get_feature_set_ref()
                .active()
                .keys()
                .map(|id| u64::from_le_bytes(id.to_bytes()[..8].try_into().expect("8 bytes")))
                .collect(),
        };
        let sysvars = fixture::sysvars(invoke_context.environment_config.sysvar_cache());
        // A compute budget instruction after another program's: the
        // transaction's first instructions, simulated alone, would run
        // without it (another limit, another heap frame).
        let first_program = instructions
            .iter()
            .position(|ix| keys[ix.program_id_index as usize] != compute_budget::id());
        let budget_late = instructions.iter().enumerate().any(|(at, ix)| {
            keys[ix.program_id_index as usize] == compute_budget::id()
                && first_program.is_some_and(|first| at > first)
        });
        let mut prefixes = Prefixes::new(svm, tx);
        let mut outcomes: BTreeMap<usize, Outcome> = BTreeMap::new();
        let mut recorded = Vec::new();
        for &index in programs {
            let program_id = keys[instructions[index].program_id_index as usize];
            let fixture = if budget_late {
                Err("a compute budget instruction follows a program's in its transaction: its first instructions, simulated alone, would run with another budget".into())
            } else {
                let (consumed_before, changed_before) = match index {
                    0 => Default::default(),
                    m => {
                        let before = outcome(&mut outcomes, &mut prefixes, m);
                        if before.error.is_some() {
                            // An instruction before it failed: it never ran.
                            break;
                        }
                        (before.consumed, before.accounts.clone())
                    }
                };
                let after = outcome(&mut outcomes, &mut prefixes, index + 1);
                let sysvars = sysvars.clone();
                sysvars.and_then(|sysvars| {
                    let state = overlay(given, &changed_before);
                    instruction_fixture(
                        svm,
                        tx,
                        index,
                        &state,
                        after,
                        consumed_before,
                        Context {
                            compute_budget: fixture::compute_budget(
                                &budget,
                                &cost,
                                budget.compute_unit_limit.saturating_sub(consumed_before),
                            ),
                            feature_set: FeatureSet {
                                features: features.features.clone(),
                            },
                            sysvars,
                            program_id: program_id.to_bytes().to_vec(),
                            instr_accounts: Vec::new(),
                            data: instructions[index].data.clone(),
                            accounts: Vec::new(),
                        },
                    )
                })
            };
            recorded.push(Recorded {
                index,
                program_id,
                fixture,
            });
        }
        let all = outcome(&mut outcomes, &mut prefixes, n);
        Pending {
            transaction,
            instructions: recorded,
            logs: all.logs.clone(),
            accounts: all.accounts.clone(),
        }
    }

    fn write(&self, program_id: &Address, name: &str, fixture: &Fixture) {
        let dir = self.dir.join(program_id.to_string());
        let path = dir.join(format!("{name}.json"));
        let written = fs::create_dir_all(&dir)
            .and_then(|()| fs::write(&path, serde_json::to_vec(fixture).expect("JSON")));
        if let Err(e) = written
            && !WRITE_FAILED.swap(true, Ordering::Relaxed)
        {
            eprintln!(
                "litesvm-recorder: cannot write fixtures into {}: {e}; the tests run on, unrecorded from here (give {FOLDER} a folder you can write)",
                dir.display()
            );
        }
    }

    /// Names an instruction with no fixture, on stderr and in
    /// `not-recorded.txt`.
    fn not_recorded(&self, program_id: &Address, name: &str, why: &str) {
        let line = format!("{name} (program {program_id}): not recorded: {why}");
        eprintln!("litesvm-recorder: {line}");
        let appended = fs::create_dir_all(&self.dir).and_then(|()| {
            fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(self.dir.join("not-recorded.txt"))
                .and_then(|mut file| writeln!(file, "{line}"))
        });
        if let Err(e) = appended
            && !WRITE_FAILED.swap(true, Ordering::Relaxed)
        {
            eprintln!(
                "litesvm-recorder: cannot write into {}: {e}; the tests run on, unrecorded from here (give {FOLDER} a folder you can write)",
                self.dir.display()
            );
        }
    }
}

/// What the first `m` instructions give, simulated once.
fn outcome<'a>(
    outcomes: &'a mut BTreeMap<usize, Outcome>,
    prefixes: &mut Prefixes,
    m: usize,
) -> &'a Outcome {
    outcomes.entry(m).or_insert_with(|| prefixes.run(m))
}

/// The instruction at `index` as a fixture: `state`, the transaction's
/// accounts as it began; `after`, the simulation of the transaction up to
/// and including it.
fn instruction_fixture(
    svm: &LiteSVM,
    tx: &SanitizedTransaction,
    index: usize,
    state: &[(Address, AccountSharedData)],
    after: &Outcome,
    consumed_before: u64,
    mut input: Context,
) -> Result<Fixture, String> {
    let message = tx.message();
    let keys: Vec<Address> = message.account_keys().iter().copied().collect();
    let instruction = &message.instructions()[index];
    let account = |key: &Address| -> Result<AccountSharedData, String> {
        state
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, a)| a.clone())
            .or_else(|| svm.get_account(key).map(Into::into))
            .ok_or_else(|| format!("account {key} is in neither the transaction nor LiteSVM"))
    };
    // The instruction's accounts, each once, then the programs its CPIs
    // reach (and an upgradeable one's programdata), as Mollusk's fixtures
    // carry them.
    let mut order: Vec<Address> = Vec::new();
    let mut add = |key: Address| {
        if !order.contains(&key) {
            order.push(key);
        }
    };
    for &at in &instruction.accounts {
        add(keys[at as usize]);
    }
    for inner in after.inner.get(index).into_iter().flatten() {
        let callee = keys[inner.instruction.program_id_index as usize];
        let program = account(&callee)?;
        if !is_loader(program.owner()) {
            continue;
        }
        add(callee);
        if let Some(data) = programdata(&program) {
            add(data);
        }
    }
    let accounts = order
        .iter()
        .map(|key| account(key).map(|a| AccountState::new(key, &a)))
        .collect::<Result<Vec<_>, _>>()?;
    input.instr_accounts = instruction
        .accounts
        .iter()
        .map(|&at| InstructionAccount {
            index: order
                .iter()
                .position(|k| *k == keys[at as usize])
                .expect("added above") as u32,
            is_signer: message.is_signer(at as usize),
            is_writable: message.is_writable(at as usize),
        })
        .collect();
    let (program_result, resulting_accounts) = match &after.error {
        None => {
            let changed = overlay(state, &after.accounts);
            let resulting = order
                .iter()
                .map(|key| {
                    let account = changed
                        .iter()
                        .find(|(k, _)| k == key)
                        .map(|(_, a)| a.clone())
                        .map_or_else(|| account(key), Ok)?;
                    Ok(AccountState::new(key, &account))
                })
                .collect::<Result<Vec<_>, String>>()?;
            (0, resulting)
        }
        // As Mollusk records a failure: the accounts as they were given.
        Some(TransactionError::InstructionError(at, error)) if usize::from(*at) == index => {
            (program_error_code(error)?, accounts.clone())
        }
        Some(other) => {
            return Err(format!(
                "LiteSVM refused the transaction after this instruction ran ({other:?}), which a single instruction's fixture cannot say"
            ));
        }
    };
    input.accounts = accounts;
    Ok(Fixture {
        input,
        output: Effects {
            compute_units_consumed: after.consumed.saturating_sub(consumed_before),
            execution_time: 0,
            program_result,
            return_data: after.return_data.clone(),
            resulting_accounts,
        },
    })
}

/// A program error's code, as a fixture's `program_result` holds it.
fn program_error_code(error: &InstructionError) -> Result<u64, String> {
    ProgramError::try_from(error.clone())
        .map(u64::from)
        .map_err(|e| {
            format!("its error, {e:?}, has no program error code, which a fixture's result is")
        })
}

/// `base` with `changed` in place of its accounts of the same address.
fn overlay(
    base: &[(Address, AccountSharedData)],
    changed: &[(Address, AccountSharedData)],
) -> Vec<(Address, AccountSharedData)> {
    base.iter()
        .map(|(key, account)| {
            let account = changed
                .iter()
                .find(|(k, _)| k == key)
                .map_or(account, |(_, a)| a);
            (*key, account.clone())
        })
        .collect()
}

/// Every account of the transaction as the run was given it (the fee
/// already taken from its payer).
fn transaction_accounts(invoke_context: &InvokeContext) -> Vec<(Address, AccountSharedData)> {
    let context = &invoke_context.transaction_context;
    (0..context.get_number_of_accounts())
        .filter_map(|at| {
            let key = *context.get_key_of_account_at_index(at).ok()?;
            let account = context.accounts().try_borrow(at).ok()?;
            Some((
                key,
                AccountSharedData::from(solana_account::Account {
                    lamports: account.lamports(),
                    data: account.data().to_vec(),
                    owner: *account.owner(),
                    executable: account.executable(),
                    rent_epoch: account.rent_epoch(),
                }),
            ))
        })
        .collect()
}

/// Whether the run left what the simulation did: its logs (each top-level
/// instruction's CUs among them) and writable accounts. Else what differs.
fn run_differs(
    pending: &Pending,
    tx: &SanitizedTransaction,
    invoke_context: &InvokeContext,
) -> Option<String> {
    let logs = invoke_context
        .get_log_collector()
        .map(|logs| logs.borrow().messages.clone())
        .unwrap_or_default();
    if logs != pending.logs {
        return Some("its logs".into());
    }
    let ran = transaction_accounts(invoke_context);
    for (at, (key, account)) in ran.iter().enumerate() {
        if !tx.message().is_writable(at) {
            continue;
        }
        if let Some((_, simulated)) = pending.accounts.iter().find(|(k, _)| k == key)
            && simulated != account
        {
            return Some(format!("account {key}"));
        }
    }
    None
}

fn is_loader(owner: &Address) -> bool {
    [
        bpf_loader::id(),
        bpf_loader_deprecated::id(),
        bpf_loader_upgradeable::id(),
        loader_v4::id(),
    ]
    .contains(owner)
}

/// Whether `key` is a program a BPF loader runs (not a builtin).
fn is_loaded_program(svm: &LiteSVM, given: &[(Address, AccountSharedData)], key: &Address) -> bool {
    given
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, a)| is_loader(a.owner()))
        .or_else(|| svm.get_account(key).map(|a| is_loader(&a.owner)))
        .unwrap_or(false)
}

/// The programdata account an upgradeable program's account points at
/// (`UpgradeableLoaderState::Program`: a u32 tag 2, then the address).
fn programdata(program: &AccountSharedData) -> Option<Address> {
    if *program.owner() != bpf_loader_upgradeable::id() {
        return None;
    }
    let data = program.data();
    (data.get(..4) == Some(&2u32.to_le_bytes()[..]))
        .then(|| data.get(4..36))
        .flatten()
        .map(|bytes| Address::new_from_array(bytes.try_into().expect("32 bytes")))
}

/// The test this thread runs, as a file name: `cargo test` names each
/// test's thread by it; a runner with a process a test (cargo-nextest)
/// runs it on the main thread and names it after `--exact`; else the
/// thread's name and the process id, so that two processes' files do not
/// share a name.
fn test_name() -> String {
    let thread = std::thread::current();
    let name = match thread.name() {
        Some(name) if name != "main" => name.to_string(),
        name => {
            let mut args = std::env::args().skip_while(|a| a != "--exact");
            match args.nth(1) {
                Some(test) => test,
                None => format!("{}-{}", name.unwrap_or("thread"), std::process::id()),
            }
        }
    };
    name.chars()
        .map(|c| match c {
            'a'..='z' | 'A'..='Z' | '0'..='9' | '_' | '.' => c,
            _ => '-',
        })
        .collect()
}
