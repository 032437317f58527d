//! How the report names a discriminator and an account's kind, in both
//! its files.

use crate::model::{Account, Kind};

/// Bytes in hex, as the IDL's discriminators are compared.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The account's kind as the summary and the records name it.
pub fn kind_name(account: &Account) -> &'static str {
    match (account.kind, account.assumed) {
        (_, true) if account.kind == Kind::Borsh => "borsh (assumed)",
        (_, true) => "zero-copy (assumed)",
        (Kind::Borsh, _) => "borsh",
        (Kind::ZeroCopy { packed: false }, _) => "zero-copy",
        (Kind::ZeroCopy { packed: true }, _) => "zero-copy, packed",
        (Kind::Codama, _) => "Codama (the bytes described)",
        (Kind::FixedCapacity, _) => "fixed capacity",
    }
}
