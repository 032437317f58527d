//! `ACCOUNTS=<folder>`: a team's accounts, as it already has them, for
//! sizing its variable fields ([`crate::capacity`]). Every `.json` file of
//! the folder is read, whichever of these it is:
//! - what `solana account <address> --output json` writes;
//! - an RPC `getAccountInfo` response, or a `getProgramAccounts` one (with
//!   or without its context);
//! - a Mollusk fixture, as `make profile SO=` reads them (its accounts).
//!
//! Data as `base64` or `base64+zstd`. What cannot be read is named, and
//! the rest is kept.

use std::{fs, path::Path};

use base64::Engine as _;
use serde_json::Value;
use solana_pubkey::Pubkey;

/// One account as the team holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Held {
    /// Where it came from: the file, and the account's address where the
    /// file gives one.
    pub source: String,
    /// Its address, where the file gives one.
    pub address: Option<String>,
    /// Its owner, where the file says.
    pub owner: Option<Pubkey>,
    pub data: Vec<u8>,
    /// From a Mollusk fixture: one of an instruction's accounts, which
    /// may be anyone's (a payer, a sysvar), not an account a team sent.
    pub from_fixture: bool,
}

/// What a folder held: the accounts, and what could not be read in it,
/// each named.
#[derive(Clone, Debug, Default)]
pub struct Read {
    pub accounts: Vec<Held>,
    pub unreadable: Vec<String>,
}

/// Every account in the `.json` files of `dir` (its subfolders too, as
/// `make profile`'s fixtures are kept), each account once (the same
/// address and bytes in two files are one); `Err` where the folder
/// itself cannot be read or holds no `.json` file.
pub fn read(dir: &Path) -> Result<Read, String> {
    let mut files = Vec::new();
    collect_json(dir, &mut files).map_err(|e| {
        format!(
            "ACCOUNTS={}: {e}; give a folder of account dumps (`solana account <address> --output json`, RPC responses) or Mollusk fixtures",
            dir.display()
        )
    })?;
    if files.is_empty() {
        return Err(format!(
            "ACCOUNTS={}: no .json file in it; give a folder of account dumps (`solana account <address> --output json`, RPC responses) or Mollusk fixtures",
            dir.display()
        ));
    }
    files.sort();
    let mut read = Read::default();
    let mut seen = std::collections::BTreeSet::new();
    for file in files {
        let shown = file
            .strip_prefix(dir)
            .unwrap_or(&file)
            .display()
            .to_string();
        let text = match fs::read_to_string(&file) {
            Ok(text) => text,
            Err(e) => {
                read.unreadable.push(format!("{shown}: {e}"));
                continue;
            }
        };
        let value: Value = match serde_json::from_str(&text) {
            Ok(value) => value,
            Err(e) => {
                read.unreadable.push(format!("{shown}: not JSON ({e})"));
                continue;
            }
        };
        for account in accounts_in(&shown, &value) {
            match account {
                Ok(held) => {
                    // An address seen with the same bytes is one account
                    // (a fixture's account is in many fixtures).
                    let key = held.address.clone().unwrap_or_else(|| held.source.clone());
                    if seen.insert((key, held.data.clone())) {
                        read.accounts.push(held);
                    }
                }
                Err(e) => read.unreadable.push(e),
            }
        }
    }
    Ok(read)
}

fn collect_json(dir: &Path, out: &mut Vec<std::path::PathBuf>) -> std::io::Result<()> {
    for entry in fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect_json(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "json") {
            out.push(path);
        }
    }
    Ok(())
}

/// The accounts of one file's JSON, by its shape.
fn accounts_in(shown: &str, value: &Value) -> Vec<Result<Held, String>> {
    // A Mollusk fixture: its instruction's accounts, addresses and bytes
    // as arrays of numbers.
    if let Some(accounts) = value.pointer("/input/accounts").and_then(Value::as_array) {
        return accounts
            .iter()
            .enumerate()
            .map(|(i, account)| fixture_account(shown, i, account))
            .collect();
    }
    // An RPC response: `getProgramAccounts` (a list, with or without its
    // context) or `getAccountInfo` (one value, or none).
    if let Some(result) = value.get("result") {
        let listed = result
            .as_array()
            .or_else(|| result.get("value").and_then(Value::as_array));
        if let Some(list) = listed {
            return list
                .iter()
                .enumerate()
                .map(|(i, keyed)| keyed_account(shown, i, keyed))
                .collect();
        }
        return match result.get("value") {
            Some(Value::Null) => vec![Err(format!(
                "{shown}: the RPC found no account (`result.value` is null)"
            ))],
            Some(account) => vec![rpc_account(shown.to_string(), account)],
            None => vec![Err(format!(
                "{shown}: an RPC response with neither a `value` nor a list of accounts in `result`"
            ))],
        };
    }
    // `solana account --output json`: the address and the account.
    if value.get("account").is_some() {
        return vec![keyed_account(shown, 0, value)];
    }
    vec![Err(format!(
        "{shown}: not an account dump (`solana account <address> --output json`), an RPC `getAccountInfo` or `getProgramAccounts` response, or a Mollusk fixture"
    ))]
}

/// `{"pubkey": ..., "account": {...}}`, as the CLI and
/// `getProgramAccounts` give an account.
fn keyed_account(shown: &str, index: usize, keyed: &Value) -> Result<Held, String> {
    let address = keyed.get("pubkey").and_then(Value::as_str);
    let source = match address {
        Some(pubkey) => format!("{shown}: {pubkey}"),
        None => format!("{shown} #{index}"),
    };
    let account = keyed
        .get("account")
        .ok_or_else(|| format!("{source}: no `account`"))?;
    let held = rpc_account(source, account)?;
    Ok(Held {
        address: address.map(str::to_string),
        ..held
    })
}

/// An account as the RPC and the CLI write one: `data` as `[text,
/// encoding]`, `owner` in base58.
fn rpc_account(source: String, account: &Value) -> Result<Held, String> {
    let data = account
        .get("data")
        .and_then(Value::as_array)
        .ok_or_else(|| format!("{source}: no `data` as [\"<data>\", \"<encoding>\"]"))?;
    let data = data_bytes(data).map_err(|e| format!("{source}: {e}"))?;
    let owner = match account.get("owner").and_then(Value::as_str) {
        Some(owner) => Some(
            owner
                .parse::<Pubkey>()
                .map_err(|e| format!("{source}: `owner` {owner} is not an address ({e})"))?,
        ),
        None => None,
    };
    Ok(Held {
        source,
        address: None,
        owner,
        data,
        from_fixture: false,
    })
}

/// An account's `data` as the RPC and the CLI write it, `[text,
/// encoding]`, as bytes (`DATA=` reads the CLI's files with it too).
pub(super) fn data_bytes(data: &[Value]) -> Result<Vec<u8>, String> {
    let (Some(text), Some(encoding)) = (
        data.first().and_then(Value::as_str),
        data.get(1).and_then(Value::as_str),
    ) else {
        return Err("`data` is not [\"<data>\", \"<encoding>\"]".into());
    };
    decode(text, encoding)
}

/// The data's bytes in one of the RPC's encodings that carry them whole.
fn decode(text: &str, encoding: &str) -> Result<Vec<u8>, String> {
    let base64 = |text: &str| {
        base64::engine::general_purpose::STANDARD
            .decode(text)
            .map_err(|e| format!("`data` is not base64 ({e})"))
    };
    match encoding {
        "base64" => base64(text),
        "base64+zstd" => zstd::decode_all(base64(text)?.as_slice())
            .map_err(|e| format!("`data` is base64 but not zstd ({e})")),
        other => Err(format!(
            "`data` in {other}: ask the RPC for `base64` or `base64+zstd` (`--output json` writes base64)"
        )),
    }
}

/// One of a Mollusk fixture's accounts: address, owner and data as
/// arrays of numbers.
fn fixture_account(shown: &str, index: usize, account: &Value) -> Result<Held, String> {
    let bytes = |key: &str| -> Option<Vec<u8>> {
        account
            .get(key)?
            .as_array()?
            .iter()
            .map(|b| b.as_u64().and_then(|b| u8::try_from(b).ok()))
            .collect()
    };
    let key = |bytes: Option<Vec<u8>>| bytes.and_then(|b| <[u8; 32]>::try_from(b).ok());
    let address = key(bytes("address")).map(|a| Pubkey::from(a).to_string());
    let source = match &address {
        Some(address) => format!("{shown}: {address}"),
        None => format!("{shown} #{index}"),
    };
    let data = bytes("data").ok_or_else(|| format!("{source}: no `data` as bytes"))?;
    Ok(Held {
        source,
        address,
        owner: key(bytes("owner")).map(Pubkey::from),
        data,
        from_fixture: true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn held(dir: &Path) -> Read {
        read(dir).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Each accepted shape gives its accounts' bytes and owners; the
    /// unreadable are named and the rest kept.
    #[test]
    fn every_shape_is_read_and_the_unreadable_named() {
        let dir = tempfile::tempdir().unwrap();
        let owner = Pubkey::new_from_array([7; 32]);
        let b64 = |bytes: &[u8]| base64::engine::general_purpose::STANDARD.encode(bytes);
        let zstd = b64(&zstd::encode_all(&[5u8, 6, 7][..], 3).unwrap());
        let account = |data: serde_json::Value| serde_json::json!({"lamports": 1, "owner": owner.to_string(), "data": data});
        let files = [
            (
                "cli.json",
                serde_json::json!({"pubkey": "A1", "account": account(serde_json::json!([b64(&[1, 2]), "base64"]))}),
            ),
            (
                "info.json",
                serde_json::json!({"jsonrpc": "2.0", "result": {"context": {"slot": 1}, "value": account(serde_json::json!([zstd, "base64+zstd"]))}, "id": 1}),
            ),
            (
                "program.json",
                serde_json::json!({"jsonrpc": "2.0", "result": [
                    {"pubkey": "B1", "account": account(serde_json::json!([b64(&[3]), "base64"]))},
                    {"pubkey": "B2", "account": account(serde_json::json!(["not base64!", "base64"]))},
                ], "id": 1}),
            ),
            (
                "fixtures/one.json",
                serde_json::json!({"input": {"accounts": [{"address": vec![1u8; 32], "owner": vec![7u8; 32], "data": [9, 9]}]}}),
            ),
            ("other.json", serde_json::json!({"hello": 1})),
        ];
        for (name, value) in files {
            let path = dir.path().join(name);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, value.to_string()).unwrap();
        }
        let read = held(dir.path());
        let data: Vec<&[u8]> = read.accounts.iter().map(|h| h.data.as_slice()).collect();
        assert_eq!(data, [&[1u8, 2][..], &[9, 9], &[5, 6, 7], &[3]]);
        assert!(read.accounts.iter().all(|h| h.owner == Some(owner)));
        assert_eq!(read.accounts[0].source, "cli.json: A1");
        assert!(read.accounts[1].from_fixture);
        assert_eq!(read.unreadable.len(), 2, "{:?}", read.unreadable);
        assert!(read.unreadable[0].starts_with("other.json: not an account dump"));
        assert!(
            read.unreadable[1].starts_with("program.json: B2: `data` is not base64"),
            "{:?}",
            read.unreadable
        );
    }

    /// A folder with no dump in it is refused, saying what to give.
    #[test]
    fn an_empty_folder_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let e = read(dir.path()).unwrap_err();
        assert!(e.contains("no .json file in it"), "{e}");
    }
}
