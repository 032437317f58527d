//! Runs the generated programs as the families' harness runs theirs: every
//! case checked against the host oracle before its number is kept, every
//! error on an input made for it with nothing changed inside the VM, the
//! traced pass for stack, calls and heap, and the project's hostile
//! generator on every program. A fault or an exhausted heap on a valid
//! record is a measured outcome (a format that cannot hold the account);
//! wrong bytes, a wrong error or a change before a failure is a contract
//! failure, which fails the run.

use std::collections::BTreeMap;

use benches::{
    exported::ExportedCase,
    trace::Footprint,
    vm::{LoggedMollusk, Outcome as RunOutcome},
};
use solana_account::Account as SolanaAccount;
use solana_instruction::{AccountMeta, Instruction};
use solana_program_error::ProgramError;
use solana_pubkey::Pubkey;

use crate::{
    model::Account,
    model::Site,
    plan::{Planned, program_id},
    render::{AccountCodec, AccountFormat, RowFormat, anchor1::Release},
    value::{self, Fill, Instances, Lengths, Value},
};

/// The heap frame the generated programs run with (common's
/// `idl::HEAP_FRAME`): the runtime's default.
const HEAP_FRAME: u32 = 32 * 1024;
/// Hostile cases per program in every run.
pub const HOSTILE_CASES: u32 = 200;
const DATA_KEY: Pubkey = Pubkey::new_from_array([0xDA; 32]);
const SIGNER_KEY: Pubkey = Pubkey::new_from_array([0x5A; 32]);
const LAMPORTS: u64 = 1_000_000_000;

/// What one case came to.
#[derive(Clone, Debug, PartialEq)]
pub enum Measured {
    /// It ran and left the oracle's bytes.
    Ran { cus: u64, footprint: Footprint },
    /// The format cannot run it: a VM fault (a stack access violation, the
    /// CU limit) or the heap exhausted, in the runtime's words.
    CannotRun(String),
}

pub mod anchor1;
pub mod arguments;
pub mod events;
pub(crate) mod loaded;

use loaded::{Loaded, expect_error, first_difference, hostile_inputs};

/// One measured row.
#[derive(Clone, Debug)]
pub struct Row {
    pub site: Site,
    /// The account type's, instruction's or event's name.
    pub name: String,
    pub format: RowFormat,
    pub operation: &'static str,
    pub instance: &'static str,
    /// The account's bytes (accounts), the instruction data's (arguments)
    /// or the logged data's (events).
    pub account_bytes: usize,
    pub outcome: Measured,
    /// The call that ran, for `cases.json` (`None` where it could not run).
    pub called: Option<Called>,
}

impl Row {
    /// The row's name in `cases.json` and `results.json`:
    /// `<site>/<name>/<format>::<operation>/<instance>`.
    pub fn key(&self) -> String {
        format!(
            "{}/{}/{}::{}/{}",
            self.site.name(),
            self.name,
            self.format.name(),
            self.operation,
            self.instance
        )
    }

    /// The row as `cases.json` exports it, its program at `so` (relative to
    /// the project's root); `None` where it did not run.
    pub fn exported(&self, so: &str) -> Option<ExportedCase> {
        let (called, Measured::Ran { cus, footprint }) = (self.called.as_ref()?, &self.outcome)
        else {
            return None;
        };
        let case = ExportedCase::new(
            self.key(),
            self.format.framework(),
            "idl",
            so,
            HEAP_FRAME,
            &called.instruction,
            &called.accounts,
            Ok(called.data_after.as_deref()),
            *cus,
        )
        .with_footprint(*footprint);
        Some(match &called.emitted {
            Some((how, data)) => case.with_emission(how, data),
            None => case,
        })
    }
}

/// A call that ran: the instruction, the accounts before it, and what it
/// left (account [0]'s data, and what it emitted).
#[derive(Clone, Debug)]
pub struct Called {
    pub instruction: Instruction,
    pub accounts: Vec<(Pubkey, SolanaAccount)>,
    pub data_after: Option<Vec<u8>>,
    /// `log` or `self_cpi`, and the bytes.
    pub emitted: Option<(&'static str, Vec<u8>)>,
}

impl Called {
    fn new(
        instruction: &Instruction,
        accounts: &[(Pubkey, SolanaAccount)],
        data_after: Option<&[u8]>,
    ) -> Self {
        Self {
            instruction: instruction.clone(),
            accounts: accounts.to_vec(),
            data_after: data_after.map(<[u8]>::to_vec),
            emitted: None,
        }
    }
}

/// Everything one program's run found.
#[derive(Clone, Debug, Default)]
pub struct Checked {
    pub rows: Vec<Row>,
    /// Contract failures: each names the program, the case and what broke.
    pub failures: Vec<String>,
    /// Hostile outcomes by name.
    pub hostile: BTreeMap<String, u32>,
}

/// A record a program's cases run on: generated from the types, or a
/// user's account (`DATA=`).
#[derive(Clone, Debug)]
pub struct Instance {
    /// `full`, `empty` or `data`.
    pub name: &'static str,
    pub record: Value,
    /// The account's bytes after the record, kept as they are.
    pub tail: Vec<u8>,
}

impl Instance {
    /// The account's data holding `record` in this instance's place.
    fn data(&self, account: &Account, record: &Value) -> Vec<u8> {
        [value::account_data(account, record), self.tail.clone()].concat()
    }
}

/// The generated instances of `account`: every option `Some`, and every
/// option `None` where that changes the bytes.
pub fn generated(account: &Account, lengths: Lengths) -> Vec<Instance> {
    let instance = |name, shape| Instance {
        name,
        record: Instances::new(shape, lengths).record(account),
        tail: Vec::new(),
    };
    let full = instance("full", Fill::Full);
    let empty = instance("empty", Fill::Empty);
    if full.data(account, &full.record) == empty.data(account, &empty.record) {
        vec![full]
    } else {
        vec![full, empty]
    }
}

/// One generated program under test, as the contract and hostile checks
/// need it.
#[derive(Clone, Copy)]
struct Subject<'a> {
    logged: &'a LoggedMollusk,
    id: Pubkey,
    planned: &'a Planned,
    account: &'a Account,
    label: &'a str,
    /// The anchor-lang release an Anchor program built with.
    release: &'a Release,
}

/// One operation's instruction data and the record it leaves.
struct OperationCall {
    operation: &'static str,
    data: Vec<u8>,
    after: Value,
}

/// A check of a program's contract on one instance.
type ContractCheck = fn(&Subject, &Instance, &mut Checked);

/// Runs every case of `planned` (its `.so` is `elf`): a pinocchio format's
/// program through common's dispatch and its contract, or an Anchor 1.x
/// one through its handlers and Anchor's contract ([`anchor1`]) as
/// `release` keeps it.
pub fn check(
    planned: &Planned,
    account: &Account,
    release: &Release,
    elf: &[u8],
    instances: &[Instance],
) -> Checked {
    let (encode, check_errors, check_hostile): (Encode, ContractCheck, ContractCheck) =
        if matches!(planned.format, AccountFormat::Anchor1(_)) {
            (
                anchor1::handlers,
                anchor1::check_errors,
                anchor1::check_hostile,
            )
        } else {
            (dispatch, check_errors, check_hostile)
        };
    let label = format!(
        "{} {}",
        account.name,
        RowFormat::from(planned.format).name()
    );
    let mut checked = Checked::default();
    let id = program_id(&planned.name);
    let loaded = Loaded::new(id, elf, &label, &mut checked.failures);
    run_cases(&loaded, planned, account, instances, encode, &mut checked);
    if let Some(first) = instances.first() {
        let subject = Subject {
            logged: &loaded.logged,
            id,
            planned,
            account,
            label: &label,
            release,
        };
        check_errors(&subject, first, &mut checked);
        check_hostile(&subject, first, &mut checked);
    }
    checked
}

/// Every operation on every instance, each result held against the
/// oracle's bytes before its CUs are kept as a row.
pub(crate) fn run_cases(
    loaded: &Loaded,
    planned: &Planned,
    account: &Account,
    instances: &[Instance],
    encode: Encode,
    checked: &mut Checked,
) {
    let label = format!(
        "{} {}",
        account.name,
        RowFormat::from(planned.format).name()
    );
    let id = program_id(&planned.name);
    for instance in instances {
        let data = instance.data(account, &instance.record);
        let name = instance.name;
        for call in calls(planned, &instance.record, encode) {
            let case = format!("{label}, {} on the `{name}` instance", call.operation);
            let expected = instance.data(account, &call.after);
            let instruction = instruction(id, &call.data, true, 2);
            let before = accounts(id, &data, 2);
            let ran = loaded.valid_call(
                &instruction,
                &before,
                (&case, "a valid record"),
                &mut checked.failures,
                |result| {
                    let after = &result.resulting_accounts[0].1.data;
                    if *after != expected {
                        return Err(first_difference(after, &expected));
                    }
                    Ok(Called::new(&instruction, &before, Some(&expected)))
                },
            );
            let Some((measured, called)) = ran else {
                continue;
            };
            checked.rows.push(Row {
                site: Site::Account,
                name: account.name.clone(),
                format: planned.format.into(),
                operation: call.operation,
                instance: name,
                account_bytes: data.len(),
                outcome: measured,
                called,
            });
        }
    }
}

/// An operation's instruction data from its name and argument: common's
/// dispatch (`[op, type, value]`) or an Anchor handler's.
pub(crate) type Encode = fn(&Planned, &'static str, &[u8]) -> Vec<u8>;

/// common's dispatch: the operation's byte, the account type's, the value.
fn dispatch(planned: &Planned, operation: &'static str, argument: &[u8]) -> Vec<u8> {
    let op = match operation {
        "full" => 0,
        "read" => 1,
        _ => 2,
    };
    [&[op, planned.index][..], argument].concat()
}

/// The three operations on `record`: `full` and `update` leave the update
/// field one higher; `read` asks for the read field's value.
fn calls(planned: &Planned, record: &Value, encode: Encode) -> Vec<OperationCall> {
    let read = value::scalar_bytes(
        value::value_at(record, &planned.read.indexes),
        &planned.read.ty.ty(),
    );
    let mut calls = Vec::new();
    let updated = planned.update.as_ref().map(|path| {
        let ty = path.ty.ty();
        let new = value::updated(value::value_at(record, &path.indexes), &ty);
        (
            value::scalar_bytes(&new, &ty),
            value::with_path(record, &path.indexes, new),
        )
    });
    calls.push(OperationCall {
        operation: "full",
        data: encode(planned, "full", &[]),
        after: updated
            .as_ref()
            .map_or(record.clone(), |(_, after)| after.clone()),
    });
    calls.push(OperationCall {
        operation: "read",
        data: encode(planned, "read", &read),
        after: record.clone(),
    });
    if let Some((bytes, after)) = updated {
        calls.push(OperationCall {
            operation: "update",
            data: encode(planned, "update", &bytes),
            after,
        });
    }
    calls
}

fn instruction(id: Pubkey, data: &[u8], writable: bool, count: usize) -> Instruction {
    let metas = [
        AccountMeta {
            pubkey: DATA_KEY,
            is_signer: false,
            is_writable: writable,
        },
        AccountMeta::new_readonly(SIGNER_KEY, false),
    ];
    Instruction::new_with_bytes(id, data, metas.into_iter().take(count).collect())
}

fn accounts(id: Pubkey, data: &[u8], count: usize) -> Vec<(Pubkey, SolanaAccount)> {
    let data_account = SolanaAccount {
        lamports: LAMPORTS,
        data: data.to_vec(),
        owner: id,
        ..SolanaAccount::default()
    };
    let signer = SolanaAccount {
        lamports: LAMPORTS,
        ..SolanaAccount::default()
    };
    [(DATA_KEY, data_account), (SIGNER_KEY, signer)]
        .into_iter()
        .take(count)
        .collect()
}

/// Each contract error on an input made for it, with nothing changed
/// inside the VM.
fn check_errors(subject: &Subject, instance: &Instance, checked: &mut Checked) {
    let Subject {
        logged,
        id,
        planned,
        account,
        label,
        ..
    } = *subject;
    let record = &instance.record;
    let data = instance.data(account, record);
    let index = planned.index;
    let full = vec![0, index];
    let mut other = value::scalar_bytes(
        value::value_at(record, &planned.read.indexes),
        &planned.read.ty.ty(),
    );
    other[0] ^= 0x01;
    let case = |name, instruction: Vec<u8>, writable, count, data: &[u8], error| ErrorCase {
        name,
        instruction,
        writable,
        count,
        data: data.to_vec(),
        error,
    };
    let mut cases = vec![
        case(
            "one account",
            full.clone(),
            true,
            1,
            &data,
            ProgramError::NotEnoughAccountKeys,
        ),
        case(
            "no type byte",
            vec![0],
            true,
            2,
            &data,
            ProgramError::InvalidInstructionData,
        ),
        case(
            "another account type",
            vec![0, index.wrapping_add(1)],
            true,
            2,
            &data,
            ProgramError::InvalidInstructionData,
        ),
        case(
            "unknown op",
            vec![7, index],
            true,
            2,
            &data,
            ProgramError::InvalidInstructionData,
        ),
        case(
            "read-only account",
            full.clone(),
            false,
            2,
            &data,
            ProgramError::Immutable,
        ),
        case(
            "read of another value",
            [&[1, index][..], &other].concat(),
            true,
            2,
            &data,
            ProgramError::InvalidArgument,
        ),
        case(
            "read value too short",
            [&[1, index][..], &other[1..]].concat(),
            true,
            2,
            &data,
            ProgramError::InvalidInstructionData,
        ),
    ];
    let discriminator = account.discriminator.len();
    if discriminator > 0 {
        let mut wrong = data.clone();
        wrong[0] ^= 0xff;
        cases.push(case(
            "another discriminator",
            full.clone(),
            true,
            2,
            &wrong,
            ProgramError::InvalidAccountData,
        ));
        cases.push(case(
            "data shorter than the discriminator",
            full.clone(),
            true,
            2,
            &data[..discriminator - 1],
            ProgramError::InvalidAccountData,
        ));
    }
    if matches!(
        planned.format,
        AccountFormat::Pinocchio(AccountCodec::Bytemuck | AccountCodec::Zerocopy)
    ) {
        cases.push(case(
            "record cut short",
            full.clone(),
            true,
            2,
            &data[..data.len() - instance.tail.len() - 1],
            ProgramError::InvalidAccountData,
        ));
    }
    // A fixed-capacity record's `full` checks every length it holds.
    if matches!(
        planned.format,
        AccountFormat::Pinocchio(AccountCodec::Bytemuck | AccountCodec::Zerocopy)
    ) && let Some((at, past)) = crate::capacity::fixed::past_capacity(&account.record)
    {
        let mut over = data.clone();
        let at = discriminator + at;
        over[at..at + past.len()].copy_from_slice(&past);
        cases.push(case(
            "a length past its capacity",
            full.clone(),
            true,
            2,
            &over,
            ProgramError::InvalidAccountData,
        ));
    }
    for case in cases {
        expect_error(
            logged,
            &instruction(id, &case.instruction, case.writable, case.count),
            &accounts(id, &case.data, case.count),
            &case.error,
            &format!("{label}, {}", case.name),
            &mut checked.failures,
        );
    }
}

/// An input made for one contract error.
struct ErrorCase {
    name: &'static str,
    instruction: Vec<u8>,
    writable: bool,
    count: usize,
    data: Vec<u8>,
    error: ProgramError,
}

/// The project's hostile generator on the account's data, with each
/// operation: never a VM fault, never a change before a failure; an
/// out-of-memory abort only for borsh (it preallocates what a corrupt
/// length claims, as the families document).
fn check_hostile(subject: &Subject, instance: &Instance, checked: &mut Checked) {
    let Subject {
        logged,
        id,
        planned,
        account,
        label,
        ..
    } = *subject;
    let record = &instance.record;
    let data = instance.data(account, record);
    let calls = calls(planned, record, dispatch);
    // Each operation on the same account data, damaged.
    let inputs: Vec<(&str, &[u8])> = calls
        .iter()
        .map(|c| (c.operation, data.as_slice()))
        .collect();
    hostile_inputs(&inputs, label, checked, |which, damaged| {
        let instruction = instruction(id, &calls[which].data, true, 2);
        let (result, outcome) = logged.run_instruction(&instruction, &accounts(id, damaged, 2));
        match outcome {
            RunOutcome::Fault(message) => Err(format!("VM fault: {message}")),
            RunOutcome::ChangedBeforeFailure(what) => {
                Err(format!("changed before a failure: {what}"))
            }
            RunOutcome::OutOfMemory
                if matches!(
                    planned.format,
                    AccountFormat::Pinocchio(AccountCodec::Borsh | AccountCodec::BorshBoxed)
                ) =>
            {
                Ok("out of memory (documented for borsh)".into())
            }
            RunOutcome::Success if result.resulting_accounts[0].1.data.len() != damaged.len() => {
                Err("the account's length changed".into())
            }
            other => Ok(other.name()),
        }
    });
}
