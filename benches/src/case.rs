//! A benchmark or test case as data: which program and operation, the exact
//! instruction and accounts, and what the contract says must come out.

use mollusk_svm::{
    Mollusk,
    result::{InstructionResult, ProgramResult},
};
use solana_account::Account;
use solana_instruction::{AccountMeta, Instruction};
use solana_program_error::ProgramError;
use solana_pubkey::Pubkey;

use crate::{
    error::HarnessError,
    exported::ExportedCase,
    program::{Family, Framework, Program, Shape},
};

/// Key of account [0], the account holding the data.
pub const DATA_ACCOUNT: Pubkey = Pubkey::new_from_array([0xDA; 32]);
/// Key of account [2], which the contract ignores.
pub const EXTRA_ACCOUNT: Pubkey = Pubkey::new_from_array([0xEE; 32]);
/// Lamports of every account: rent-exempt at any size the tests use.
const LAMPORTS: u64 = 1_000_000_000;

/// One call of a program, described by what the contract looks at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    pub instruction_data: Vec<u8>,
    /// How many accounts are passed: [0] the data account, [1] the owner,
    /// [2] an extra account the contract ignores.
    pub account_count: usize,
    /// Whether account [0] is passed writable.
    pub writable: bool,
    /// Account [0]'s data.
    pub data: Vec<u8>,
    /// Account [1]'s key.
    pub owner_key: [u8; 32],
}

impl Input {
    /// This input with one change: a test's variation on a valid call.
    pub fn with(&self, change: impl FnOnce(&mut Input)) -> Input {
        let mut input = self.clone();
        change(&mut input);
        input
    }
}

/// What a case must produce.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expected {
    /// Success, with account [0]'s data afterwards; other accounts unchanged.
    Success(Vec<u8>),
    /// This exact program error, with every account unchanged.
    Failure(ProgramError),
}

/// What a successful call must emit besides its accounts: an event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Emitted {
    /// One `sol_log_data` of exactly these bytes (`Program data: <base64>`),
    /// as `emit!` logs an event.
    Log(Vec<u8>),
    /// One inner instruction to the program itself with exactly this data,
    /// as `emit_cpi!` passes an event.
    SelfCpi(Vec<u8>),
}

#[derive(Clone, Debug)]
pub struct Case {
    /// The program's label (`borsh`, `at_least/borsh`): errors name it.
    pub program: String,
    pub framework: Framework,
    pub family: Family,
    /// The program's folder: its crate or format.
    pub name: String,
    pub shape: Shape,
    pub operation: String,
    /// The message family's nominal instance size.
    pub size: Option<usize>,
    /// The metadata family's instance (`minimal`, `typical`, `full`).
    pub instance: Option<&'static str>,
    /// The format's encoding of the instance, in bytes (message and
    /// metadata families).
    pub encoded_bytes: Option<usize>,
    pub instruction: Instruction,
    pub accounts: Vec<(Pubkey, Account)>,
    pub expected: Expected,
    /// What a success must emit, where the contract says (events).
    pub emits: Option<Emitted>,
}

impl Case {
    /// The case for one call of `program`, with the outcome `expected` (the
    /// family's contract gives it: `Case::new`, in `families`).
    pub fn with_outcome(
        program: &Program,
        operation: impl Into<String>,
        input: &Input,
        expected: Result<Vec<u8>, ProgramError>,
    ) -> Self {
        let data_account = Account {
            lamports: LAMPORTS,
            data: input.data.clone(),
            owner: program.id,
            ..Account::default()
        };
        let other = Account {
            lamports: LAMPORTS,
            ..Account::default()
        };
        let owner_key = Pubkey::new_from_array(input.owner_key);
        let all = [
            (
                AccountMeta {
                    pubkey: DATA_ACCOUNT,
                    is_signer: false,
                    is_writable: input.writable,
                },
                data_account,
            ),
            (AccountMeta::new_readonly(owner_key, false), other.clone()),
            (AccountMeta::new_readonly(EXTRA_ACCOUNT, false), other),
        ];
        let (metas, accounts) = all
            .into_iter()
            .take(input.account_count)
            .map(|(meta, account)| (meta.clone(), (meta.pubkey, account)))
            .unzip();
        Self {
            program: program.label(),
            framework: program.framework,
            family: program.family,
            name: program.name.clone(),
            shape: program.shape,
            operation: operation.into(),
            instruction: Instruction::new_with_bytes(program.id, &input.instruction_data, metas),
            accounts,
            expected: match expected {
                Ok(data) => Expected::Success(data),
                Err(error) => Expected::Failure(error),
            },
            size: None,
            instance: None,
            encoded_bytes: None,
            emits: None,
        }
    }

    /// The same case, named for a message instance of nominal `size`
    /// (encoded in the whole account).
    pub fn with_size(mut self, size: usize) -> Self {
        self.size = Some(size);
        self.encoded_bytes = Some(self.accounts[0].1.data.len());
        self
    }

    /// The same case, named for a metadata instance whose encoding takes
    /// `encoded_bytes` of the account.
    pub fn with_instance(mut self, instance: &'static str, encoded_bytes: usize) -> Self {
        self.instance = Some(instance);
        self.encoded_bytes = Some(encoded_bytes);
        self
    }

    /// The instance's part of the row name: the message size or the
    /// metadata instance.
    fn variant(&self) -> Option<String> {
        self.size
            .map(|size| size.to_string())
            .or(self.instance.map(String::from))
    }

    /// The row name in reports: `<program>::<operation>`, then `/<size>`
    /// or `/<instance>`.
    pub fn name(&self) -> String {
        match self.variant() {
            Some(variant) => format!("{}::{}/{variant}", self.program, self.operation),
            None => format!("{}::{}", self.program, self.operation),
        }
    }

    /// Runs the case and checks it against the contract (what it emits
    /// too, from `mollusk`'s log, which the run starts empty).
    pub fn run(&self, mollusk: &Mollusk) -> Result<InstructionResult, HarnessError> {
        if let Some(log) = &mollusk.logger {
            log.borrow_mut().messages.clear();
        }
        let result = mollusk.process_instruction(&self.instruction, &self.accounts);
        self.check(&result)?;
        if self.emits.is_some() {
            let Some(log) = &mollusk.logger else {
                return Err(self.wrong(
                    "its Mollusk keeps no log, so the event cannot be checked: make it with Workspace::mollusk_with".into(),
                ));
            };
            self.check_emitted(&result, &log.borrow().messages)?;
        }
        Ok(result)
    }

    /// Checks what a successful call emitted against [`Case::emits`]: the
    /// run's `log` holds exactly one `Program data:` line, of exactly the
    /// event's bytes; or exactly one inner instruction, to the program
    /// itself, of exactly its data.
    pub fn check_emitted(
        &self,
        result: &InstructionResult,
        log: &[String],
    ) -> Result<(), HarnessError> {
        use base64::{Engine, prelude::BASE64_STANDARD};
        if !matches!(result.program_result, ProgramResult::Success) {
            return Ok(());
        }
        let (what, want, seen): (&str, &Vec<u8>, Vec<Vec<u8>>) = match &self.emits {
            None => return Ok(()),
            Some(Emitted::Log(want)) => (
                "`Program data:` lines",
                want,
                log.iter()
                    .filter_map(|line| line.strip_prefix("Program data: "))
                    .map(|data| BASE64_STANDARD.decode(data).unwrap_or_default())
                    .collect(),
            ),
            Some(Emitted::SelfCpi(want)) => {
                let keys = result
                    .message
                    .as_ref()
                    .map(|m| m.account_keys().iter().copied().collect::<Vec<Pubkey>>())
                    .unwrap_or_default();
                (
                    "inner instructions to the program itself",
                    want,
                    result
                        .inner_instructions
                        .iter()
                        .filter(|inner| {
                            keys.get(usize::from(inner.instruction.program_id_index))
                                == Some(&self.instruction.program_id)
                        })
                        .map(|inner| inner.instruction.data.clone())
                        .collect(),
                )
            }
        };
        match seen.as_slice() {
            [got] if got == want => Ok(()),
            [got] => Err(self.wrong(format!(
                "emitted {} bytes that are not the event's {}: {}",
                got.len(),
                want.len(),
                first_difference(want, got).unwrap_or_default()
            ))),
            _ => Err(self.wrong(format!("{} {what}, not one", seen.len()))),
        }
    }

    /// The operation as errors name it: with its size or instance.
    fn described_operation(&self) -> String {
        match (self.size, self.instance) {
            (Some(size), _) => format!("{} at {size} bytes", self.operation),
            (_, Some(instance)) => format!("{} on `{instance}`", self.operation),
            _ => self.operation.clone(),
        }
    }

    fn wrong(&self, detail: String) -> HarnessError {
        HarnessError::WrongResult {
            program: self.program.clone(),
            operation: self.described_operation(),
            detail,
        }
    }

    /// Checks a result: the exact outcome, account [0]'s exact bytes, and
    /// every account that must not change.
    pub fn check(&self, result: &InstructionResult) -> Result<(), HarnessError> {
        let fail = |detail: String| self.wrong(detail);
        let mut expected_accounts = self.accounts.clone();
        match (&self.expected, &result.program_result) {
            (Expected::Success(data), ProgramResult::Success) => {
                expected_accounts[0].1.data = data.clone();
            }
            (Expected::Failure(want), ProgramResult::Failure(got)) if want == got => {}
            (_, ProgramResult::UnknownError(error)) => {
                return Err(fail(format!(
                    "VM fault {error:?} (expected {})",
                    self.describe()
                )));
            }
            (_, got) => {
                return Err(fail(format!("expected {}, got {got:?}", self.describe())));
            }
        }
        for ((key, want), (_, got)) in expected_accounts.iter().zip(&result.resulting_accounts) {
            if want != got {
                return Err(fail(format!(
                    "account {key} differs after the call: {}",
                    first_difference(&want.data, &got.data)
                        .unwrap_or_else(|| "lamports or owner changed".into())
                )));
            }
        }
        Ok(())
    }

    /// The case as data another harness can replay (`cases.json`): its
    /// program's `.so` (relative to the project's root), the heap frame it
    /// runs with and Mollusk's CUs.
    pub fn exported(&self, so_path: &str, heap_frame: u32, cus: u64) -> ExportedCase {
        let outcome = match &self.expected {
            Expected::Success(data) => Ok(Some(data.as_slice())),
            Expected::Failure(error) => Err(error),
        };
        let case = ExportedCase::new(
            self.name(),
            self.framework.name(),
            self.family.name(),
            so_path,
            heap_frame,
            &self.instruction,
            &self.accounts,
            outcome,
            cus,
        );
        match &self.emits {
            None => case,
            Some(Emitted::Log(data)) => case.with_emission("log", data),
            Some(Emitted::SelfCpi(data)) => case.with_emission("self_cpi", data),
        }
    }

    fn describe(&self) -> String {
        match &self.expected {
            Expected::Success(_) => "success".into(),
            Expected::Failure(error) => format!("Failure({error:?})"),
        }
    }
}

fn first_difference(want: &[u8], got: &[u8]) -> Option<String> {
    if want.len() != got.len() {
        return Some(format!(
            "data length {} instead of {}",
            got.len(),
            want.len()
        ));
    }
    let at = want.iter().zip(got).position(|(a, b)| a != b)?;
    Some(format!("byte {at} is {} instead of {}", got[at], want[at]))
}
