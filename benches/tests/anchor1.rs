//! The Anchor 1.x programs (programs/anchor1/) against Anchor 1.x's
//! contract (benches/src/frameworks/anchor1/): the exact bytes after each
//! write, each error on an input made for it with every account unchanged,
//! `LazyAccount<T>`'s panic on a short account, and random or hostile
//! input, never a fault, never a change before a failure.

use benches::{
    Case, Family, Framework, Input, Program, Workspace,
    frameworks::{
        anchor1::{
            CONSTRAINT_HAS_ONE, CONSTRAINT_MUT, DID_NOT_DESERIALIZE, DISCRIMINATOR_MISMATCH,
            DISCRIMINATOR_NOT_FOUND, EVENT_INSTRUCTION_STUB, FALLBACK_NOT_FOUND, NOT_ENOUGH_KEYS,
            OWNED_BY_WRONG_PROGRAM,
            calls::{self, CONSTRAINT_ADDRESS, CONSTRAINT_SIGNER, Call, DID_NOT_DESERIALIZE_ARGS},
            token::{self, AccountType, LAZY_ACCOUNT_PANICS},
        },
        anchor2::calls::EVENT_IX_TAG,
    },
    hostile::{self, LoggedMollusk, Outcome},
    token::fixture,
    token::record::Encoding,
};
use common::token::{NEW_AMOUNT, NEW_STATE, Operation};
use mollusk_svm::Mollusk;
use proptest::{collection::vec, prelude::*};
use solana_program_error::ProgramError;
use solana_pubkey::Pubkey;

const WRONG_KEY: [u8; 32] = [0x77; 32];
const RECORDS: [&str; 3] = [
    "token/account",
    "token/account_loader",
    "token/lazy_account",
];

fn load() -> (Vec<Program>, Mollusk) {
    Workspace::current()
        .load_framework(Framework::Anchor1, Family::Token)
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Runs `input` as `label`, once the oracle is known to give `want`: the
/// program must give it too, with every account unchanged on an error. An
/// oracle's [`LAZY_ACCOUNT_PANICS`] must be an abort of the program (its
/// log's "failed" line), with nothing changed.
fn assert_outcome(
    mollusk: &LoggedMollusk,
    program: &Program,
    label: &str,
    input: &Input,
    want: Result<Vec<u8>, ProgramError>,
) -> Result<(), String> {
    let case = Case::expecting(program, label, input, want.clone())?;
    let (result, outcome) = mollusk.run(&case);
    if want == Err(LAZY_ACCOUNT_PANICS) {
        return match outcome {
            Outcome::Fault(line) if is_abort(&line) => Ok(()),
            other => Err(format!(
                "{}: {label}: want an abort, got {other:?}",
                program.label()
            )),
        };
    }
    case.check(&result).map_err(|e| e.to_string())
}

/// A program's own abort, as the runtime logs it: under
/// `panic=immediate-abort` a panic calls the `abort` syscall, which the
/// runtime reports as "SBF program panicked" (not an access violation).
fn is_abort(failed_line: &str) -> bool {
    failed_line.ends_with("failed: SBF program panicked")
}

/// `full` and `update_amount` write exactly `state` (8 + 104) and `amount`
/// (8 + 64..72); `read_owner` nothing; written out by hand, for every
/// account type.
#[test]
fn writes_exactly_state_and_amount() {
    let (programs, mollusk) = load();
    let mollusk = LoggedMollusk::new(mollusk);
    let before = token::account(&fixture());
    let mut after = before.clone();
    after[8 + 64..8 + 72].copy_from_slice(&NEW_AMOUNT.to_le_bytes());
    after[8 + 104] = NEW_STATE;
    let mut failures = Vec::new();
    for name in RECORDS {
        let program = programs.iter().find(|p| p.name == name).unwrap();
        for op in Operation::ALL {
            let want = if op.writes() {
                after.clone()
            } else {
                before.clone()
            };
            let input = token::valid_input(op);
            assert_eq!(input.data, before);
            if let Err(e) = assert_outcome(&mollusk, program, op.name(), &input, Ok(want)) {
                failures.push(e);
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Each of Anchor 1.x's refusals on an input made for it, per account
/// type, and what it accepts (a longer account; another owner where none
/// is checked).
#[test]
fn errors_are_anchors_and_change_nothing() {
    let (programs, mollusk) = load();
    let mollusk = LoggedMollusk::new(mollusk);
    let mut failures = Vec::new();
    for name in RECORDS {
        let program = programs.iter().find(|p| p.name == name).unwrap();
        let account_type = AccountType::of(program);
        for op in Operation::ALL {
            let valid = token::valid_input(op);
            let written = token::expected(account_type, &valid).unwrap();
            let mut longer = written.clone();
            longer.push(0x42);
            // A record one byte short: `Account<T>` does not decode it;
            // `AccountLoader<T>` refuses to cast it once the constraints
            // ran; `LazyAccount<T>` reads `owner` from it, but a write
            // loads every field to encode it back and panics.
            let short = match (account_type, op.writes()) {
                (AccountType::LazyAccount, true) => Err(LAZY_ACCOUNT_PANICS),
                (AccountType::LazyAccount, false) => Ok(valid.data[..167].to_vec()),
                _ => Err(DID_NOT_DESERIALIZE),
            };
            let mut cases = vec![
                (
                    "no instruction data",
                    valid.with(|i| i.instruction_data.clear()),
                    Err(FALLBACK_NOT_FOUND),
                ),
                (
                    "another discriminator",
                    valid.with(|i| i.instruction_data[0] ^= 1),
                    Err(FALLBACK_NOT_FOUND),
                ),
                (
                    "Anchor's event tag",
                    valid.with(|i| i.instruction_data = EVENT_IX_TAG.to_vec()),
                    Err(EVENT_INSTRUCTION_STUB),
                ),
                (
                    "no accounts",
                    valid.with(|i| i.account_count = 0),
                    Err(NOT_ENOUGH_KEYS),
                ),
                (
                    "one account",
                    valid.with(|i| i.account_count = 1),
                    Err(NOT_ENOUGH_KEYS),
                ),
                (
                    "7 bytes of data",
                    valid.with(|i| i.data.truncate(7)),
                    Err(DISCRIMINATOR_NOT_FOUND),
                ),
                (
                    "another account discriminator",
                    valid.with(|i| i.data[0] ^= 1),
                    Err(DISCRIMINATOR_MISMATCH),
                ),
                (
                    "a record one byte short",
                    valid.with(|i| i.data.truncate(167)),
                    short,
                ),
                (
                    "a longer account",
                    valid.with(|i| i.data.push(0x42)),
                    Ok(if op.writes() {
                        longer.clone()
                    } else {
                        [&valid.data[..], &[0x42]].concat()
                    }),
                ),
            ];
            cases.push(if op.writes() {
                (
                    "account [0] read-only",
                    valid.with(|i| i.writable = false),
                    Err(CONSTRAINT_MUT),
                )
            } else {
                (
                    "account [0] read-only",
                    valid.with(|i| i.writable = false),
                    Ok(valid.data.clone()),
                )
            });
            cases.push(if op == Operation::UpdateAmount {
                (
                    "another owner key (not checked)",
                    valid.with(|i| i.owner_key = WRONG_KEY),
                    Ok(written.clone()),
                )
            } else {
                (
                    "another owner key",
                    valid.with(|i| i.owner_key = WRONG_KEY),
                    Err(CONSTRAINT_HAS_ONE),
                )
            });
            if account_type == AccountType::LazyAccount && !op.writes() {
                cases.push((
                    "the data ending inside `owner`",
                    valid.with(|i| i.data.truncate(8 + 63)),
                    Err(LAZY_ACCOUNT_PANICS),
                ));
            }
            for (label, input, want) in cases {
                let label = format!("{} ({label})", op.name());
                if let Err(e) = assert_outcome(&mollusk, program, &label, &input, want) {
                    failures.push(e);
                }
            }
            // An account another program owns: Anchor's owner check
            // (after the discriminator in `LazyAccount<T>`, before it in
            // the others; the discriminator is right here).
            let mut case =
                Case::with_outcome(program, op.name(), &valid, Err(OWNED_BY_WRONG_PROGRAM));
            case.accounts[0].1.owner = Pubkey::new_from_array([0x55; 32]);
            if let Err(e) = case.run(&mollusk.mollusk) {
                failures.push(format!(
                    "{name} {} (account owned by another program): {e}",
                    op.name()
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// 1,000 random and hostile inputs per program (the floor too): the
/// discriminators and Anchor's event tag, the account count, the writable
/// flag, the owner, and records behind the discriminator, damaged by the
/// hostile generator or not. `LazyAccount<T>`'s panics on short accounts
/// are the oracle's, and must be aborts, never faults.
#[test]
fn hostile_input_meets_the_contract() {
    let (programs, mollusk) = load();
    let mollusk = LoggedMollusk::new(mollusk);
    let tags: Vec<Vec<u8>> = Operation::ALL
        .iter()
        .map(|op| token::valid_input(*op).instruction_data)
        .chain([EVENT_IX_TAG.to_vec()])
        .collect();
    let tag = proptest::sample::select(tags);
    let instruction_data = prop_oneof![
        8 => (tag, vec(any::<u8>(), 0..3)).prop_map(|(t, rest)| [t, rest].concat()),
        1 => vec(any::<u8>(), 0..12),
    ];
    let raw = (
        any::<[u8; 160]>(),
        prop_oneof![3 => Just(Vec::new()), 1 => vec(any::<u8>(), 1..24)],
    )
        .prop_map(|(raw, tail)| [token::account(&raw), tail].concat());
    let damaged = (any::<[u8; 160]>(), hostile::mutation())
        .prop_map(|(raw, mutation)| mutation.apply(&token::account(&raw)));
    let data = prop_oneof![3 => raw, 3 => damaged, 1 => vec(any::<u8>(), 0..200)];
    for program in programs.iter().filter(|p| !calls::holds_calls(p)) {
        let strategy = (
            instruction_data.clone(),
            data.clone(),
            prop_oneof![1 => 0..=1usize, 6 => 2..=3usize],
            prop::bool::weighted(0.8),
            prop::bool::weighted(0.7),
        );
        hostile::run_cases(
            &program.label(),
            1_000,
            strategy,
            |(instruction_data, data, account_count, writable, right_owner)| {
                let owner_key = match data.get(8 + 32..8 + 64) {
                    Some(owner) if right_owner => owner.try_into().expect("32 bytes"),
                    _ => WRONG_KEY,
                };
                let input = Input {
                    instruction_data,
                    account_count,
                    writable,
                    data,
                    owner_key,
                };
                let want = benches::families::expected(program, &input);
                if want == Err(LAZY_ACCOUNT_PANICS) {
                    assert_outcome(&mollusk, program, "hostile input", &input, want)?;
                    return Ok("abort (LazyAccount)".into());
                }
                hostile::check_call(&mollusk, program, &input, |after| {
                    let mut again = token::valid_input(Operation::Full);
                    again.data = after.to_vec();
                    again.owner_key = after[8 + 32..8 + 64].try_into().unwrap();
                    again
                })
            },
        );
    }
}

fn calls_program(programs: &[Program]) -> &Program {
    programs
        .iter()
        .find(|p| calls::holds_calls(p))
        .expect("programs/anchor1/token/args_and_events")
}

/// Each handler on the fixture: exactly `close_authority` stored at the
/// start of account [0], the rest as it was, and what it emits (the
/// case's run checks the `Program data:` line or the self-CPI, byte for
/// byte), written out here.
#[test]
fn calls_store_one_field_and_emit_the_record() {
    let (programs, mollusk) = load();
    let program = calls_program(&programs);
    let record = Encoding::Raw.fixture();
    let mut failures = Vec::new();
    for call in Call::ALL {
        let input = calls::valid_input(program, call, &record);
        let mut after = vec![0x77; 48];
        after[..32].copy_from_slice(&record[128..160]);
        let event = [
            &benches::frameworks::anchor2::discriminator("event", "TokenRecord")[..],
            &record,
        ]
        .concat();
        let emits = match call {
            Call::SetRecord => None,
            Call::EmitEvent => Some(benches::Emitted::Log(event)),
            Call::EmitCpi => Some(benches::Emitted::SelfCpi(
                [&EVENT_IX_TAG[..], &event].concat(),
            )),
        };
        assert_eq!(calls::emitted(program, &input), emits, "{}", call.name());
        let case = calls::case(program, call.name(), &input);
        assert_eq!(case.expected, benches::Expected::Success(after));
        if let Err(e) = case.run(&mollusk) {
            failures.push(e.to_string());
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Each of the handlers' refusals on an input made for it, every account
/// unchanged, and what they accept (bytes after the argument).
#[test]
fn calls_refuse_as_anchor_1x_does() {
    let (programs, mollusk) = load();
    let mollusk = LoggedMollusk::new(mollusk);
    let program = calls_program(&programs);
    let record = Encoding::Raw.fixture();
    let mut failures = Vec::new();
    for call in Call::ALL {
        let valid = calls::valid_input(program, call, &record);
        let stored = calls::expected(program, &valid).unwrap();
        let mut cases = vec![
            (
                "no instruction data",
                valid.with(|i| i.instruction_data.clear()),
                Err(FALLBACK_NOT_FOUND),
            ),
            (
                "Anchor's event tag, unsigned",
                valid.with(|i| i.instruction_data = EVENT_IX_TAG.to_vec()),
                Err(CONSTRAINT_SIGNER),
            ),
            (
                "Anchor's event tag, no accounts",
                valid.with(|i| {
                    i.instruction_data = EVENT_IX_TAG.to_vec();
                    i.account_count = 0;
                }),
                Err(ProgramError::NotEnoughAccountKeys),
            ),
            (
                "an argument one byte short",
                valid.with(|i| {
                    i.instruction_data.pop();
                }),
                Err(DID_NOT_DESERIALIZE_ARGS),
            ),
            (
                "an argument one byte short, no accounts",
                valid.with(|i| {
                    i.instruction_data.pop();
                    i.account_count = 0;
                }),
                Err(DID_NOT_DESERIALIZE_ARGS),
            ),
            (
                "bytes after the argument",
                valid.with(|i| i.instruction_data.push(1)),
                Ok(stored.clone()),
            ),
            (
                "no accounts",
                valid.with(|i| i.account_count = 0),
                Err(NOT_ENOUGH_KEYS),
            ),
            (
                "account [0] read-only",
                valid.with(|i| i.writable = false),
                Err(CONSTRAINT_MUT),
            ),
            (
                "account [0] 31 bytes",
                valid.with(|i| i.data.truncate(31)),
                Err(ProgramError::AccountDataTooSmall),
            ),
        ];
        if call == Call::EmitCpi {
            cases.push((
                "two accounts",
                valid.with(|i| i.account_count = 2),
                Err(NOT_ENOUGH_KEYS),
            ));
            cases.push((
                "another event authority",
                valid.with(|i| i.owner_key = WRONG_KEY),
                Err(CONSTRAINT_ADDRESS),
            ));
        }
        for (label, input, want) in cases {
            let label = format!("{} ({label})", call.name());
            let result = Case::expecting(program, &label, &input, want).and_then(|_| {
                let case = calls::case(program, &label, &input);
                let (result, outcome) = mollusk.run(&case);
                if let Outcome::Fault(m) | Outcome::ChangedBeforeFailure(m) = outcome {
                    return Err(format!("{label}: {m}"));
                }
                case.check(&result).map_err(|e| e.to_string())
            });
            if let Err(e) = result {
                failures.push(e);
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// 1,000 random and hostile calls of the handlers: each discriminator or
/// Anchor's event tag with a record cut or extended at random, 0 to 3
/// accounts, either writable flag, the event authority or another key,
/// account [0] of 0 to 64 bytes.
#[test]
fn calls_hostile_input_meets_the_contract() {
    let (programs, mollusk) = load();
    let mollusk = LoggedMollusk::new(mollusk);
    let program = calls_program(&programs);
    let tags: Vec<Vec<u8>> = Call::ALL
        .iter()
        .map(|call| calls::valid_input(program, *call, &[]).instruction_data)
        .chain([EVENT_IX_TAG.to_vec()])
        .collect();
    let instruction_data = prop_oneof![
        8 => (proptest::sample::select(tags), vec(any::<u8>(), 150..=170))
            .prop_map(|(tag, args)| [tag, args].concat()),
        1 => vec(any::<u8>(), 0..12),
    ];
    let authority = calls::valid_input(program, Call::EmitCpi, &[]).owner_key;
    let strategy = (
        instruction_data,
        vec(any::<u8>(), 0..64),
        0..=3usize,
        prop::bool::weighted(0.8),
        prop::bool::weighted(0.8),
    );
    hostile::run_cases(
        &program.label(),
        1_000,
        strategy,
        |(instruction_data, data, account_count, writable, right_authority)| {
            let input = Input {
                instruction_data,
                account_count,
                writable,
                data,
                owner_key: if right_authority {
                    authority
                } else {
                    WRONG_KEY
                },
            };
            let case = calls::case(program, "hostile input", &input);
            let (result, outcome) = mollusk.run(&case);
            if let Outcome::Fault(m) | Outcome::ChangedBeforeFailure(m) = &outcome {
                return Err(m.clone());
            }
            case.check(&result).map_err(|e| e.to_string())?;
            case.check_emitted(&result, &mollusk.messages())
                .map_err(|e| e.to_string())?;
            Ok(outcome.name())
        },
    );
}
