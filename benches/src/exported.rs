//! A checked case as `cases.json` holds it, for another harness to replay:
//! the program, the exact instruction and accounts, what must come out and
//! what Mollusk measured. `make bench` and `make idl` write it; the
//! fixtures and the LiteSVM replay read it. Byte strings are base64, keys
//! base58.

use std::{fs, path::Path};

use base64::{Engine, prelude::BASE64_STANDARD};
use serde::{Deserialize, Serialize};
use solana_account::Account;
use solana_instruction::{AccountMeta, Instruction};
use solana_program_error::ProgramError;
use solana_pubkey::Pubkey;

use crate::trace::Footprint;

/// One case of `cases.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExportedCase {
    /// The row's name, as the run's `results.json` and reports name it.
    pub row: String,
    pub framework: String,
    /// The family (`token`, `message`, `metadata`), or `idl` for a `make
    /// idl` run.
    pub family: String,
    pub program_id: String,
    /// The program's `.so`, relative to the project's root.
    pub so: String,
    /// The heap frame the call runs with.
    pub heap_frame: u32,
    pub instruction_data: String,
    /// Every account the instruction passes, in its order, as it was
    /// before the call.
    pub accounts: Vec<ExportedAccount>,
    /// Account [0]'s data after a success (`None` for an error, or a call
    /// with no account).
    pub data_after: Option<String>,
    /// The program error an error-path row ends with (`InvalidArgument`).
    pub error: Option<String>,
    /// What a successful call must emit besides its accounts (events).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub emitted: Option<ExportedEmission>,
    /// Mollusk's compute units.
    pub cus: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instructions: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub syscall_cus: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stack_bytes: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call_depth: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heap_bytes: Option<u64>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExportedAccount {
    pub pubkey: String,
    pub is_signer: bool,
    pub is_writable: bool,
    pub lamports: u64,
    pub owner: String,
    pub data: String,
}

/// An event as the call emits it: one `Program data:` line of `data`
/// (`log`), or one inner instruction to the program itself whose data is
/// `data` (`self_cpi`: Anchor's event tag, then the event).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExportedEmission {
    pub how: String,
    pub data: String,
}

/// `cases.json`: who produced the cases, and the cases.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CasesFile {
    pub provenance: serde_json::Value,
    pub cases: Vec<ExportedCase>,
}

impl CasesFile {
    /// Reads `path`; the error names the file and says how to make it.
    pub fn read(path: &Path) -> Result<Self, String> {
        let text = fs::read_to_string(path).map_err(|e| {
            format!(
                "{}: {e}; `make bench` (the families) or `make idl` (a run) writes it",
                path.display()
            )
        })?;
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// The file's text (pretty JSON, one newline at the end).
    pub fn to_text(&self) -> String {
        serde_json::to_string_pretty(self).expect("cases serialize") + "\n"
    }
}

impl ExportedCase {
    /// The case of one call: `instruction` on `accounts` (as they were
    /// before), ending with account [0]'s `outcome` data or an error, which
    /// took `cus`.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        row: String,
        framework: &str,
        family: &str,
        so: &str,
        heap_frame: u32,
        instruction: &Instruction,
        accounts: &[(Pubkey, Account)],
        outcome: Result<Option<&[u8]>, &ProgramError>,
        cus: u64,
    ) -> Self {
        let accounts = instruction
            .accounts
            .iter()
            .zip(accounts)
            .map(|(meta, (key, account))| ExportedAccount {
                pubkey: key.to_string(),
                is_signer: meta.is_signer,
                is_writable: meta.is_writable,
                lamports: account.lamports,
                owner: account.owner.to_string(),
                data: BASE64_STANDARD.encode(&account.data),
            })
            .collect();
        Self {
            row,
            framework: framework.into(),
            family: family.into(),
            program_id: instruction.program_id.to_string(),
            so: so.into(),
            heap_frame,
            instruction_data: BASE64_STANDARD.encode(&instruction.data),
            accounts,
            data_after: outcome
                .ok()
                .flatten()
                .map(|data| BASE64_STANDARD.encode(data)),
            error: outcome.err().map(|error| format!("{error:?}")),
            emitted: None,
            cus,
            instructions: None,
            syscall_cus: None,
            stack_bytes: None,
            call_depth: None,
            heap_bytes: None,
        }
    }

    /// The same case with the traced pass's figures.
    pub fn with_footprint(mut self, footprint: Footprint) -> Self {
        self.instructions = Some(footprint.instructions);
        self.syscall_cus = Some(footprint.syscall_cus(self.cus));
        self.stack_bytes = Some(footprint.stack_bytes);
        self.call_depth = Some(footprint.call_depth);
        self.heap_bytes = Some(footprint.heap_bytes);
        self
    }

    /// The same case, which must also emit `data`: `how` is `log` or
    /// `self_cpi`.
    pub fn with_emission(mut self, how: &str, data: &[u8]) -> Self {
        self.emitted = Some(ExportedEmission {
            how: how.into(),
            data: BASE64_STANDARD.encode(data),
        });
        self
    }

    pub fn program_id(&self) -> Result<Pubkey, String> {
        key(&self.program_id)
    }

    /// The instruction, as the case calls it.
    pub fn instruction(&self) -> Result<Instruction, String> {
        let metas = self
            .accounts
            .iter()
            .map(|a| {
                Ok(AccountMeta {
                    pubkey: key(&a.pubkey)?,
                    is_signer: a.is_signer,
                    is_writable: a.is_writable,
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        Ok(Instruction::new_with_bytes(
            self.program_id()?,
            &bytes(&self.instruction_data)?,
            metas,
        ))
    }

    /// The accounts before the call. The program's own account (an
    /// `emit_cpi` call passes it) is its loader-v3 program account, as
    /// Mollusk makes it.
    pub fn accounts(&self) -> Result<Vec<(Pubkey, Account)>, String> {
        let id = self.program_id()?;
        self.accounts
            .iter()
            .map(|a| {
                let pubkey = key(&a.pubkey)?;
                if pubkey == id {
                    return Ok((
                        pubkey,
                        mollusk_svm::program::create_program_account_loader_v3(&id),
                    ));
                }
                Ok((
                    pubkey,
                    Account {
                        lamports: a.lamports,
                        data: bytes(&a.data)?,
                        owner: key(&a.owner)?,
                        ..Account::default()
                    },
                ))
            })
            .collect()
    }

    /// Account [0]'s data after a success.
    pub fn data_after(&self) -> Result<Option<Vec<u8>>, String> {
        self.data_after.as_deref().map(bytes).transpose()
    }
}

fn key(text: &str) -> Result<Pubkey, String> {
    text.parse().map_err(|e| format!("key {text}: {e:?}"))
}

fn bytes(text: &str) -> Result<Vec<u8>, String> {
    BASE64_STANDARD
        .decode(text)
        .map_err(|e| format!("base64: {e}"))
}
