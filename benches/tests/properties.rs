//! Random input against every program: whatever the bytes, account count,
//! op byte, owner or writable flag, the program does exactly what the
//! contract says, and never faults the VM.

use std::{cell::RefCell, collections::BTreeMap, iter};

use benches::contract::Encoding;
use benches::{Case, Expected, Family, Input, Workspace};
use proptest::{
    collection::vec,
    option,
    prelude::*,
    test_runner::{Config, TestCaseError, TestError, TestRunner},
};

const CASES_PER_PROGRAM: u32 = 1_000;

fn inputs(encoding: Encoding) -> impl Strategy<Value = Input> {
    // A good share exactly the account's length, so the later checks are
    // reached, a good share just longer, where the shapes differ, and a
    // share that is a valid encoding of a random account (for a varint
    // encoding, random bytes rarely are) with a random tail.
    let len = encoding.account_len();
    let random = prop_oneof![2 => Just(len), 1 => len + 1..=len + 40, 1 => 0..=512usize]
        .prop_flat_map(|len| vec(any::<u8>(), len));
    let encoded = (any::<[u8; 160]>(), vec(any::<u8>(), 0..=48)).prop_map(move |(raw, tail)| {
        let mut data = encoding.encode(&raw);
        data.extend(tail);
        data
    });
    let data = prop_oneof![3 => random, 1 => encoded];
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
fn random_input_meets_the_contract() {
    let (programs, mollusk) = Workspace::current()
        .load(Family::Token)
        .unwrap_or_else(|e| panic!("{e}"));
    for program in &programs {
        let config = Config {
            cases: CASES_PER_PROGRAM,
            failure_persistence: None,
            ..Config::default()
        };
        let mut runner = TestRunner::new(config);
        let outcomes = RefCell::new(BTreeMap::<String, u32>::new());
        let result = runner.run(&inputs(program.encoding), |input| {
            let case = Case::new(program, "random input", &input);
            case.run(&mollusk)
                .map_err(|error| TestCaseError::fail(error.to_string()))?;
            let outcome = match &case.expected {
                Expected::Success(_) => "success".to_string(),
                Expected::Failure(error) => format!("{error:?}"),
            };
            *outcomes.borrow_mut().entry(outcome).or_default() += 1;
            Ok(())
        });
        match result {
            Ok(()) => eprintln!(
                "{}: {CASES_PER_PROGRAM} cases, none faulted; outcomes {:?}",
                program.label(),
                outcomes.borrow()
            ),
            Err(TestError::Fail(reason, input)) => {
                panic!("{}: {reason}\nshrunk input: {input:#?}", program.label())
            }
            Err(error) => panic!("{}: {error}", program.label()),
        }
    }
}
