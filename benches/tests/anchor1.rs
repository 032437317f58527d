//! The Anchor 1.x programs (programs/anchor1/) against Anchor 1.x's
//! contract (benches/src/frameworks/anchor1/): the exact bytes after each
//! write, each error on an input made for it with every account unchanged,
//! `LazyAccount<T>`'s panic on a short account, and random or hostile
//! input, never a fault, never a change before a failure; the same for the
//! arguments-and-events handlers and the metadata record.

use benches::{
    Case, Expected, Family, Input, Program, Workspace,
    frameworks::{
        anchor1::metadata as anchor_metadata,
        anchor1::{
            ABORTS, CONSTRAINT_HAS_ONE, CONSTRAINT_MUT, DID_NOT_DESERIALIZE,
            DISCRIMINATOR_MISMATCH, DISCRIMINATOR_NOT_FOUND, EVENT_INSTRUCTION_STUB,
            FALLBACK_NOT_FOUND, MAY_ABORT, NOT_ENOUGH_KEYS, OWNED_BY_WRONG_PROGRAM,
            calls::{
                self, CONSTRAINT_ADDRESS, CONSTRAINT_SIGNER, DID_NOT_DESERIALIZE_ARGS, Handler,
            },
            token::{self, AccountType},
        },
        anchor2::calls::EVENT_IX_TAG,
    },
    hostile,
    metadata::{INSTANCES, OPERATIONS, instance},
    token::fixture,
    token::record::Encoding,
    vm::{LoggedMollusk, Outcome},
};
use borsh::BorshDeserialize;
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
        .load_framework(
            benches::frameworks::anchor1::ORACLE.framework(),
            Family::Token,
        )
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Runs `input` as `label`, once the oracle is known to give `want`: the
/// program must give it too, with every account unchanged on an error. An
/// oracle's [`ABORTS`] must be an abort of the program (its log's "failed"
/// line), with nothing changed; its [`MAY_ABORT`] an abort or the decode's
/// error.
fn assert_outcome(
    mollusk: &LoggedMollusk,
    program: &Program,
    label: &str,
    input: &Input,
    want: Result<Vec<u8>, ProgramError>,
) -> Result<(), String> {
    let case = Case::expecting(program, label, input, want.clone())?;
    let (result, outcome) = mollusk.run(&case);
    match (&want, outcome) {
        (Err(ABORTS) | Err(MAY_ABORT), Outcome::Fault(line)) if is_abort(&line) => Ok(()),
        (Err(MAY_ABORT), Outcome::Error(e))
            if [DID_NOT_DESERIALIZE, DID_NOT_DESERIALIZE_ARGS].contains(&e) =>
        {
            Ok(())
        }
        (Err(ABORTS) | Err(MAY_ABORT), other) => Err(format!(
            "{}: {label}: want an abort, got {other:?}",
            program.label()
        )),
        _ => case.check(&result).map_err(|e| e.to_string()),
    }
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
                (AccountType::LazyAccount, true) => Err(ABORTS),
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
                    Err(ABORTS),
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
                if want == Err(ABORTS) {
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

/// Each family's arguments-and-events program, its Mollusk, and the
/// records its benchmark calls take (their borsh encodings): the token
/// fixture, the metadata instances.
fn calls_programs() -> Vec<(Program, Mollusk, Vec<Vec<u8>>)> {
    [Family::Token, Family::Metadata]
        .into_iter()
        .map(|family| {
            let (programs, mollusk) = Workspace::current()
                .load_framework(benches::frameworks::anchor1::ORACLE.framework(), family)
                .unwrap_or_else(|e| panic!("{e}"));
            let program = programs
                .into_iter()
                .find(calls::holds_calls)
                .expect("programs/anchor1/<family>/args_and_events");
            let records = match family {
                Family::Token => vec![Encoding::Raw.fixture()],
                _ => INSTANCES
                    .iter()
                    .map(|name| borsh::to_vec(&instance(name)).unwrap())
                    .collect(),
            };
            (program, mollusk, records)
        })
        .collect()
}

/// The field a handler stores, and the event type, written out here: the
/// token record's `close_authority` (its last 32 bytes), the metadata
/// record's `seller_fee_basis_points`.
fn stored_and_event(program: &Program, record: &[u8]) -> (Vec<u8>, &'static str) {
    match program.family {
        Family::Token => (record[128..160].to_vec(), "TokenRecord"),
        _ => {
            let metadata = common::metadata::Metadata::try_from_slice(record).unwrap();
            (
                metadata.seller_fee_basis_points.to_le_bytes().to_vec(),
                "Metadata",
            )
        }
    }
}

/// Each handler on each record: exactly the stored field at the start of
/// account [0], the rest as it was, and what it emits (the case's run
/// checks the `Program data:` line or the self-CPI, byte for byte),
/// written out here.
#[test]
fn calls_store_one_field_and_emit_the_record() {
    let mut failures = Vec::new();
    for (program, mollusk, records) in calls_programs() {
        for record in &records {
            let (stored, event_type) = stored_and_event(&program, record);
            for call in Handler::ALL {
                let input = calls::valid_input(&program, call, record);
                let mut after = vec![0x77; 48];
                after[..stored.len()].copy_from_slice(&stored);
                let event = [
                    &benches::frameworks::anchor2::discriminator("event", event_type)[..],
                    record,
                ]
                .concat();
                let emits = match call {
                    Handler::SetRecord => None,
                    Handler::EmitEvent => Some(benches::Emitted::Log(event)),
                    Handler::EmitCpi => Some(benches::Emitted::SelfCpi(
                        [&EVENT_IX_TAG[..], &event].concat(),
                    )),
                };
                assert_eq!(calls::emitted(&program, &input), emits, "{}", call.name());
                let case = calls::case(&program, call.name(), &input);
                assert_eq!(case.expected, Expected::Success(after));
                if let Err(e) = case.run(&mollusk) {
                    failures.push(e.to_string());
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Each of the handlers' refusals on an input made for it, every account
/// unchanged, and what they accept (bytes after the argument).
#[test]
fn calls_refuse_as_anchor_1x_does() {
    let mut failures = Vec::new();
    for (program, mollusk, records) in calls_programs() {
        let mollusk = LoggedMollusk::new(mollusk);
        let program = &program;
        let record = &records[0];
        for call in Handler::ALL {
            let valid = calls::valid_input(program, call, record);
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
                    "account [0] one byte short of the field",
                    valid.with(|i| {
                        i.data
                            .truncate(stored_and_event(program, record).0.len() - 1)
                    }),
                    Err(ProgramError::AccountDataTooSmall),
                ),
            ];
            if call == Handler::EmitCpi {
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
            if program.family == Family::Metadata {
                // The name's length claiming 64 KiB: borsh's preallocation
                // does not fit the heap, and the program aborts.
                cases.push((
                    "a name claiming 64 KiB",
                    valid.with(|i| {
                        i.instruction_data[8 + 65..8 + 69]
                            .copy_from_slice(&(64u32 << 10).to_le_bytes());
                    }),
                    Err(ABORTS),
                ));
            }
            for (label, input, want) in cases {
                let label = format!("{} {} ({label})", program.label(), call.name());
                let result =
                    Case::expecting(program, &label, &input, want.clone()).and_then(|_| {
                        if want == Err(ABORTS) {
                            return assert_outcome(&mollusk, program, &label, &input, want);
                        }
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
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// 1,000 random and hostile calls of each program's handlers: each
/// discriminator or Anchor's event tag with a record damaged by the
/// hostile generator, cut or extended, 0 to 3 accounts, either writable
/// flag, the event authority or another key, account [0] of 0 to 64 bytes.
#[test]
fn calls_hostile_input_meets_the_contract() {
    for (program, mollusk, records) in calls_programs() {
        let mollusk = LoggedMollusk::new(mollusk);
        let program = &program;
        let tags: Vec<Vec<u8>> = Handler::ALL
            .iter()
            .map(|call| calls::valid_input(program, *call, &[]).instruction_data)
            .chain([EVENT_IX_TAG.to_vec()])
            .collect();
        let args = (
            proptest::sample::select(records),
            prop_oneof![2 => hostile::mutation().prop_map(Some), 1 => Just(None)],
            vec(any::<u8>(), 0..8),
        )
            .prop_map(|(record, mutation, tail)| {
                let record = mutation.map_or(record.clone(), |m| m.apply(&record));
                [record, tail].concat()
            });
        let instruction_data = prop_oneof![
            8 => (proptest::sample::select(tags), args).prop_map(|(tag, args)| [tag, args].concat()),
            1 => vec(any::<u8>(), 0..12),
        ];
        let authority = calls::valid_input(program, Handler::EmitCpi, &[]).owner_key;
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
                let want = calls::expected(program, &input);
                if matches!(want, Err(ABORTS) | Err(MAY_ABORT)) {
                    assert_outcome(&mollusk, program, "hostile input", &input, want)?;
                    return Ok("abort (as the oracle says)".into());
                }
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
}

fn load_metadata() -> (Program, LoggedMollusk) {
    load_metadata_program("metadata/account")
}

fn load_metadata_program(name: &str) -> (Program, LoggedMollusk) {
    let (mut programs, mollusk) = Workspace::current()
        .load_framework(
            benches::frameworks::anchor1::ORACLE.framework(),
            Family::Metadata,
        )
        .unwrap_or_else(|e| panic!("{e}"));
    let program = programs
        .iter()
        .position(|p| p.name == name)
        .map(|at| programs.swap_remove(at))
        .unwrap_or_else(|| panic!("programs/anchor1/{name}"));
    (program, LoggedMollusk::new(mollusk))
}

/// The metadata record's writes, written out here: `full` sets
/// `primary_sale_happened` (a byte after the strings and creators), and
/// nothing else; `set_uri` on the `full` instance (a uri at the bound, so
/// 17 bytes shorter) leaves the bytes its shorter record frees as they
/// were, where the family's programs zero them.
#[test]
fn metadata_writes_leave_the_bytes_anchor_1x_writes() {
    let (program, mollusk) = load_metadata();
    let mut failures = Vec::new();
    for name in INSTANCES {
        let record = instance(name);
        let input = anchor_metadata::valid_input("full", &record);
        let mut changed = record.clone();
        changed.primary_sale_happened = true;
        let mut want = input.data.clone();
        let encoded = borsh::to_vec(&changed).unwrap();
        want[8..8 + encoded.len()].copy_from_slice(&encoded);
        let diff: Vec<usize> = (0..want.len())
            .filter(|&i| want[i] != input.data[i])
            .collect();
        assert!(
            record.primary_sale_happened || diff.len() == 1,
            "{name}: {diff:?}"
        );
        if let Err(e) = assert_outcome(
            &mollusk,
            &program,
            &format!("full on {name}"),
            &input,
            Ok(want),
        ) {
            failures.push(e);
        }
    }
    let record = instance("full");
    let input = anchor_metadata::valid_input("set_uri", &record);
    let old_len = 8 + borsh::to_vec(&record).unwrap().len();
    let mut changed = record.clone();
    changed.uri = benches::metadata::new_uri(&record);
    assert!(changed.uri.len() < record.uri.len());
    let encoded = borsh::to_vec(&changed).unwrap();
    let mut want = input.data.clone();
    want[8..8 + encoded.len()].copy_from_slice(&encoded);
    assert_eq!(
        want[8 + encoded.len()..old_len],
        input.data[8 + encoded.len()..old_len]
    );
    if let Err(e) = assert_outcome(&mollusk, &program, "set_uri on full", &input, Ok(want)) {
        failures.push(e);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Each of Anchor 1.x's refusals on the metadata record, on an input made
/// for it, every account unchanged.
#[test]
fn metadata_errors_are_anchors_and_change_nothing() {
    let (program, mollusk) = load_metadata();
    let record = instance("typical");
    let mut failures = Vec::new();
    for op in OPERATIONS {
        let valid = anchor_metadata::valid_input(op, &record);
        let writes = matches!(op, "full" | "verify_creator" | "set_uri");
        let checks_authority = matches!(op, "full" | "set_uri");
        let mut cases = vec![
            (
                "no instruction data",
                valid.with(|i| i.instruction_data.clear()),
                Err(FALLBACK_NOT_FOUND),
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
                valid.with(|i| i.data[1] ^= 1),
                Err(DISCRIMINATOR_MISMATCH),
            ),
            (
                "the record's key tag out of range",
                valid.with(|i| i.data[8] = 9),
                Err(DID_NOT_DESERIALIZE),
            ),
            (
                "the record cut inside its name",
                valid.with(|i| i.data.truncate(8 + 1 + 64 + 4 + 2)),
                Err(DID_NOT_DESERIALIZE),
            ),
        ];
        if writes {
            cases.push((
                "account [0] read-only",
                valid.with(|i| i.writable = false),
                Err(CONSTRAINT_MUT),
            ));
        }
        if checks_authority {
            cases.push((
                "another update authority",
                valid.with(|i| i.owner_key = WRONG_KEY),
                Err(CONSTRAINT_HAS_ONE),
            ));
        }
        match op {
            "read_royalty" => {
                cases.push((
                    "an argument one byte short",
                    valid.with(|i| {
                        i.instruction_data.pop();
                        i.account_count = 0;
                    }),
                    Err(DID_NOT_DESERIALIZE_ARGS),
                ));
                cases.push((
                    "another royalty",
                    valid.with(|i| i.instruction_data[8] ^= 1),
                    Err(ProgramError::InvalidArgument),
                ));
            }
            "set_uri" => {
                cases.push((
                    "a uri that is not UTF-8",
                    valid.with(|i| {
                        let last = i.instruction_data.len() - 1;
                        i.instruction_data[last] = 0xff;
                    }),
                    Err(DID_NOT_DESERIALIZE_ARGS),
                ));
                let long = "u".repeat(201);
                cases.push((
                    "a uri past the bound",
                    valid.with(|i| {
                        i.instruction_data = [
                            &i.instruction_data[..8],
                            &(long.len() as u32).to_le_bytes()[..],
                            long.as_bytes(),
                        ]
                        .concat();
                    }),
                    Err(ProgramError::InvalidArgument),
                ));
            }
            "verify_creator" => cases.push((
                "a key that is no creator",
                valid.with(|i| i.owner_key = WRONG_KEY),
                Err(ProgramError::InvalidArgument),
            )),
            _ => {}
        }
        for (label, input, want) in cases {
            let label = format!("{op} ({label})");
            if let Err(e) = assert_outcome(&mollusk, &program, &label, &input, want) {
                failures.push(e);
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A longer uri on an account cut at the end of its record: Anchor 1.x's
/// write-back on exit would not fit (and writes as it goes), so the
/// program refuses it first, with nothing written, seen inside the VM.
#[test]
fn metadata_set_uri_that_does_not_fit_changes_nothing_inside_the_vm() {
    let (program, mollusk) = load_metadata();
    for name in INSTANCES {
        let record = instance(name);
        if record.uri.len() == common::metadata::MAX_URI {
            continue;
        }
        let mut input = anchor_metadata::valid_input("set_uri", &record);
        input
            .data
            .truncate(8 + borsh::to_vec(&record).unwrap().len());
        let longer = format!("{}x", record.uri);
        input.instruction_data = [
            &input.instruction_data[..8],
            &(longer.len() as u32).to_le_bytes()[..],
            longer.as_bytes(),
        ]
        .concat();
        let case = Case::new(&program, "set_uri", &input);
        assert_eq!(
            case.expected,
            Expected::Failure(ProgramError::InvalidAccountData),
            "{name}"
        );
        let (result, outcome) = mollusk.run(&case);
        assert!(matches!(outcome, Outcome::Error(_)), "{name}: {outcome:?}");
        case.check(&result)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

/// `LazyAccount<T>` on the metadata record does what `Account<T>` does on
/// every benchmark call (the same bytes after it, or the same refusal),
/// and its own refusals on inputs made for them: a field that does not
/// decode is `BorshIoError` when it is loaded; a size read past the data's
/// end, or an option's tag out of range, aborts; a field after the one an
/// operation loads is never read (`read_royalty` ignores a broken
/// `creators`, `full` does not).
#[test]
fn lazy_metadata_loads_what_it_needs() {
    let (program, mollusk) = load_metadata_program("metadata/lazy_account");
    let record = instance("typical");
    let mut failures = Vec::new();
    for name in INSTANCES {
        for op in OPERATIONS {
            let input = anchor_metadata::valid_input(op, &instance(name));
            let want = anchor_metadata::expected(&input);
            let label = format!("{op} on {name}");
            if let Err(e) = assert_outcome(&mollusk, &program, &label, &input, want) {
                failures.push(e);
            }
        }
    }
    // Byte offsets in `typical`'s account: the discriminator, key, two keys,
    // then name, symbol and uri, each a u32 length and its bytes.
    let name_at = 8 + 1 + 64;
    let royalty_at = name_at + 12 + record.name.len() + record.symbol.len() + record.uri.len();
    let creators_at = royalty_at + 2;
    let primary_sale_at =
        creators_at + 1 + record.creators.as_ref().map_or(0, |c| 4 + 34 * c.len());
    let cases = [
        (
            "read_royalty",
            "the name claiming 64 KiB",
            Box::new(|d: &mut Vec<u8>| {
                d[name_at..name_at + 4].copy_from_slice(&(64u32 << 10).to_le_bytes())
            }) as Box<dyn Fn(&mut Vec<u8>)>,
            Err(ABORTS),
        ),
        (
            "read_royalty",
            "`creators` with tag 5",
            Box::new(move |d: &mut Vec<u8>| d[creators_at] = 5),
            Ok(()),
        ),
        (
            "full",
            "`creators` with tag 5",
            Box::new(move |d: &mut Vec<u8>| d[creators_at] = 5),
            Err(ABORTS),
        ),
        (
            "full",
            "`primary_sale_happened` 2",
            Box::new(move |d: &mut Vec<u8>| d[primary_sale_at] = 2),
            Err(ProgramError::BorshIoError),
        ),
        (
            "set_uri",
            "`is_mutable` 2",
            Box::new(move |d: &mut Vec<u8>| d[primary_sale_at + 1] = 2),
            Err(ProgramError::BorshIoError),
        ),
        (
            "full",
            "7 bytes",
            Box::new(|d: &mut Vec<u8>| d.truncate(7)),
            Err(DISCRIMINATOR_NOT_FOUND),
        ),
    ];
    for (op, label, damage, want) in cases {
        let mut input = anchor_metadata::valid_input(op, &record);
        damage(&mut input.data);
        let want = want.map(|()| input.data.clone());
        if let Err(e) = assert_outcome(&mollusk, &program, &format!("{op} ({label})"), &input, want)
        {
            failures.push(e);
        }
    }
    let valid = anchor_metadata::valid_input("full", &record);
    for (label, input, want) in [
        (
            "another update authority",
            valid.with(|i| i.owner_key = WRONG_KEY),
            Err(CONSTRAINT_HAS_ONE),
        ),
        (
            "account [0] read-only",
            valid.with(|i| i.writable = false),
            Err(CONSTRAINT_MUT),
        ),
    ] {
        if let Err(e) = assert_outcome(&mollusk, &program, &format!("full ({label})"), &input, want)
        {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// 1,000 random and hostile calls on the metadata record: each instance,
/// damaged by the hostile generator or not, each operation's call or
/// random instruction data, 0 to 3 accounts, either writable flag, the
/// right key or another.
#[test]
fn metadata_hostile_input_meets_the_contract() {
    for name in ["metadata/account", "metadata/lazy_account"] {
        metadata_hostile(name);
    }
}

fn metadata_hostile(name: &str) {
    let (program, mollusk) = load_metadata_program(name);
    let records = INSTANCES.map(instance);
    let accounts: Vec<Vec<u8>> = records.iter().map(anchor_metadata::account).collect();
    let strategy = (
        0..records.len(),
        prop_oneof![2 => hostile::mutation().prop_map(Some), 1 => Just(None)],
        0..OPERATIONS.len(),
        prop_oneof![3 => Just(None), 1 => vec(any::<u8>(), 0..48).prop_map(Some)],
        prop_oneof![1 => 0..=1usize, 6 => 2..=3usize],
        prop::bool::weighted(0.85),
        prop::bool::weighted(0.8),
    );
    hostile::run_cases(
        &program.label(),
        1_000,
        strategy,
        |(which, mutation, op, random_data, account_count, writable, right_key)| {
            let record = &records[which];
            let mut input = anchor_metadata::valid_input(OPERATIONS[op], record);
            if let Some(mutation) = mutation {
                let payload = mutation.apply(&accounts[which][8..]);
                input.data = [&accounts[which][..8], &payload].concat();
            }
            if let Some(data) = random_data {
                input.instruction_data.truncate(8);
                input.instruction_data.extend(data);
            }
            input.account_count = account_count;
            input.writable = writable;
            if !right_key {
                input.owner_key = WRONG_KEY;
            }
            let want = benches::families::expected(&program, &input);
            if matches!(want, Err(ABORTS) | Err(MAY_ABORT)) {
                assert_outcome(&mollusk, &program, "hostile input", &input, want)?;
                return Ok("abort (as the oracle says)".into());
            }
            hostile::check_call(&mollusk, &program, &input, |after| {
                let mut again = anchor_metadata::valid_input("full", record);
                again.data = after.to_vec();
                again.owner_key = anchor_metadata::authority_of(after).unwrap_or(WRONG_KEY);
                again
            })
        },
    );
}
