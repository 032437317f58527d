//! The counter's tests, as a team writes them with LiteSVM. The one line
//! for the profiles is `litesvm_recorder::record(&mut svm)`: with
//! `LITESVM_FIXTURES=<folder>` set, every call these tests make is written
//! as a Mollusk fixture for `profile-so --fixtures`; without it, nothing
//! changes.

use litesvm::LiteSVM;
use solana_account::Account;
use solana_instruction::{AccountMeta, Instruction, error::InstructionError};
use solana_keypair::Keypair;
use solana_pubkey::Pubkey;
use solana_signer::Signer;
use solana_transaction::Transaction;
use solana_transaction_error::TransactionError;

const PROGRAM_ID: Pubkey = Pubkey::from_str_const("Counter111111111111111111111111111111111111");

/// A LiteSVM with the program (`COUNTER_SO`, or this crate's own build)
/// and a counter account holding `count`, owned by `owner`.
fn setup(count: u64, owner: Pubkey) -> (LiteSVM, Keypair, Pubkey) {
    let mut svm = LiteSVM::new();
    litesvm_recorder::record(&mut svm);
    let so = std::env::var("COUNTER_SO").unwrap_or_else(|_| "target/deploy/counter.so".into());
    let elf = std::fs::read(&so).unwrap_or_else(|e| panic!("{so}: {e}; build the program first"));
    svm.add_program(PROGRAM_ID, &elf).unwrap();
    let payer = Keypair::new();
    svm.airdrop(&payer.pubkey(), 1_000_000_000).unwrap();
    let counter = Pubkey::new_unique();
    svm.set_account(
        counter,
        Account {
            lamports: svm.minimum_balance_for_rent_exemption(8),
            data: count.to_le_bytes().to_vec(),
            owner,
            executable: false,
            rent_epoch: 0,
        },
    )
    .unwrap();
    (svm, payer, counter)
}

fn call(counter: Pubkey, data: &[u8]) -> Instruction {
    Instruction::new_with_bytes(PROGRAM_ID, data, vec![AccountMeta::new(counter, false)])
}

fn add(counter: Pubkey, amount: u64) -> Instruction {
    let mut data = vec![1];
    data.extend_from_slice(&amount.to_le_bytes());
    call(counter, &data)
}

fn send(
    svm: &mut LiteSVM,
    payer: &Keypair,
    instructions: &[Instruction],
) -> Result<(), TransactionError> {
    let tx = Transaction::new_signed_with_payer(
        instructions,
        Some(&payer.pubkey()),
        &[payer],
        svm.latest_blockhash(),
    );
    let sent = svm
        .send_transaction(tx)
        .map(|_| ())
        .map_err(|failed| failed.err);
    svm.expire_blockhash();
    sent
}

fn count(svm: &LiteSVM, counter: &Pubkey) -> u64 {
    let data = svm.get_account(counter).unwrap().data;
    u64::from_le_bytes(data.try_into().unwrap())
}

#[test]
fn increments() {
    let (mut svm, payer, counter) = setup(41, PROGRAM_ID);
    send(&mut svm, &payer, &[call(counter, &[0])]).unwrap();
    assert_eq!(count(&svm, &counter), 42);
}

#[test]
fn adds_in_one_transaction() {
    let (mut svm, payer, counter) = setup(0, PROGRAM_ID);
    send(
        &mut svm,
        &payer,
        &[add(counter, 5), call(counter, &[0]), add(counter, 1_000)],
    )
    .unwrap();
    assert_eq!(count(&svm, &counter), 1_006);
}

#[test]
fn refuses_an_overflow_and_changes_nothing() {
    let (mut svm, payer, counter) = setup(u64::MAX, PROGRAM_ID);
    assert_eq!(
        send(&mut svm, &payer, &[call(counter, &[0])]),
        Err(TransactionError::InstructionError(
            0,
            InstructionError::InvalidArgument
        ))
    );
    assert_eq!(count(&svm, &counter), u64::MAX);
}

#[test]
fn refuses_another_programs_account() {
    let (mut svm, payer, counter) = setup(7, Pubkey::new_unique());
    assert_eq!(
        send(&mut svm, &payer, &[call(counter, &[0])]),
        Err(TransactionError::InstructionError(
            0,
            InstructionError::InvalidAccountData
        ))
    );
    assert_eq!(count(&svm, &counter), 7);
}

#[test]
fn refuses_unknown_data() {
    let (mut svm, payer, counter) = setup(7, PROGRAM_ID);
    for data in [&[][..], &[2], &[1, 0, 0]] {
        assert_eq!(
            send(&mut svm, &payer, &[call(counter, data)]),
            Err(TransactionError::InstructionError(
                0,
                InstructionError::InvalidInstructionData
            )),
            "{data:?}"
        );
    }
    assert_eq!(count(&svm, &counter), 7);
}
