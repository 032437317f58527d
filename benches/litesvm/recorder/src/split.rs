//! A transaction split into its top-level instructions: what each was
//! given and what it left, from LiteSVM itself. LiteSVM's callback sees
//! the accounts before the transaction and after it, not between its
//! instructions, so the recorder asks LiteSVM to simulate the
//! transaction's first `m` instructions (`simulate_transaction`, which
//! changes nothing): the state after `m` is the state the instruction at
//! `m` was given, and the CUs of the first `m + 1` less those of the first
//! `m` are its own.

use litesvm::LiteSVM;
use solana_account::AccountSharedData;
use solana_address::Address;
use solana_message::{VersionedMessage, inner_instruction::InnerInstructionsList};
use solana_transaction::sanitized::SanitizedTransaction;
use solana_transaction_error::TransactionError;

/// What LiteSVM gives for a transaction's first `m` instructions.
pub struct Outcome {
    pub consumed: u64,
    /// The writable accounts after them (on success).
    pub accounts: Vec<(Address, AccountSharedData)>,
    pub error: Option<TransactionError>,
    pub inner: InnerInstructionsList,
    pub return_data: Vec<u8>,
    pub logs: Vec<String>,
}

/// Simulates prefixes of one transaction.
pub struct Prefixes<'a> {
    svm: &'a LiteSVM,
    tx: &'a SanitizedTransaction,
    /// A copy of the LiteSVM with signatures not checked, made the first
    /// time a prefix (whose message the signatures do not sign) is asked.
    unsigned: Option<LiteSVM>,
}

impl<'a> Prefixes<'a> {
    pub fn new(svm: &'a LiteSVM, tx: &'a SanitizedTransaction) -> Self {
        Self {
            svm,
            tx,
            unsigned: None,
        }
    }

    /// The first `m` instructions simulated (`m` of `n`: the transaction
    /// as it was sent).
    pub fn run(&mut self, m: usize) -> Outcome {
        let mut versioned = self.tx.to_versioned_transaction();
        let n = self.tx.message().instructions().len();
        if m < n {
            match &mut versioned.message {
                VersionedMessage::Legacy(message) => message.instructions.truncate(m),
                VersionedMessage::V0(message) => message.instructions.truncate(m),
                VersionedMessage::V1(message) => message.instructions.truncate(m),
            }
        }
        let svm = if m == n || !self.svm.get_sigverify() {
            self.svm
        } else {
            self.unsigned
                .get_or_insert_with(|| self.svm.clone().with_sigverify(false))
        };
        match svm.simulate_transaction(versioned) {
            Ok(info) => Outcome {
                consumed: info.meta.compute_units_consumed,
                accounts: info.post_accounts,
                error: None,
                inner: info.meta.inner_instructions,
                return_data: info.meta.return_data.data,
                logs: info.meta.logs,
            },
            Err(failed) => Outcome {
                consumed: failed.meta.compute_units_consumed,
                accounts: Vec::new(),
                error: Some(failed.err),
                inner: failed.meta.inner_instructions,
                return_data: failed.meta.return_data.data,
                logs: failed.meta.logs,
            },
        }
    }
}
