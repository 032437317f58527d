//! The Anchor 2 programs (programs/anchor2/) against Anchor's contract
//! (benches/src/anchor2/): each error on an input made for it, with every
//! account unchanged; the exact bytes after each write; and random or
//! hostile input, never a fault, never a change before a failure.

use benches::{
    Case, Emitted, Expected, Family, Input, Program, Workspace,
    frameworks::anchor2::{
        calls::{self, FOLDER, Handler, holds_calls},
        discriminator, instruction, metadata as anchor_metadata,
        token::{self, AccountType, CONSTRAINT_ADDRESS, CONSTRAINT_MUT},
    },
    hostile,
    metadata::{INSTANCES, OPERATIONS, instance, new_uri},
    token::fixture,
    vm::{LoggedMollusk, Outcome as Seen},
};
use common::token::{NEW_AMOUNT, NEW_STATE, Operation};
use mollusk_svm::Mollusk;
use proptest::{collection::vec, prelude::*};
use solana_program_error::ProgramError;
use solana_pubkey::Pubkey;

const WRONG_KEY: [u8; 32] = [0x77; 32];

/// What a call must produce: account [0]'s data after it, or the error.
type Outcome = Result<Vec<u8>, ProgramError>;

/// The family's programs holding its record in an account (and the
/// floor), with their Mollusk.
fn load(family: Family) -> (Vec<Program>, Mollusk) {
    let (programs, mollusk) = load_all(family);
    let programs = programs.into_iter().filter(|p| !holds_calls(p)).collect();
    (programs, mollusk)
}

/// The family's arguments-and-events program, with its Mollusk.
fn load_calls(family: Family) -> (Program, Mollusk) {
    let (programs, mollusk) = load_all(family);
    let program = programs
        .into_iter()
        .find(holds_calls)
        .unwrap_or_else(|| panic!("no programs/anchor2/{}/{FOLDER}", family.name()));
    (program, mollusk)
}

fn load_all(family: Family) -> (Vec<Program>, Mollusk) {
    Workspace::current()
        .load_framework(benches::frameworks::anchor2::ORACLE.framework(), family)
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Runs `input` as `label`, once the oracle is known to give `want`: the
/// program must give it too, with every account unchanged on an error.
fn assert_outcome(
    mollusk: &Mollusk,
    program: &Program,
    label: &str,
    input: &Input,
    want: Outcome,
) -> Result<(), String> {
    Case::expecting(program, label, input, want)?
        .run(mollusk)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

fn report(failures: Vec<String>) {
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `full` and `update_amount` write exactly `state` (byte 8 + 104) and
/// `amount` (8 + 64..72); `read_owner` writes nothing; written out by hand.
#[test]
fn token_writes_exactly_state_and_amount() {
    let (programs, mollusk) = load(Family::Token);
    let mut before = discriminator("account", "TokenRecord").to_vec();
    before.extend(fixture());
    let mut after = before.clone();
    after[8 + 64..8 + 72].copy_from_slice(&NEW_AMOUNT.to_le_bytes());
    after[8 + 104] = NEW_STATE;
    let mut failures = Vec::new();
    for program in programs.iter().filter(|p| p.name != "noop") {
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
    report(failures);
}

/// Each of Anchor's refusals on an input made for it, in every token
/// program, and what Anchor accepts that the family's `exact` shape does
/// not (a longer account, a wrong owner where none is checked).
#[test]
fn token_errors_are_anchors_and_change_nothing() {
    let (programs, mollusk) = load(Family::Token);
    let mut failures = Vec::new();
    for program in programs.iter().filter(|p| p.name != "noop") {
        let short_record = match AccountType::of(program) {
            AccountType::ZeroCopy => ProgramError::AccountDataTooSmall,
            AccountType::Borsh => ProgramError::InvalidAccountData,
        };
        for op in Operation::ALL {
            let valid = token::valid_input(op);
            let written = token::expected(AccountType::of(program), &valid).unwrap();
            let mut cases: Vec<(&str, Input, Outcome)> = vec![
                (
                    "no instruction data",
                    valid.with(|i| i.instruction_data.clear()),
                    Err(ProgramError::InvalidInstructionData),
                ),
                (
                    "the family's op byte",
                    valid.with(|i| i.instruction_data = vec![op as u8]),
                    Err(ProgramError::InvalidInstructionData),
                ),
                (
                    "an unknown instruction",
                    valid.with(|i| i.instruction_data = instruction("transfer").to_vec()),
                    Err(ProgramError::InvalidInstructionData),
                ),
                (
                    "one account",
                    valid.with(|i| i.account_count = 1),
                    Err(ProgramError::NotEnoughAccountKeys),
                ),
                (
                    "7 bytes of data",
                    valid.with(|i| i.data.truncate(7)),
                    Err(ProgramError::AccountDataTooSmall),
                ),
                (
                    "another type's discriminator",
                    valid.with(|i| {
                        i.data[..8].copy_from_slice(&discriminator("account", "Metadata"))
                    }),
                    Err(ProgramError::InvalidAccountData),
                ),
                (
                    "a record one byte short",
                    valid.with(|i| i.data.truncate(8 + 159)),
                    Err(short_record.clone()),
                ),
            ];
            let longer = valid.with(|i| i.data.extend([0xAB; 16]));
            let mut longer_after = written.clone();
            longer_after.extend([0xAB; 16]);
            cases.push(("a longer account", longer, Ok(longer_after)));
            let read_only = valid.with(|i| i.writable = false);
            cases.push(if op.writes() {
                ("account [0] read-only", read_only, Err(CONSTRAINT_MUT))
            } else {
                ("account [0] read-only", read_only, Ok(valid.data.clone()))
            });
            let wrong_owner = valid.with(|i| i.owner_key = WRONG_KEY);
            cases.push(if op == Operation::UpdateAmount {
                (
                    "another owner key (not checked)",
                    wrong_owner,
                    Ok(written.clone()),
                )
            } else {
                ("another owner key", wrong_owner, Err(CONSTRAINT_ADDRESS))
            });
            for (label, input, want) in cases {
                if let Err(e) = assert_outcome(
                    &mollusk,
                    program,
                    &format!("{} ({label})", op.name()),
                    &input,
                    want,
                ) {
                    failures.push(e);
                }
            }
            // An account another program owns: Anchor's owner check.
            let mut case =
                Case::with_outcome(program, op.name(), &valid, Err(ProgramError::IllegalOwner));
            case.accounts[0].1.owner = Pubkey::new_from_array([0x55; 32]);
            if let Err(e) = case.run(&mollusk) {
                failures.push(format!(
                    "{} (account owned by another program): {e}",
                    op.name()
                ));
            }
        }
    }
    report(failures);
}

/// The metadata program's refusals, each on an input made for it.
#[test]
fn metadata_errors_are_anchors_and_change_nothing() {
    let (programs, mollusk) = load(Family::Metadata);
    let program = &programs[0];
    let typical = instance("typical");
    let mut failures = Vec::new();
    for op in OPERATIONS {
        let valid = anchor_metadata::valid_input(op, &typical);
        let writes = matches!(op, "full" | "verify_creator" | "set_uri");
        let mut cases: Vec<(&str, Input, Result<(), ProgramError>)> = vec![
            (
                "the family's op byte",
                valid.with(|i| i.instruction_data.truncate(1)),
                Err(ProgramError::InvalidInstructionData),
            ),
            (
                "one account",
                valid.with(|i| i.account_count = 1),
                Err(ProgramError::NotEnoughAccountKeys),
            ),
            (
                "another type's discriminator",
                valid.with(|i| {
                    i.data[..8].copy_from_slice(&discriminator("account", "TokenRecord"))
                }),
                Err(ProgramError::InvalidAccountData),
            ),
            // The record's first byte is `key`, an enum of five variants.
            (
                "a key tag out of range",
                valid.with(|i| i.data[8] = 9),
                Err(ProgramError::InvalidAccountData),
            ),
            (
                "a record cut short",
                valid.with(|i| i.data.truncate(8 + 70)),
                Err(ProgramError::InvalidAccountData),
            ),
        ];
        if writes {
            cases.push((
                "account [0] read-only",
                valid.with(|i| i.writable = false),
                Err(CONSTRAINT_MUT),
            ));
        }
        match op {
            "full" | "set_uri" => cases.push((
                "another authority",
                valid.with(|i| i.owner_key = WRONG_KEY),
                Err(CONSTRAINT_ADDRESS),
            )),
            "verify_creator" => cases.push((
                "not a creator",
                valid.with(|i| i.owner_key = WRONG_KEY),
                Err(ProgramError::InvalidArgument),
            )),
            "read_collection" => {
                cases.push((
                    "another key",
                    valid.with(|i| i.instruction_data[8..40].copy_from_slice(&WRONG_KEY)),
                    Err(ProgramError::InvalidArgument),
                ));
                cases.push((
                    "a key cut short",
                    valid.with(|i| i.instruction_data.truncate(8 + 31)),
                    Err(ProgramError::InvalidInstructionData),
                ));
            }
            "read_royalty" => {
                cases.push((
                    "another royalty",
                    valid.with(|i| i.instruction_data[8] ^= 1),
                    Err(ProgramError::InvalidArgument),
                ));
                cases.push((
                    "a royalty cut short",
                    valid.with(|i| i.instruction_data.truncate(9)),
                    Err(ProgramError::InvalidInstructionData),
                ));
            }
            _ => {}
        }
        if op == "set_uri" {
            let uri = |bytes: &[u8]| {
                [
                    &instruction("set_uri")[..],
                    &(bytes.len() as u32).to_le_bytes(),
                    bytes,
                ]
                .concat()
            };
            cases.push((
                "a uri that is not UTF-8",
                valid.with(|i| i.instruction_data = uri(&[0x66, 0xff])),
                Err(ProgramError::InvalidInstructionData),
            ));
            cases.push((
                "a uri past its bound",
                valid.with(|i| i.instruction_data = uri(&[b'u'; 201])),
                Err(ProgramError::InvalidArgument),
            ));
            cases.push((
                "a length past the data",
                valid.with(|i| i.instruction_data[8] += 1),
                Err(ProgramError::InvalidInstructionData),
            ));
            let mut immutable = typical.clone();
            immutable.is_mutable = false;
            let input = anchor_metadata::valid_input("set_uri", &immutable);
            cases.push((
                "an immutable record",
                input,
                Err(ProgramError::InvalidArgument),
            ));
        }
        for (label, input, want) in cases {
            let want = want.map(|()| unreachable!("every case here is an error"));
            if let Err(e) =
                assert_outcome(&mollusk, program, &format!("{op} ({label})"), &input, want)
            {
                failures.push(e);
            }
        }
    }
    report(failures);
}

/// Every benchmark call's bytes, from the record written by hand: `full`
/// sets `primary_sale_happened`, `verify_creator` the last creator's flag,
/// `set_uri` the new uri (zeroing what a shorter one frees).
#[test]
fn metadata_benchmark_calls_leave_exact_bytes() {
    let (programs, mollusk) = load(Family::Metadata);
    let program = &programs[0];
    let mut failures = Vec::new();
    for name in INSTANCES {
        let record = instance(name);
        for op in OPERATIONS {
            let mut want = record.clone();
            let error_path =
                name == "minimal" && matches!(op, "read_collection" | "verify_creator");
            match op {
                "full" => want.primary_sale_happened = true,
                "verify_creator" if !error_path => {
                    want.creators.as_mut().unwrap().last_mut().unwrap().verified = true
                }
                "set_uri" => want.uri = new_uri(&record),
                _ => {}
            }
            let want = if error_path {
                Err(ProgramError::InvalidArgument)
            } else {
                Ok(anchor_metadata::account(&want))
            };
            let input = anchor_metadata::valid_input(op, &record);
            if let Err(e) = assert_outcome(
                &mollusk,
                program,
                &format!("{op} on `{name}`"),
                &input,
                want,
            ) {
                failures.push(e);
            }
        }
    }
    report(failures);
}

/// Instruction data: mostly an operation's discriminator (with random
/// arguments after it a quarter of the time), else random bytes.
fn instruction_data(names: &'static [&'static str]) -> impl Strategy<Value = Vec<u8>> + Clone {
    let named = (
        0..names.len(),
        vec(any::<u8>(), 0..48),
        prop::bool::weighted(0.25),
    )
        .prop_map(move |(at, args, with_args)| {
            let mut data = instruction(names[at]).to_vec();
            if with_args {
                data.extend(args);
            }
            data
        });
    prop_oneof![6 => named.prop_map(Some), 1 => vec(any::<u8>(), 0..12).prop_map(Some), 3 => Just(None)]
        .prop_map(|data| data.unwrap_or_default())
}

#[test]
fn token_hostile_input_meets_the_contract() {
    const NAMES: &[&str] = &["full", "read_owner", "update_amount"];
    let (programs, mollusk) = load(Family::Token);
    hostile::framework_token_programs(
        &programs,
        &LoggedMollusk::new(mollusk),
        2_000,
        token::account,
        instruction_data(NAMES),
        |after| {
            let mut again = token::valid_input(Operation::Full);
            again.data = after.to_vec();
            again.owner_key = after[8 + 32..8 + 64].try_into().unwrap();
            again
        },
    );
}

#[test]
fn metadata_hostile_input_meets_the_contract() {
    const CASES: u32 = 2_000;
    let (programs, mollusk) = load(Family::Metadata);
    let mollusk = LoggedMollusk::new(mollusk);
    let records = INSTANCES.map(instance);
    let accounts: Vec<Vec<u8>> = records.iter().map(anchor_metadata::account).collect();
    for program in &programs {
        let strategy = (
            0..records.len(),
            prop_oneof![2 => hostile::mutation().prop_map(Some), 1 => Just(None)],
            0..OPERATIONS.len(),
            instruction_data(&OPERATIONS),
            prop::bool::weighted(0.5),
            prop_oneof![1 => 0..=1usize, 6 => 2..=3usize],
            prop::bool::weighted(0.85),
            prop::bool::weighted(0.8),
        );
        hostile::run_cases(
            &program.label(),
            CASES,
            strategy,
            |(which, mutation, op, random_data, use_random, account_count, writable, right_key)| {
                let record = &records[which];
                let mut input = anchor_metadata::valid_input(OPERATIONS[op], record);
                if let Some(mutation) = mutation {
                    // The record's bytes damaged, the discriminator kept.
                    let payload = mutation.apply(&accounts[which][8..]);
                    input.data = [&accounts[which][..8], &payload].concat();
                }
                if use_random {
                    input.instruction_data = random_data;
                }
                input.account_count = account_count;
                input.writable = writable;
                if !right_key {
                    input.owner_key = WRONG_KEY;
                }
                hostile::check_call(&mollusk, program, &input, |after| {
                    let mut again = anchor_metadata::valid_input("full", record);
                    again.data = after.to_vec();
                    again.owner_key = anchor_metadata::authority_of(after).unwrap_or(WRONG_KEY);
                    again
                })
            },
        );
    }
}

/// A longer uri on an account cut at the end of its record: Anchor's
/// write-back on exit would not fit (and writes as it goes); the program
/// must refuse it with nothing written, seen inside the VM before the
/// runtime's rollback. Fails without the size check in `set_uri`.
#[test]
fn set_uri_that_does_not_fit_changes_nothing_inside_the_vm() {
    let (programs, mollusk) = load(Family::Metadata);
    let mollusk = LoggedMollusk::new(mollusk);
    let program = &programs[0];
    for name in INSTANCES {
        let record = instance(name);
        let mut input = anchor_metadata::valid_input("set_uri", &record);
        input
            .data
            .truncate(8 + anchor_metadata::encoded_len(&record));
        // One byte longer, where the bound allows (`full`'s uri is at it).
        if record.uri.len() == common::metadata::MAX_URI {
            continue;
        }
        let longer = format!("{}x", record.uri);
        input.instruction_data = [
            &instruction("set_uri")[..],
            &(longer.len() as u32).to_le_bytes(),
            longer.as_bytes(),
        ]
        .concat();
        let case = Case::new(program, "set_uri", &input);
        assert_eq!(
            case.expected,
            Expected::Failure(ProgramError::InvalidAccountData),
            "{name}"
        );
        let (result, outcome) = mollusk.run(&case);
        assert!(matches!(outcome, Seen::Error(_)), "{name}: {outcome:?}");
        case.check(&result)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

/// The records an arguments-and-events program takes: the token family's
/// fixture; the metadata family's instances in borsh's encoding.
fn call_records(family: Family) -> Vec<Vec<u8>> {
    let borsh = common::metadata::host_format("borsh").expect("the borsh format");
    match family {
        Family::Token => vec![fixture()],
        _ => INSTANCES
            .map(|name| (borsh.encode)(&instance(name)))
            .to_vec(),
    }
}

/// The field a handler stores, read out of the record by hand: the token
/// record's last 32 bytes (`close_authority`), the metadata record's
/// royalty.
fn stored_field(family: Family, record: &[u8]) -> Vec<u8> {
    match family {
        Family::Token => record[160 - 32..].to_vec(),
        _ => {
            let borsh = common::metadata::host_format("borsh").expect("the borsh format");
            let (metadata, _) = (borsh.decode)(record).expect("a valid record");
            metadata.seller_fee_basis_points.to_le_bytes().to_vec()
        }
    }
}

/// Each handler's call on each record, written out by hand: account [0]
/// starts with the stored field and keeps the rest; each `emit_*` emits
/// `sha256("event:<type>")[..8]` and the record's borsh bytes (after
/// Anchor's event tag, `0x1d9acb512ea545e4` little-endian, for
/// `emit_cpi`), and `set_record` nothing. Bytes after the record are
/// ignored, and not emitted.
#[test]
fn args_and_events_store_the_field_and_emit_the_record() {
    let mut failures = Vec::new();
    for family in [Family::Token, Family::Metadata] {
        let (program, mollusk) = load_calls(family);
        for record in call_records(family) {
            let mut after = stored_field(family, &record);
            after.resize(48, 0x77);
            for call in Handler::of(family) {
                let event_type = match (call, family) {
                    (Handler::SetRecord, _) => None,
                    (Handler::EmitBytemuck, _) => Some("TokenRecordPod"),
                    (_, Family::Token) => Some("TokenRecord"),
                    _ => Some("Metadata"),
                };
                let event = event_type.map(|t| [&discriminator("event", t)[..], &record].concat());
                let emits = event.map(|event| match call {
                    Handler::EmitCpi => Emitted::SelfCpi(
                        [&0x1d9acb512ea545e4_u64.to_le_bytes()[..], &event].concat(),
                    ),
                    _ => Emitted::Log(event),
                });
                let valid = calls::valid_input(&program, call, &record);
                let trailing = valid.with(|i| i.instruction_data.extend([1, 2, 3]));
                for input in [valid, trailing] {
                    let case = calls::case(&program, call.name(), &input);
                    if case.expected != Expected::Success(after.clone()) || case.emits != emits {
                        failures.push(format!(
                            "{}: the oracle says {:?} emitting {:?}",
                            call.name(),
                            case.expected,
                            case.emits
                        ));
                    } else if let Err(e) = case.run(&mollusk) {
                        failures.push(e.to_string());
                    }
                }
            }
        }
    }
    report(failures);
}

/// Each refusal of the arguments-and-events programs on an input made for
/// it, every account unchanged and nothing emitted: Anchor's self-CPI tag
/// without a signing authority, an instruction too short or unknown, an
/// account missing, account [0] read-only, another event authority, a
/// record cut short or invalid, account [0] too short for the field.
#[test]
fn args_and_events_errors_are_anchors_and_change_nothing() {
    let mut failures = Vec::new();
    for family in [Family::Token, Family::Metadata] {
        let (program, mollusk) = load_calls(family);
        let record = call_records(family).swap_remove(0);
        for call in Handler::of(family) {
            let valid = calls::valid_input(&program, call, &record);
            let mut cases: Vec<(&str, Input, ProgramError)> = vec![
                (
                    "4 bytes of instruction data",
                    valid.with(|i| i.instruction_data.truncate(4)),
                    ProgramError::InvalidInstructionData,
                ),
                (
                    "an unknown instruction",
                    valid.with(|i| i.instruction_data[..8].copy_from_slice(&instruction("close"))),
                    ProgramError::InvalidInstructionData,
                ),
                (
                    "Anchor's event tag, no account",
                    valid.with(|i| {
                        i.instruction_data[..8].copy_from_slice(&calls::EVENT_IX_TAG);
                        i.account_count = 0;
                    }),
                    ProgramError::NotEnoughAccountKeys,
                ),
                (
                    "Anchor's event tag, the authority not signing",
                    valid.with(|i| i.instruction_data[..8].copy_from_slice(&calls::EVENT_IX_TAG)),
                    ProgramError::MissingRequiredSignature,
                ),
                (
                    "an account fewer",
                    valid.with(|i| i.account_count -= 1),
                    ProgramError::NotEnoughAccountKeys,
                ),
                (
                    "account [0] read-only",
                    valid.with(|i| i.writable = false),
                    CONSTRAINT_MUT,
                ),
                (
                    "the record one byte short",
                    valid.with(|i| {
                        i.instruction_data.pop();
                    }),
                    ProgramError::InvalidInstructionData,
                ),
                (
                    "account [0] one byte",
                    valid.with(|i| i.data.truncate(1)),
                    ProgramError::AccountDataTooSmall,
                ),
            ];
            if call == Handler::EmitCpi {
                cases.push((
                    "another event authority",
                    valid.with(|i| i.owner_key = WRONG_KEY),
                    ProgramError::InvalidSeeds,
                ));
            }
            if family == Family::Metadata {
                // After the discriminator: the key's tag, then the name's
                // first byte after two keys and its length.
                cases.push((
                    "a key tag past the enum",
                    valid.with(|i| i.instruction_data[8] = 5),
                    ProgramError::InvalidInstructionData,
                ));
                cases.push((
                    "a name that is not UTF-8",
                    valid.with(|i| i.instruction_data[8 + 1 + 64 + 4] = 0xFF),
                    ProgramError::InvalidInstructionData,
                ));
            }
            for (label, input, want) in cases {
                let case = calls::case(&program, call.name(), &input);
                if case.expected != Expected::Failure(want.clone()) {
                    failures.push(format!(
                        "{} ({label}): the oracle says {:?}, the test {want:?}",
                        call.name(),
                        case.expected
                    ));
                } else if let Err(e) = case.run(&mollusk) {
                    failures.push(format!("{label}: {e}"));
                }
            }
        }
    }
    report(failures);
}

/// Random and hostile calls of the arguments-and-events programs: a
/// handler's discriminator (Anchor's event tag a tenth of the time) before
/// a record damaged by the hostile generator, 0 to 3 accounts, either
/// writable flag, the event authority or another key, account [0] 0 to 63
/// bytes. Never a fault or a change before a failure; each result as the
/// oracle says, what it emits too.
#[test]
fn args_and_events_hostile_input_meets_the_contract() {
    const CASES: u32 = 1_000;
    for family in [Family::Token, Family::Metadata] {
        let (program, mollusk) = load_calls(family);
        let mollusk = LoggedMollusk::new(mollusk);
        let records = call_records(family);
        let calls = Handler::of(family);
        let strategy = (
            0..records.len(),
            hostile::mutation(),
            0..calls.len(),
            prop::bool::weighted(0.1),
            0..=3usize,
            prop::bool::weighted(0.85),
            prop::bool::weighted(0.8),
            0..64usize,
        );
        hostile::run_cases(
            &program.label(),
            CASES,
            strategy,
            |(which, mutation, call, event_tag, account_count, writable, authority, len)| {
                let mut input = calls::valid_input(&program, calls[call], &records[which]);
                let tag = input.instruction_data[..8].to_vec();
                let args = mutation.apply(&input.instruction_data[8..]);
                input.instruction_data = [&tag[..], &args].concat();
                if event_tag {
                    input.instruction_data[..8].copy_from_slice(&calls::EVENT_IX_TAG);
                }
                input.account_count = account_count;
                input.writable = writable;
                if !authority {
                    input.owner_key = WRONG_KEY;
                }
                input.data.resize(len, 0x77);
                let case = calls::case(&program, calls[call].name(), &input);
                let (result, outcome) = mollusk.run(&case);
                if let Seen::Fault(why) | Seen::ChangedBeforeFailure(why) = &outcome {
                    return Err(why.clone());
                }
                case.check(&result).map_err(|e| e.to_string())?;
                case.check_emitted(&result, &mollusk.messages())
                    .map_err(|e| e.to_string())?;
                Ok(outcome.name())
            },
        );
    }
}
