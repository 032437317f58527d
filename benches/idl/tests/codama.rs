//! `make idl` on Codama files (benches/idl/idls/*.codama.json, written
//! here from the programs' documented layouts): SPL Token's accounts are
//! the bytes `spl-token-interface`'s `Pack` writes, the nonce account the
//! bytes the system program writes (bincode 1 of `solana-nonce`'s
//! `Versions`), each wire shape has its known bytes, the generated
//! programs read the crates' own bytes back (`DATA=`), and what make idl
//! does not lay out is refused by name.

use crate::support;

use std::fs;

use support::{root, run_idl};

use idl::{
    input,
    model::{self, Account, Program},
    plan::FieldChoices,
    run::{Options, Run},
    value::{self, Fill, Instances, Lengths, Value},
};
use solana_program_option::COption;
use solana_program_pack::Pack;
use spl_token_interface::state::{Account as TokenAccount, AccountState, Mint, Multisig};

fn resolve(file: &str) -> Program {
    let idl = input::read(&root().join("benches/idl/idls").join(file)).unwrap();
    model::resolve(&idl, &Default::default())
}

fn account<'a>(program: &'a Program, name: &str) -> &'a Account {
    program
        .account(name)
        .unwrap_or_else(|| panic!("no account `{name}`: {:?}", program.accounts))
}

fn fields(value: &Value) -> &[Value] {
    let Value::Struct(fields) = value else {
        panic!("a record is a struct: {value:?}")
    };
    fields
}

fn key(value: &Value) -> [u8; 32] {
    match value {
        Value::Pubkey(key) => *key,
        other => panic!("not a pubkey: {other:?}"),
    }
}

fn int(value: &Value) -> u128 {
    match value {
        Value::Int(v) => *v,
        other => panic!("not an integer: {other:?}"),
    }
}

fn flag(value: &Value) -> bool {
    match value {
        Value::Bool(b) => *b,
        other => panic!("not a bool: {other:?}"),
    }
}

fn option_key(value: &Value) -> COption<[u8; 32]> {
    match value {
        Value::Option(None) => COption::None,
        Value::Option(Some(inner)) => COption::Some(key(inner)),
        other => panic!("not an option: {other:?}"),
    }
}

/// `spl-token-interface`'s `Mint` with the values of the instance `value`.
fn mint_of(value: &Value) -> Mint {
    let f = fields(value);
    Mint {
        mint_authority: option_key(&f[0]).map(Into::into),
        supply: int(&f[1]) as u64,
        decimals: int(&f[2]) as u8,
        is_initialized: flag(&f[3]),
        freeze_authority: option_key(&f[4]).map(Into::into),
    }
}

fn token_of(value: &Value) -> TokenAccount {
    let f = fields(value);
    let Value::Enum(state, _) = f[4] else {
        panic!("the state is an enum")
    };
    TokenAccount {
        mint: key(&f[0]).into(),
        owner: key(&f[1]).into(),
        amount: int(&f[2]) as u64,
        delegate: option_key(&f[3]).map(Into::into),
        state: [
            AccountState::Uninitialized,
            AccountState::Initialized,
            AccountState::Frozen,
        ][state],
        is_native: match &f[5] {
            Value::Option(Some(inner)) => COption::Some(int(inner) as u64),
            _ => COption::None,
        },
        delegated_amount: int(&f[6]) as u64,
        close_authority: option_key(&f[7]).map(Into::into),
    }
}

fn multisig_of(value: &Value) -> Multisig {
    let f = fields(value);
    let Value::Array(signers) = &f[3] else {
        panic!("the signers are an array")
    };
    Multisig {
        m: int(&f[0]) as u8,
        n: int(&f[1]) as u8,
        is_initialized: flag(&f[2]),
        signers: core::array::from_fn(|i| key(&signers[i]).into()),
    }
}

/// What `Pack` writes for `T` into a new (zeroed) account. `Pack` writes
/// only a `None`'s tag and leaves the 32 bytes after it as they were (into
/// a buffer of 0xAA they stay 0xAA), so the two agree on an account the
/// runtime created, not on a reused one.
fn packed<T: Pack>(value: &T) -> Vec<u8> {
    let mut out = vec![0; T::LEN];
    value.pack_into_slice(&mut out);
    out
}

/// Each instance the benchmark generates for `name`: its bytes are what
/// `to_crate`'s value packs, and decode back to the instance.
fn assert_pack_equal<T: Pack + PartialEq + std::fmt::Debug>(
    program: &Program,
    name: &str,
    len: usize,
    to_crate: fn(&Value) -> T,
) {
    let account = account(program, name);
    for shape in [Fill::Full, Fill::Empty] {
        let record = Instances::new(shape, Lengths::default()).record(account);
        let ours = value::account_data(account, &record);
        let theirs = to_crate(&record);
        assert_eq!(ours.len(), len, "{name} {shape:?}");
        assert_eq!(ours, packed(&theirs), "{name} {shape:?}: Pack's bytes");
        assert_eq!(
            T::unpack_from_slice(&ours).unwrap(),
            theirs,
            "{name} {shape:?}"
        );
        let (decoded, tail) = value::decode_account(account, &packed(&theirs)).unwrap();
        assert_eq!((decoded, tail.len()), (record, 0), "{name} {shape:?}");
    }
}

#[test]
fn spl_token_accounts_are_the_bytes_pack_writes() {
    let program = resolve("token_accounts.codama.json");
    assert_pack_equal(&program, "mint", 82, mint_of);
    assert_pack_equal(&program, "token", 165, token_of);
    assert_pack_equal(&program, "multisig", 355, multisig_of);
    // Transfer's data is its one-byte tag and the amount.
    let transfer = program.instructions[0].as_ref().unwrap();
    assert_eq!(transfer.discriminator, [3]);
    let checked = program.instructions[1].as_ref().unwrap();
    assert_eq!(checked.discriminator, [12]);
    let args = Instances::new(Fill::Full, Lengths::default())
        .value_of(&model::Ty::Struct(checked.args.clone()), "transferChecked");
    let mut data = checked.discriminator.clone();
    value::encode(&args, &model::Ty::Struct(checked.args.clone()), &mut data);
    let amount = int(&fields(&args)[0]) as u64;
    let decimals = int(&fields(&args)[1]) as u8;
    assert_eq!(
        data,
        spl_token_interface::instruction::TokenInstruction::TransferChecked { amount, decimals }
            .pack()
    );
}

#[test]
fn the_nonce_account_is_the_bytes_the_system_program_writes() {
    use solana_nonce::{
        state::{Data, DurableNonce, State},
        versions::Versions,
    };
    let program = resolve("nonce.codama.json");
    let account = account(&program, "nonce");
    let record = Instances::new(Fill::Full, Lengths::default()).record(account);
    let ours = value::account_data(account, &record);
    assert_eq!(ours.len(), 80);
    // The system program's own decode of our bytes holds the instance's values.
    let versions: Versions = bincode1::deserialize(&ours).unwrap();
    let f = fields(&record);
    let (Value::Enum(version, _), Value::Enum(state, _)) = (&f[0], &f[1]) else {
        panic!("the version and state are enums")
    };
    assert_eq!((*version, *state), (1, 1), "current, initialized");
    let Versions::Current(state) = &versions else {
        panic!("{versions:?}")
    };
    let State::Initialized(data) = &**state else {
        panic!("{state:?}")
    };
    assert_eq!(data.authority.to_bytes(), key(&f[2]));
    assert_eq!(data.durable_nonce.as_hash().to_bytes(), key(&f[3]));
    assert_eq!(u128::from(data.get_lamports_per_signature()), int(&f[4]));
    assert_eq!(bincode1::serialize(&versions).unwrap(), ours);
    // And its encoding of its own values decodes to them.
    let authority = solana_pubkey::Pubkey::new_from_array([7; 32]);
    let durable = DurableNonce::from_blockhash(&solana_hash::Hash::new_from_array([9; 32]));
    let theirs = Versions::new(State::Initialized(Data::new(
        authority.to_bytes().into(),
        durable,
        5000,
    )));
    let bytes = bincode1::serialize(&theirs).unwrap();
    let (decoded, _) = value::decode_account(account, &bytes).unwrap();
    let f = fields(&decoded);
    assert_eq!(key(&f[2]), [7; 32]);
    assert_eq!(key(&f[3]), durable.as_hash().to_bytes());
    assert_eq!(int(&f[4]), 5000);
}

#[test]
fn each_wire_shape_has_its_known_bytes() {
    let program = resolve("wire.codama.json");
    let sample = account(&program, "sample");
    // The u16 field discriminator (513) is the bytes the data starts with.
    assert_eq!(sample.discriminator, [0x01, 0x02]);
    let record = Value::Struct(vec![
        Value::Int(0x0102_0304),                        // height: u32, big-endian
        Value::Int(300),                                // count: shortU16
        Value::Option(None),                            // limit: fixed option, u32 tag
        Value::Option(Some(Box::new(Value::Int(7)))),   // reward: zeroable u32
        Value::Enum(2, Vec::new()),                     // kind: u32 tag
        Value::Vec(vec![Value::Int(1), Value::Int(2)]), // rest: u16s to the end
    ]);
    let bytes = value::account_data(sample, &record);
    #[rustfmt::skip]
    let known = [
        0x01, 0x02,             // discriminator 513, little-endian
        0x01, 0x02, 0x03, 0x04, // height, big-endian
        0xac, 0x02,             // 300 = 0b10_0101100: 0x2c | 0x80, then 0x02
        0, 0, 0, 0, 0, 0,       // None: a zero u32 tag, then 2 bytes of padding
        7, 0, 0, 0,             // Some(7): the value, no tag
        2, 0, 0, 0,             // the third variant, a u32 tag
        1, 0, 2, 0,             // the rest: no count
    ];
    assert_eq!(bytes, known);
    assert_eq!(
        value::decode_account(sample, &bytes).unwrap(),
        (record, Vec::new())
    );
    let record = Value::Struct(vec![
        Value::Int(1),
        Value::Int(0x7f),
        Value::Option(Some(Box::new(Value::Int(0x0a0b)))),
        Value::Option(None),
        Value::Enum(0, Vec::new()),
        Value::Vec(Vec::new()),
    ]);
    let bytes = value::account_data(sample, &record);
    assert_eq!(
        bytes,
        [
            1, 2, 0, 0, 0, 1, 0x7f, 1, 0, 0, 0, 0x0b, 0x0a, 0, 0, 0, 0, 0, 0, 0, 0
        ]
    );
    // A shortU16 in a longer form than its shortest is refused.
    let mut long = bytes.clone();
    long.splice(6..7, [0xff, 0x00]);
    let error = value::decode_account(sample, &long).unwrap_err();
    assert_eq!(
        error.what,
        "`sample.count`: a shortU16 that is not in its shortest form"
    );
    // 24 bytes, as the IDL declares: the fixed option is 6, the zeroable 4.
    let header = account(&program, "header");
    assert_eq!(idl::layout::account_len(header), Ok(Some(24)));
}

/// `make idl` on `file` with `DATA=` holding `data` (account name, bytes):
/// every generated program reads the crate's bytes (no contract failure),
/// and each account has a row on them.
fn run_on_data(file: &str, data: &[(&str, Vec<u8>)]) -> Run {
    // The data's folder goes when the run is done.
    let dir = tempfile::tempdir().unwrap();
    for (name, bytes) in data {
        fs::write(dir.path().join(format!("{name}.bin")), bytes).unwrap();
    }
    let options = Options {
        fields: FieldChoices::default(),
        data: Some(dir.path().to_path_buf()),
        ..Options::default()
    };
    run_idl(file, &options)
}

#[test]
fn generated_programs_read_what_pack_wrote() {
    let signer = |i: u8| [i; 32].into();
    let mint = Mint {
        mint_authority: COption::Some([1; 32].into()),
        supply: 1_000_000,
        decimals: 6,
        is_initialized: true,
        freeze_authority: COption::None,
    };
    let token = TokenAccount {
        mint: [2; 32].into(),
        owner: [3; 32].into(),
        amount: 42,
        delegate: COption::None,
        state: AccountState::Initialized,
        is_native: COption::Some(2_039_280),
        delegated_amount: 0,
        close_authority: COption::Some([4; 32].into()),
    };
    let multisig = Multisig {
        m: 2,
        n: 3,
        is_initialized: true,
        signers: core::array::from_fn(|i| signer(i as u8 + 10)),
    };
    let run = run_on_data(
        "token_accounts.codama.json",
        &[
            ("mint", packed(&mint)),
            ("token", packed(&token)),
            ("multisig", packed(&multisig)),
        ],
    );
    for (name, formats) in [
        ("mint", &["walk", "bytemuck"][..]),
        ("token", &["walk", "bytemuck"]),
        (
            "multisig",
            &["borsh", "borsh_boxed", "wincode", "walk", "bytemuck"],
        ),
    ] {
        for format in formats {
            for operation in ["full", "read", "update"] {
                assert!(
                    run.rows.iter().any(|r| r.name == name
                        && r.format.name() == *format
                        && r.operation == operation
                        && r.instance == "data"),
                    "no {name} {format} {operation} row on Pack's bytes"
                );
            }
        }
    }
    // Transfer and TransferChecked, decoded by every argument format.
    for ix in ["transfer", "transferChecked"] {
        for format in ["floor", "borsh", "wincode", "walk", "bytemuck"] {
            assert!(
                run.rows
                    .iter()
                    .any(|r| r.name == ix && r.format.name() == format),
                "no {ix} {format} row"
            );
        }
    }
}

#[test]
fn generated_programs_read_what_the_system_program_wrote() {
    use solana_nonce::{
        state::{Data, DurableNonce, State},
        versions::Versions,
    };
    let nonce = Versions::new(State::Initialized(Data::new(
        [5; 32].into(),
        DurableNonce::from_blockhash(&solana_hash::Hash::new_from_array([6; 32])),
        5000,
    )));
    let run = run_on_data(
        "nonce.codama.json",
        &[("nonce", bincode1::serialize(&nonce).unwrap())],
    );
    // wincode with u32 tags reads the bincode-style account; borsh cannot.
    for format in ["wincode", "walk", "bytemuck"] {
        assert!(
            run.rows
                .iter()
                .any(|r| r.format.name() == format && r.instance == "data"),
            "no nonce {format} row on the system program's bytes"
        );
    }
    assert!(!run.rows.iter().any(|r| r.format.name() == "borsh"));
    // A seed behind a u64 length (bincode's): wincode configured for it,
    // borsh not at all.
    let seeded = |format: &str| {
        run.rows
            .iter()
            .any(|r| r.name == "allocateWithSeed" && r.format.name() == format)
    };
    assert!(seeded("wincode") && seeded("walk") && !seeded("borsh"));
    let skipped = run
        .skipped
        .iter()
        .find(|s| s.name == "allocateWithSeed" && s.format.name() == "borsh")
        .expect("borsh's reason");
    assert_eq!(
        skipped.reason,
        "not borsh's bytes: a 8-byte length prefix, where borsh writes 4 bytes"
    );
}

#[test]
fn the_wire_shapes_run_in_the_generated_programs() {
    // Every walk and cast over the known-answer shapes, checked by the
    // oracle and the hostile cases.
    let run = run_on_data("wire.codama.json", &[]);
    for (name, format) in [
        ("sample", "walk"),
        ("header", "walk"),
        ("header", "bytemuck"),
        ("table", "walk"),
        // A fixed header cast, the keys after it cast as a slice.
        ("table", "bytemuck"),
    ] {
        assert_eq!(
            run.rows
                .iter()
                .filter(|r| r.name == name && r.format.name() == format)
                .count(),
            6,
            "{name} {format}: full, read and update on both instances"
        );
    }
}

/// A Codama file with one program holding `accounts` (JSON).
fn codama(accounts: &str) -> String {
    format!(
        r#"{{"kind": "rootNode", "standard": "codama", "version": "1.0.0",
            "program": {{"kind": "programNode", "name": "bad", "publicKey": "11111111111111111111111111111111",
                         "version": "1", "accounts": [{accounts}]}}}}"#
    )
}

fn refusal(field_type: &str, extra: &str) -> String {
    let text = codama(&format!(
        r#"{{"kind": "accountNode", "name": "ok", "data": {{"kind": "structTypeNode", "fields": [
              {{"kind": "structFieldTypeNode", "name": "n", "type": {{"kind": "numberTypeNode", "format": "u8", "endian": "le"}}}}]}}}},
           {{"kind": "accountNode", "name": "refused", {extra} "data": {{"kind": "structTypeNode", "fields": [
              {{"kind": "structFieldTypeNode", "name": "n", "type": {{"kind": "numberTypeNode", "format": "u8", "endian": "le"}}}},
              {{"kind": "structFieldTypeNode", "name": "odd", "type": {field_type}}}]}}}}"#
    ));
    let idl = input::parse("bad.json", "bad", &text).unwrap();
    let program = model::resolve(&idl, &Default::default());
    assert!(program.accounts[0].is_ok(), "the other account still runs");
    program.accounts[1].as_ref().unwrap_err().reason.clone()
}

#[test]
fn what_make_idl_does_not_lay_out_is_refused_by_name() {
    let u8_ty = r#"{"kind": "numberTypeNode", "format": "u8", "endian": "le"}"#;
    assert_eq!(
        refusal(
            &format!(
                r#"{{"kind": "mapTypeNode", "key": {u8_ty}, "value": {u8_ty}, "count": {{"kind": "remainderCountNode"}}}}"#
            ),
            ""
        ),
        "type `refused`, field `odd`: a map or set counted otherwise than by a `u32` prefix; make idl generates borsh's maps"
    );
    assert_eq!(
        refusal(
            r#"{"kind": "booleanTypeNode", "size": {"kind": "numberTypeNode", "format": "u32", "endian": "le"}}"#,
            ""
        ),
        "type `refused`, field `odd`: a boolean of type U32; make idl lays out one-byte booleans"
    );
    assert_eq!(
        refusal(
            &format!(
                r#"{{"kind": "zeroableOptionTypeNode", "item": {u8_ty}, "zeroValue": {{"kind": "constantValueNode", "type": {u8_ty}, "value": {{"kind": "numberValueNode", "number": 255}}}}}}"#
            ),
            ""
        ),
        "type `refused`, field `odd`: a zeroable option with its own zero value; make idl reads all-zero `None`s"
    );
    assert_eq!(
        refusal(u8_ty, r#""size": 3,"#),
        "the IDL gives its size as 3 bytes, its fields add up to 2"
    );
    assert_eq!(
        refusal(
            &format!(
                r#"{{"kind": "arrayTypeNode", "item": {u8_ty}, "count": {{"kind": "remainderCountNode"}}}}"#
            ),
            r#""discriminators": [{"kind": "fieldDiscriminatorNode", "name": "odd", "offset": 1}],"#
        ),
        "its discriminator field `odd` is at offset 1, after other fields; make idl checks a discriminator that starts the data"
    );
    let remainder = format!(
        r#"{{"kind": "arrayTypeNode", "item": {u8_ty}, "count": {{"kind": "remainderCountNode"}}}}"#
    );
    assert_eq!(
        refusal(
            &format!(r#"{{"kind": "tupleTypeNode", "items": [{remainder}, {u8_ty}]}}"#),
            ""
        ),
        "field `odd` runs to the end of the data but is not the last thing in it"
    );
}
