//! Random and hostile input against every token program: whatever the
//! bytes, account count, op byte, owner or writable flag, the program does
//! exactly what the contract says, never faults the VM and never aborts
//! (no token program allocates past its frame), and what a successful write
//! leaves, `full` reads back. The same on solana-program's entrypoint.

use std::iter;

use benches::token::Encoding;
use benches::{
    Case, Expected, Family, Framework, Input, Program, Workspace, hostile,
    vm::{LoggedMollusk, Outcome},
};
use common::token::Operation;
use proptest::{collection::vec, option, prelude::*};

const CASES_PER_PROGRAM: u32 = 2_000;

fn inputs(encoding: Encoding) -> impl Strategy<Value = Input> {
    // A good share exactly the account's length, so the later checks are
    // reached, a good share just longer, where the shapes differ, a share
    // that is a valid encoding of a random account (for a varint encoding,
    // random bytes rarely are) with a random tail, and a share of those
    // damaged by the hostile generator every family draws from.
    let len = encoding.account_len();
    let random = prop_oneof![2 => Just(len), 1 => len + 1..=len + 40, 1 => 0..=512usize]
        .prop_flat_map(|len| vec(any::<u8>(), len));
    let encoded = (any::<[u8; 160]>(), vec(any::<u8>(), 0..=48)).prop_map(move |(raw, tail)| {
        let mut data = encoding.encode(&raw);
        data.extend(tail);
        data
    });
    let damaged = (any::<[u8; 160]>(), hostile::mutation())
        .prop_map(move |(raw, mutation)| mutation.apply(&encoding.encode(&raw)));
    let data = prop_oneof![2 => random, 1 => encoded, 3 => damaged];
    let op = prop_oneof![4 => 0..=2u8, 1 => any::<u8>()];
    let instruction_data =
        (option::weighted(0.95, op), vec(any::<u8>(), 0..4)).prop_map(|(op, rest)| {
            op.map(|op| iter::once(op).chain(rest).collect())
                .unwrap_or_default()
        });
    // Weighted towards inputs that pass the early checks.
    let account_count = prop_oneof![1 => 0..=1usize, 4 => 2..=3usize];
    let writable = prop::bool::weighted(0.8);
    let owner_matches = prop::bool::weighted(0.7);
    (
        instruction_data,
        account_count,
        writable,
        data,
        owner_matches,
        any::<[u8; 32]>(),
    )
        .prop_map(
            |(instruction_data, account_count, writable, data, owner_matches, other_key)| {
                let owner_key = match data.get(32..64) {
                    Some(owner) if owner_matches => owner.try_into().unwrap(),
                    _ => other_key,
                };
                Input {
                    instruction_data,
                    account_count,
                    writable,
                    data,
                    owner_key,
                }
            },
        )
}

#[test]
fn random_and_hostile_input_meets_the_contract() {
    let (programs, mollusk) = Workspace::current()
        .load(Family::Token)
        .unwrap_or_else(|e| panic!("{e}"));
    let mollusk = LoggedMollusk::new(mollusk);
    for program in &programs {
        hostile::run_cases(
            &program.label(),
            CASES_PER_PROGRAM,
            inputs(program.encoding),
            |input| run_checked(&mollusk, program, &input),
        );
    }
}

/// The same input against the token programs on solana-program's
/// entrypoint and its floor (1,000 each: the code after the dispatch is the
/// crates' own, tested above).
#[test]
fn solana_program_entrypoint_meets_the_contract() {
    let (programs, mollusk) = Workspace::current()
        .load_framework(Framework::SOLANA_PROGRAM, Family::Token)
        .unwrap_or_else(|e| panic!("{e}"));
    let mollusk = LoggedMollusk::new(mollusk);
    for program in &programs {
        hostile::run_cases(
            &program.label(),
            CASES_PER_PROGRAM / 2,
            inputs(program.encoding),
            |input| run_checked(&mollusk, program, &input),
        );
    }
}

/// One call against the contract: no fault, no abort, the exact outcome;
/// after a successful write, `full` on the result as the contract says.
fn run_checked(
    mollusk: &LoggedMollusk,
    program: &Program,
    input: &Input,
) -> Result<String, String> {
    let case = Case::new(program, "random input", input);
    let (result, outcome) = mollusk.run(&case);
    match &outcome {
        Outcome::Fault(message) => return Err(format!("VM fault: {message}")),
        Outcome::ChangedBeforeFailure(what) => {
            return Err(format!("changed before a failure: {what}"));
        }
        Outcome::OutOfMemory => return Err("aborted out of memory".into()),
        Outcome::Success | Outcome::Error(_) => {}
    }
    case.check(&result).map_err(|e| e.to_string())?;
    let writes =
        Operation::from_instruction_data(&input.instruction_data).is_ok_and(Operation::writes);
    if let (Expected::Success(after), true) = (&case.expected, writes) {
        let again = Input {
            instruction_data: vec![0],
            account_count: 2,
            writable: true,
            data: after.clone(),
            // The owner the written account holds (`update_amount` does
            // not check it).
            owner_key: after[32..64].try_into().unwrap(),
        };
        let read_back = Case::new(program, "full after a write", &again);
        let (result, outcome) = mollusk.run(&read_back);
        if let Outcome::Fault(message) | Outcome::ChangedBeforeFailure(message) = &outcome {
            return Err(format!("full after a write: {message}"));
        }
        read_back
            .check(&result)
            .map_err(|e| format!("full after a write: {e}"))?;
    }
    Ok(outcome.name())
}
