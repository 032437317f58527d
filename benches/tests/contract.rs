//! The contract, clause by clause, for every program under programs/ and
//! every operation, through Mollusk: the token family's on pinocchio's
//! entrypoint in each shape and on solana-program's (`exact`). Each clause
//! states the expected outcome explicitly and also checks that the oracle
//! agrees.

use benches::message::{OPERATIONS, SIZES};
use benches::token::{self, Encoding};
use benches::{Case, Expected, Family, Framework, Input, Shape, Workspace, metadata};
use common::token::Operation;
use solana_program_error::ProgramError;

const WRONG_OWNER: [u8; 32] = [0x77; 32];

/// Runs the labelled inputs of each operation and shape on every token
/// program built in that shape, on both entrypoints (solana-program's floor
/// aside: it has no operations); collects every failure so one run shows
/// them all.
fn assert_clause(
    clause: &str,
    inputs: impl Fn(Operation, Shape, Encoding) -> Vec<(String, Input, Expected)>,
) {
    let workspace = Workspace::current();
    let groups = [
        workspace.load(Family::Token),
        workspace.load_framework(Framework::SOLANA_PROGRAM, Family::Token),
    ];
    let mut failures = Vec::new();
    for group in groups {
        let (programs, mollusk) = group.unwrap_or_else(|e| panic!("{e}"));
        for program in programs.iter().filter(|p| p.name != "noop") {
            check_program(clause, &inputs, program, &mollusk, &mut failures);
        }
    }
    assert!(failures.is_empty(), "{clause}:\n{}", failures.join("\n"));
}

fn check_program(
    clause: &str,
    inputs: &impl Fn(Operation, Shape, Encoding) -> Vec<(String, Input, Expected)>,
    program: &benches::Program,
    mollusk: &mollusk_svm::Mollusk,
    failures: &mut Vec<String>,
) {
    {
        for op in Operation::ALL {
            for (label, input, expected) in inputs(op, program.shape, program.encoding) {
                let case = Case::new(program, format!("{} ({label})", op.name()), &input);
                assert_eq!(
                    case.expected,
                    expected,
                    "oracle disagrees: {clause}, {label}, {}",
                    program.label()
                );
                if let Err(error) = case.run(mollusk) {
                    failures.push(error.to_string());
                }
            }
        }
    }
}

/// The fixture with state and amount changed, written out in the raw
/// layout, then in the program's encoding (checked against hand-written
/// bytes in the contract's unit tests): the new encoding at the start, the
/// rest of the account as it was.
fn updated_fixture(encoding: Encoding) -> Vec<u8> {
    let mut raw = token::raw_fixture();
    raw[64..72].copy_from_slice(&1_000_000_000u64.to_le_bytes());
    raw[104] = 255;
    let mut data = encoding.fixture();
    let encoded = encoding.encode(&raw);
    data[..encoded.len()].copy_from_slice(&encoded);
    data
}

/// The bytes a valid call leaves.
fn success(op: Operation, encoding: Encoding) -> Expected {
    Expected::Success(match op {
        Operation::ReadOwner => encoding.fixture(),
        Operation::Full | Operation::UpdateAmount => updated_fixture(encoding),
    })
}

fn one(label: &str, input: Input, expected: Expected) -> Vec<(String, Input, Expected)> {
    vec![(label.to_string(), input, expected)]
}

#[test]
fn valid_call_leaves_exact_bytes() {
    assert_clause("valid call", |op, _, encoding| {
        one("valid", Input::valid(op, encoding), success(op, encoding))
    });
}

#[test]
fn wrong_owner_is_incorrect_authority_where_checked() {
    assert_clause("wrong owner", |op, _, encoding| {
        let input = Input {
            owner_key: WRONG_OWNER,
            ..Input::valid(op, encoding)
        };
        let expected = match op {
            Operation::UpdateAmount => success(op, encoding),
            _ => Expected::Failure(ProgramError::IncorrectAuthority),
        };
        one("wrong owner", input, expected)
    });
}

#[test]
fn fewer_than_two_accounts_is_not_enough_account_keys() {
    assert_clause("account count", |op, _, encoding| {
        (0..2)
            .map(|count| {
                let input = Input {
                    account_count: count,
                    ..Input::valid(op, encoding)
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
    assert_clause("op byte", |op, _, encoding| {
        // One pass per operation would repeat these; run them once.
        if op != Operation::Full {
            return Vec::new();
        }
        std::iter::once(Vec::new())
            .chain((3..=255u8).map(|byte| vec![byte]))
            .map(|data| {
                let input = Input {
                    instruction_data: data.clone(),
                    ..Input::valid(op, encoding)
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
fn short_data_is_invalid_account_data_in_every_shape() {
    assert_clause("short data", |op, _, encoding| {
        [0, 1, encoding.fixture_encoded_len() - 1]
            .map(|len| {
                let mut data = encoding.fixture();
                data.truncate(len);
                let input = Input {
                    data,
                    ..Input::valid(op, encoding)
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

/// `exact` refuses longer data; `at_least` and `unchecked` work on the
/// account's first bytes (160, or the encoding's account length) and leave
/// the tail as it was.
#[test]
fn longer_data_is_refused_only_by_exact() {
    assert_clause("longer data", |op, shape, encoding| {
        [1, 40, 864]
            .map(|extra| {
                let tail: Vec<u8> = (0..extra).map(|i| (i * 7 + 3) as u8).collect();
                let mut data = encoding.fixture();
                let len = data.len() + extra;
                data.extend(&tail);
                let expected = match (shape, success(op, encoding)) {
                    (Shape::Exact, _) => Expected::Failure(ProgramError::InvalidAccountData),
                    (_, Expected::Success(mut head)) => {
                        head.extend(&tail);
                        Expected::Success(head)
                    }
                    (_, failure) => failure,
                };
                let input = Input {
                    data,
                    ..Input::valid(op, encoding)
                };
                (format!("{len} bytes"), input, expected)
            })
            .to_vec()
    });
}

#[test]
fn read_only_account_refuses_writes() {
    assert_clause("read-only account", |op, _, encoding| {
        let input = Input {
            writable: false,
            ..Input::valid(op, encoding)
        };
        let expected = match op {
            Operation::ReadOwner => success(op, encoding),
            _ => Expected::Failure(ProgramError::Immutable),
        };
        one("read-only", input, expected)
    });
}

#[test]
fn trailing_bytes_and_extra_accounts_are_ignored() {
    assert_clause("ignored input", |op, _, encoding| {
        let trailing = Input {
            instruction_data: vec![op as u8, 0xFF, 0x00, 0x07],
            ..Input::valid(op, encoding)
        };
        let extra = Input {
            account_count: 3,
            ..Input::valid(op, encoding)
        };
        vec![
            ("trailing bytes".into(), trailing, success(op, encoding)),
            ("third account".into(), extra, success(op, encoding)),
        ]
    });
}

#[test]
fn first_failing_check_wins() {
    assert_clause("check order", |op, shape, encoding| {
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
            data: encoding.fixture(),
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
                bad_len.clone(),
                Expected::Failure(ProgramError::InvalidAccountData),
            ),
        ];
        // `unchecked` finds the length out after the writable check.
        if shape == Shape::Unchecked && op != Operation::ReadOwner {
            cases[2] = (
                "read-only, bad length and owner".into(),
                bad_len,
                Expected::Failure(ProgramError::Immutable),
            );
        }
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
    let first = crate::measure(&workspace);
    let second = crate::measure(&workspace);
    let rows: usize = workspace
        .programs()
        .unwrap()
        .iter()
        .map(|p| match p.family {
            Family::Token => Operation::ALL.len(),
            Family::Message => OPERATIONS.len() * SIZES.len(),
            Family::Metadata => metadata::OPERATIONS.len() * metadata::INSTANCES.len(),
        })
        .sum();
    assert_eq!(first.len(), rows);
    assert_eq!(first, second);
}
