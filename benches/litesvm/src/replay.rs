//! One case of a `cases.json` sent as a transaction: the accounts set as
//! they were before the call, the program's instruction (after compute
//! budget instructions where it needs them), and what came out compared
//! with what Mollusk left.

use std::{collections::BTreeMap, fs, path::Path};

use agave_feature_set::FeatureSet;
use base64::{Engine, prelude::BASE64_STANDARD};
use litesvm::LiteSVM;
use serde::Deserialize;
use solana_account::Account;
use solana_compute_budget_interface::ComputeBudgetInstruction;
use solana_instruction::{AccountMeta, Instruction};
use solana_keypair::Keypair;
use solana_pubkey::Pubkey;
use solana_signer::Signer;
use solana_transaction::Transaction;
use solana_transaction_error::TransactionError;

/// The most compute units a transaction may request (and Mollusk's budget).
const MAX_COMPUTE_UNIT_LIMIT: u32 = 1_400_000;

#[derive(Deserialize)]
pub struct Cases {
    pub cases: Vec<Case>,
}

impl Cases {
    /// `path`, read; the error says which `make` target writes it.
    pub fn read(path: &Path, made_by: &str) -> Result<Self, String> {
        let text = fs::read_to_string(path)
            .map_err(|e| format!("{}: {e}; run `{made_by}` first", path.display()))?;
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
    }
}

#[derive(Clone, Deserialize)]
pub struct Case {
    pub row: String,
    pub program_id: String,
    pub so: String,
    pub heap_frame: u32,
    instruction_data: String,
    accounts: Vec<AccountData>,
    data_after: Option<String>,
    /// The program error an error-path row ends with (`InvalidArgument`).
    #[serde(default)]
    error: Option<String>,
    /// What a success must emit: one `Program data:` line (`log`) or one
    /// inner instruction (`self_cpi`) of exactly `data`.
    #[serde(default)]
    emitted: Option<Emission>,
    pub cus: u64,
}

#[derive(Clone, Deserialize)]
struct AccountData {
    pubkey: String,
    is_signer: bool,
    is_writable: bool,
    lamports: u64,
    owner: String,
    data: String,
}

#[derive(Clone, Deserialize)]
struct Emission {
    how: String,
    data: String,
}

impl Case {
    /// The case's instruction, and its accounts as they were before the
    /// call (but the program itself, which an `emit_cpi` call passes: it
    /// is the one loaded).
    pub fn instruction(&self) -> Result<(Instruction, Vec<(Pubkey, Account)>), String> {
        let program_id = key(&self.program_id)?;
        let mut metas = Vec::new();
        let mut accounts = Vec::new();
        for account in &self.accounts {
            let pubkey = key(&account.pubkey)?;
            metas.push(AccountMeta {
                pubkey,
                is_signer: account.is_signer,
                is_writable: account.is_writable,
            });
            if pubkey != program_id {
                accounts.push((
                    pubkey,
                    Account {
                        lamports: account.lamports,
                        data: bytes(&account.data)?,
                        owner: key(&account.owner)?,
                        executable: false,
                        rent_epoch: 0,
                    },
                ));
            }
        }
        let data = bytes(&self.instruction_data)?;
        Ok((
            Instruction::new_with_bytes(program_id, &data, metas),
            accounts,
        ))
    }
}

pub fn key(text: &str) -> Result<Pubkey, String> {
    text.parse().map_err(|e| format!("key {text}: {e:?}"))
}

fn bytes(text: &str) -> Result<Vec<u8>, String> {
    BASE64_STANDARD
        .decode(text)
        .map_err(|e| format!("base64: {e}"))
}

/// One replayed case: LiteSVM's CUs for the transaction and for the
/// program (as the runtime logs them), and whether the call left what
/// Mollusk did (account [0]'s data, and what it emitted).
pub struct Replay {
    pub transaction_cus: u64,
    pub program_cus: Option<u64>,
    pub data_equal: bool,
}

/// Compute budget instructions to send first: `heap_frame`, the frame to
/// request; `limit`, the most compute a transaction may have (Mollusk's
/// budget), which the largest cases need.
#[derive(Clone, Copy, Default)]
pub struct Budget {
    pub heap_frame: Option<u32>,
    pub max_limit: bool,
}

pub fn replay(
    svm: &mut LiteSVM,
    payer: &Keypair,
    case: &Case,
    budget: Budget,
) -> Result<Replay, String> {
    let (instruction, accounts) = case.instruction()?;
    for (pubkey, account) in accounts {
        svm.set_account(pubkey, account)
            .map_err(|e| format!("{}: setting {pubkey}: {e:?}", case.row))?;
    }
    let mut instructions = Vec::new();
    if let Some(bytes) = budget.heap_frame {
        instructions.push(ComputeBudgetInstruction::request_heap_frame(bytes));
    }
    if budget.max_limit {
        instructions.push(ComputeBudgetInstruction::set_compute_unit_limit(
            MAX_COMPUTE_UNIT_LIMIT,
        ));
    }
    instructions.push(instruction);
    let tx = Transaction::new_signed_with_payer(
        &instructions,
        Some(&payer.pubkey()),
        &[payer],
        svm.latest_blockhash(),
    );
    let sent = svm.send_transaction(tx);
    svm.expire_blockhash();
    let meta = match (sent, &case.error) {
        // An error-path row: the program's error, and nothing written.
        (Err(failed), Some(want)) => {
            return match &failed.err {
                TransactionError::InstructionError(_, got) if &format!("{got:?}") == want => {
                    Ok(Replay {
                        transaction_cus: failed.meta.compute_units_consumed,
                        program_cus: program_cus(&failed.meta.logs, &case.program_id),
                        data_equal: true,
                    })
                }
                got => Err(format!("{got:?} instead of {want}")),
            };
        }
        (Ok(_), Some(want)) => return Err(format!("success instead of {want}")),
        (Err(failed), None) => {
            // The program's last log line names the runtime's error.
            let last = failed.meta.logs.last().cloned().unwrap_or_default();
            return Err(format!("{:?}: {last}", failed.err));
        }
        (Ok(meta), None) => meta,
    };
    let account_equal = match case.data_after.as_deref().map(bytes).transpose()? {
        Some(want) => {
            let first = key(&case.accounts[0].pubkey)?;
            svm.get_account(&first).map(|a| a.data) == Some(want)
        }
        None => true,
    };
    let emitted_equal = match &case.emitted {
        None => true,
        Some(emission) => {
            let want = bytes(&emission.data)?;
            let seen: Vec<Vec<u8>> = match emission.how.as_str() {
                "log" => meta
                    .logs
                    .iter()
                    .filter_map(|line| line.strip_prefix("Program data: "))
                    .map(|data| {
                        data.split(' ')
                            .flat_map(|part| bytes(part).unwrap_or_default())
                            .collect()
                    })
                    .collect(),
                "self_cpi" => meta
                    .inner_instructions
                    .iter()
                    .flatten()
                    .map(|inner| inner.instruction.data.clone())
                    .collect(),
                other => return Err(format!("emitted `{other}`: not `log` or `self_cpi`")),
            };
            seen == [want]
        }
    };
    Ok(Replay {
        transaction_cus: meta.compute_units_consumed,
        program_cus: program_cus(&meta.logs, &case.program_id),
        data_equal: account_equal && emitted_equal,
    })
}

/// The program's CUs as the runtime logs them: the last
/// `Program <id> consumed N of M compute units` (a self-CPI's own line
/// comes before its caller's, whose N includes it).
fn program_cus(logs: &[String], program_id: &str) -> Option<u64> {
    let prefix = format!("Program {program_id} consumed ");
    logs.iter()
        .rev()
        .find_map(|line| line.strip_prefix(&prefix))
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
}

/// Which runtime features a pass runs with.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Features {
    /// Every feature enabled, as Mollusk runs.
    All,
    /// The features active on mainnet (LiteSVM's default).
    Mainnet,
}

impl Features {
    pub fn name(self) -> &'static str {
        match self {
            Self::All => "all",
            Self::Mainnet => "mainnet",
        }
    }

    pub fn title(self) -> &'static str {
        match self {
            Self::All => "all enabled (as Mollusk runs)",
            Self::Mainnet => "active on mainnet (LiteSVM's default)",
        }
    }
}

/// A LiteSVM like `LiteSVM::new()`, with `features`, every case's program
/// loaded (from its `.so` under `root`), and a funded payer.
/// `traced`: register tracing is on (`SBF_TRACE_DIR`), and each ELF is
/// loaded with the section names its loader needs.
pub fn svm_with(
    features: Features,
    cases: &[Case],
    root: &Path,
    traced: bool,
) -> Result<(LiteSVM, Keypair), String> {
    let mut svm = LiteSVM::default()
        .with_feature_set(match features {
            Features::All => FeatureSet::all_enabled(),
            Features::Mainnet => LiteSVM::mainnet_feature_set(),
        })
        .with_builtins()
        .with_lamports(1_000_000_000_000_000)
        .with_sysvars()
        .with_feature_accounts()
        .with_default_programs()
        .with_sigverify(true)
        .with_blockhash_check(true);
    let mut loaded = BTreeMap::new();
    for case in cases {
        if loaded.contains_key(&case.program_id) {
            continue;
        }
        let elf = fs::read(root.join(&case.so)).map_err(|e| format!("{}: {e}", case.so))?;
        let elf = match traced {
            true => crate::section_names::with_section_names(&elf),
            false => elf,
        };
        svm.add_program(key(&case.program_id)?, &elf)
            .map_err(|e| format!("{}: loading {}: {e:?}", case.row, case.so))?;
        loaded.insert(case.program_id.clone(), case.so.clone());
    }
    let payer = Keypair::new();
    svm.airdrop(&payer.pubkey(), 1_000_000_000_000)
        .map_err(|e| format!("airdrop: {:?}", e.err))?;
    Ok((svm, payer))
}

/// `litesvm.json`: the LiteSVM version and each pass.
pub fn replay_json<P: serde::Serialize>(version: &str, passes: &[(Features, P)]) -> String {
    let passes: Vec<&P> = passes.iter().map(|(_, pass)| pass).collect();
    serde_json::to_string_pretty(&serde_json::json!({ "litesvm": version, "passes": passes }))
        .expect("JSON")
        + "\n"
}
