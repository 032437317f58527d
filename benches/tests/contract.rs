//! The contract, clause by clause, for every program under programs/ and
//! every operation, through Mollusk. Each clause states the expected
//! outcome explicitly and also checks that the oracle agrees.

use benches::{Case, Expected, Input, Workspace, bench, contract};
use common::Operation;
use solana_program_error::ProgramError;

const WRONG_OWNER: [u8; 32] = [0x77; 32];

/// Runs one labelled input per operation on every program; collects every
/// failure so one run shows them all.
fn assert_clause(clause: &str, inputs: impl Fn(Operation) -> Vec<(String, Input, Expected)>) {
    let (programs, mollusk) = Workspace::current()
        .load()
        .unwrap_or_else(|e| panic!("{e}"));
    let mut failures = Vec::new();
    for program in &programs {
        for op in Operation::ALL {
            for (label, input, expected) in inputs(op) {
                let case = Case::new(program, format!("{} ({label})", op.name()), &input);
                assert_eq!(
                    case.expected, expected,
                    "oracle disagrees: {clause}, {label}"
                );
                if let Err(error) = case.run(&mollusk) {
                    failures.push(error.to_string());
                }
            }
        }
    }
    assert!(failures.is_empty(), "{clause}:\n{}", failures.join("\n"));
}

fn updated_fixture() -> Vec<u8> {
    let mut data = contract::fixture();
    data[64..72].copy_from_slice(&1_000_000_000u64.to_le_bytes());
    data[104] = 255;
    data
}

/// The bytes a valid call leaves, written out rather than computed.
fn success(op: Operation) -> Expected {
    Expected::Success(match op {
        Operation::ReadOwner => contract::fixture(),
        Operation::Full | Operation::UpdateAmount => updated_fixture(),
    })
}

fn one(label: &str, input: Input, expected: Expected) -> Vec<(String, Input, Expected)> {
    vec![(label.to_string(), input, expected)]
}

#[test]
fn valid_call_leaves_exact_bytes() {
    assert_clause("valid call", |op| {
        one("valid", Input::valid(op), success(op))
    });
}

#[test]
fn wrong_owner_is_incorrect_authority_where_checked() {
    assert_clause("wrong owner", |op| {
        let input = Input {
            owner_key: WRONG_OWNER,
            ..Input::valid(op)
        };
        let expected = match op {
            Operation::UpdateAmount => success(op),
            _ => Expected::Failure(ProgramError::IncorrectAuthority),
        };
        one("wrong owner", input, expected)
    });
}

#[test]
fn fewer_than_two_accounts_is_not_enough_account_keys() {
    assert_clause("account count", |op| {
        (0..2)
            .map(|count| {
                let input = Input {
                    account_count: count,
                    ..Input::valid(op)
                };
                (
                    format!("{count} accounts"),
                    input,
                    Expected::Failure(ProgramError::NotEnoughAccountKeys),
                )
            })
            .collect()
    });
}

#[test]
fn empty_or_unknown_op_is_invalid_instruction_data() {
    assert_clause("op byte", |op| {
        // One pass per operation would repeat these; run them once.
        if op != Operation::Full {
            return Vec::new();
        }
        std::iter::once(Vec::new())
            .chain((3..=255u8).map(|byte| vec![byte]))
            .map(|data| {
                let input = Input {
                    instruction_data: data.clone(),
                    ..Input::valid(op)
                };
                (
                    format!("instruction data {data:?}"),
                    input,
                    Expected::Failure(ProgramError::InvalidInstructionData),
                )
            })
            .collect()
    });
}

#[test]
fn wrong_length_is_invalid_account_data() {
    assert_clause("data length", |op| {
        [0, 1, 159, 161, 1024]
            .map(|len| {
                let mut data = contract::fixture();
                data.resize(len, 0xAB);
                let input = Input {
                    data,
                    ..Input::valid(op)
                };
                (
                    format!("{len} bytes"),
                    input,
                    Expected::Failure(ProgramError::InvalidAccountData),
                )
            })
            .to_vec()
    });
}

#[test]
fn read_only_account_refuses_writes() {
    assert_clause("read-only account", |op| {
        let input = Input {
            writable: false,
            ..Input::valid(op)
        };
        let expected = match op {
            Operation::ReadOwner => success(op),
            _ => Expected::Failure(ProgramError::Immutable),
        };
        one("read-only", input, expected)
    });
}

#[test]
fn trailing_bytes_and_extra_accounts_are_ignored() {
    assert_clause("ignored input", |op| {
        let trailing = Input {
            instruction_data: vec![op as u8, 0xFF, 0x00, 0x07],
            ..Input::valid(op)
        };
        let extra = Input {
            account_count: 3,
            ..Input::valid(op)
        };
        vec![
            ("trailing bytes".into(), trailing, success(op)),
            ("third account".into(), extra, success(op)),
        ]
    });
}

#[test]
fn first_failing_check_wins() {
    assert_clause("check order", |op| {
        let bad_everything = Input {
            instruction_data: vec![9],
            account_count: 1,
            writable: false,
            data: vec![1; 10],
            owner_key: WRONG_OWNER,
        };
        let bad_op = Input {
            account_count: 2,
            ..bad_everything.clone()
        };
        let bad_len = Input {
            instruction_data: vec![op as u8],
            ..bad_op.clone()
        };
        let read_only_and_wrong_owner = Input {
            data: contract::fixture(),
            ..bad_len.clone()
        };
        let mut cases = vec![
            (
                "everything wrong".into(),
                bad_everything,
                Expected::Failure(ProgramError::NotEnoughAccountKeys),
            ),
            (
                "bad op, length, owner".into(),
                bad_op,
                Expected::Failure(ProgramError::InvalidInstructionData),
            ),
            (
                "bad length and owner".into(),
                bad_len,
                Expected::Failure(ProgramError::InvalidAccountData),
            ),
        ];
        if op != Operation::ReadOwner {
            cases.push((
                "read-only, wrong owner".into(),
                read_only_and_wrong_owner,
                Expected::Failure(ProgramError::Immutable),
            ));
        }
        cases
    });
}

#[test]
fn benchmark_is_deterministic() {
    let workspace = Workspace::current();
    let first = bench::measure(&workspace).unwrap_or_else(|e| panic!("{e}"));
    let second = bench::measure(&workspace).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(first.len(), 3 * workspace.programs().unwrap().len());
    assert_eq!(first, second);
}
