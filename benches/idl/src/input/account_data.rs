//! An account's own bytes, from the folder `DATA=` names.

use std::{fs, path::Path};

use serde_json::Value;

/// An account's own bytes from `DATA=<dir>`: `<Account>.json` as
/// `solana account <address> --output json` writes it (base64 data), or
/// `<Account>.bin`; `None` where the folder has neither.
pub fn account_data(dir: &Path, account: &str) -> Result<Option<(String, Vec<u8>)>, String> {
    let json = dir.join(format!("{account}.json"));
    let bin = dir.join(format!("{account}.bin"));
    if let Ok(bytes) = fs::read(&bin) {
        return Ok(Some((bin.display().to_string(), bytes)));
    }
    let Ok(text) = fs::read_to_string(&json) else {
        return Ok(None);
    };
    let shown = json.display().to_string();
    let what_to_do =
        "write it with `solana account <address> --output json`, or give the raw bytes as";
    let value: Value = serde_json::from_str(&text)
        .map_err(|e| format!("{shown}: not JSON ({e}); {what_to_do} {account}.bin"))?;
    let data = value
        .get("account")
        .and_then(|a| a.get("data"))
        .or_else(|| value.get("data"))
        .and_then(Value::as_array)
        .ok_or_else(|| format!("{shown}: no `account.data` array; {what_to_do} {account}.bin"))?;
    // Read as `ACCOUNTS=` reads the CLI's files.
    match super::accounts::data_bytes(data) {
        Ok(bytes) => Ok(Some((shown, bytes))),
        Err(e) => Err(format!(
            "{shown}: {}; {what_to_do} {account}.bin",
            e.replacen("`data`", "`account.data`", 1)
        )),
    }
}
