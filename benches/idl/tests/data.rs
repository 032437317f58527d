//! `DATA=<dir>`: an account's own bytes as the instance, from a `.bin` file
//! or from `solana account --output json`; bytes that do not decode are
//! refused with the file, the account and the byte where decoding stopped.

use std::fs;

use base64::Engine as _;
use idl::{
    input::{self, Assumptions},
    measure::Measured,
    model,
    plan::FieldChoices,
    run::{self, Options},
    value::{self, Fill, Instances, Lengths},
};

use crate::support;

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("idl-data-{name}-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn an_accounts_own_bytes_are_the_instance_and_its_tail_is_kept() {
    let dir = temp_dir("json");
    // The token IDL's account under a program name (and run folder) of its
    // own: DATA= is an account's, so its instructions and events are left
    // out (their programs would be the token example's, built again).
    let idl = support::accounts_copy("token.json", "data");
    let parsed = input::read(&idl).unwrap();
    let program = model::resolve(&parsed, &Assumptions::default());
    let account = program.accounts[0].as_ref().unwrap();
    // Another record than the generated one, in an account 16 bytes longer.
    let record = Instances::new(Fill::Full, Lengths { string: 3, list: 1 }).record(account);
    let mut bytes = value::account_data(account, &record);
    bytes[8 + 64] ^= 0x5a;
    bytes.extend([0xEE; 16]);
    let encoded = base64::engine::general_purpose::STANDARD.encode(&bytes);
    let json = format!(
        r#"{{"pubkey": "x", "account": {{"lamports": 1, "data": ["{encoded}", "base64"], "owner": "y", "executable": false, "rentEpoch": 0, "space": {}}}}}"#,
        bytes.len()
    );
    fs::write(dir.join("TokenAccount.json"), json).unwrap();
    let root = support::root();
    let options = Options {
        fields: FieldChoices::parse("TokenAccount.owner", "TokenAccount.amount").unwrap(),
        data: Some(dir.clone()),
        ..Options::default()
    };
    let run = run::run(&root, &idl, &options, &mut |_| {}).unwrap_or_else(|e| panic!("{e}"));
    assert!(run.failures.is_empty(), "{}", run.failures.join("\n"));
    let rows: Vec<_> = run.rows.iter().filter(|r| r.instance == "data").collect();
    assert!(!rows.is_empty());
    assert!(rows.iter().all(|r| r.account_bytes == bytes.len()));
    assert!(
        rows.iter()
            .any(|r| matches!(r.outcome, Measured::Ran { .. }))
    );
    // Every row is an account's (the copy has no instructions or events),
    // and of the data.
    assert!(
        run.rows
            .iter()
            .all(|r| r.site == idl::model::Site::Account && r.instance == "data")
    );
    fs::remove_dir_all(dir).unwrap();
}

#[test]
fn bytes_that_do_not_decode_name_the_file_the_account_and_the_byte() {
    let dir = temp_dir("bad");
    let idl = support::accounts_copy("token.json", "data");
    fs::write(dir.join("TokenAccount.bin"), [1, 2, 3, 4, 5, 6, 7, 8, 0, 0]).unwrap();
    let root = support::root();
    let options = Options {
        data: Some(dir.clone()),
        ..Options::default()
    };
    let err = run::run(&root, &idl, &options, &mut |_| {}).unwrap_err();
    let bin = dir.join("TokenAccount.bin").display().to_string();
    assert_eq!(
        err,
        format!(
            "DATA: {bin}: account `TokenAccount` does not decode at byte 10: 10 bytes, the layout needs 168 (is it this IDL's account, at the version the IDL describes?)"
        )
    );
    fs::write(dir.join("TokenAccount.bin"), [9; 200]).unwrap();
    let err = run::run(&root, &idl, &options, &mut |_| {}).unwrap_err();
    assert!(
        err.contains("does not decode at byte 0: does not start with the IDL's discriminator for `TokenAccount`"),
        "{err}"
    );
    fs::remove_file(dir.join("TokenAccount.bin")).unwrap();
    fs::write(
        dir.join("TokenAccount.json"),
        r#"{"account": {"data": "AAAA"}}"#,
    )
    .unwrap();
    let err = run::run(&root, &idl, &options, &mut |_| {}).unwrap_err();
    assert!(
        err.contains("TokenAccount.json: no `account.data` array"),
        "{err}"
    );
    fs::remove_dir_all(dir).unwrap();
}

/// A borsh record read back where its bytes break the type: the byte and
/// the field are named.
#[test]
fn a_borsh_decode_names_the_field_where_it_stopped() {
    let text = r#"{"address": "x", "metadata": {"name": "b", "version": "0", "spec": "0.1.0"},
        "instructions": [], "accounts": [{"name": "Rec", "discriminator": [7]}],
        "types": [{"name": "Rec", "type": {"kind": "struct", "fields": [
            {"name": "amount", "type": "u64"}, {"name": "open", "type": "bool"},
            {"name": "label", "type": "string"}]}}]}"#;
    let parsed = input::parse("b.json", "b", text).unwrap();
    let program = model::resolve(&parsed, &Assumptions::default());
    let account = program.accounts[0].as_ref().unwrap();
    let mut bytes = vec![7, 1, 0, 0, 0, 0, 0, 0, 0, 2];
    let err = value::decode_account(account, &bytes).unwrap_err();
    assert_eq!(
        (err.at, err.what.as_str()),
        (9, "`Rec.open`: a bool that is 2")
    );
    bytes[9] = 1;
    bytes.extend([3, 0, 0, 0, b'a', 0xff, b'c']);
    let err = value::decode_account(account, &bytes).unwrap_err();
    assert_eq!(
        (err.at, err.what.as_str()),
        (15, "`Rec.label`: a string that is not UTF-8")
    );
    bytes[15] = b'b';
    bytes.push(0xAB);
    let (_, tail) = value::decode_account(account, &bytes).unwrap();
    assert_eq!(tail, [0xAB]);
}

/// A legacy IDL does not say which accounts are zero-copy: data of a
/// zero-copy layout's length read as borsh (which here decodes, wrongly,
/// with 8 bytes left over) is refused with the hint to say so.
#[test]
fn legacy_zero_copy_data_read_as_borsh_says_zero_copy() {
    let dir = temp_dir("legacy");
    let idl = dir.join("legacy.json");
    fs::write(
        &idl,
        r#"{"version": "0.1.0", "name": "legacy", "accounts": [{"name": "Pool", "type": {"kind": "struct", "fields": [
            {"name": "open", "type": "bool"}, {"name": "amount", "type": "u64"}]}}]}"#,
    )
    .unwrap();
    // The zero-copy memory: the bool, 7 bytes of padding (borsh reads them
    // as the start of the u64), the u64.
    let mut bytes = input::legacy_discriminator("Pool").to_vec();
    bytes.extend([1, 2, 0, 0, 0, 0, 0, 0]);
    bytes.extend(7u64.to_le_bytes());
    fs::write(dir.join("Pool.bin"), &bytes).unwrap();
    let root = support::root();
    let options = Options {
        data: Some(dir.clone()),
        ..Options::default()
    };
    let err = run::run(&root, &idl, &options, &mut |_| {}).unwrap_err();
    assert!(
        err.contains("if `Pool` is `#[account(zero_copy)]`, say ZERO_COPY=Pool"),
        "{err}"
    );
    fs::remove_dir_all(dir).unwrap();
}
