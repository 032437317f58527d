//! All six crates agree on the bytes: each encodes the same `Account` to its
//! raw `repr(C)` bytes and decodes those bytes back to an equal value.

use benches::contract::fixture;
use common::token::Account;

/// The fixture, field by field in contract order (not through any crate).
fn account() -> Account {
    let raw = fixture();
    let bytes32 = |at: usize| -> [u8; 32] { raw[at..at + 32].try_into().unwrap() };
    let u64_at = |at: usize| u64::from_le_bytes(raw[at..at + 8].try_into().unwrap());
    Account {
        mint: bytes32(0),
        owner: bytes32(32),
        amount: u64_at(64),
        delegate: bytes32(72),
        state: raw[104],
        _padding: raw[105..112].try_into().unwrap(),
        native_amount: u64_at(112),
        delegated_amount: u64_at(120),
        close_authority: bytes32(128),
    }
}

#[test]
fn raw_layout_is_the_fixture() {
    let account = account();
    // SAFETY: `Account` is `repr(C)`, 160 bytes, with no padding (asserted in
    // `common`), so all of its bytes are initialized.
    let raw = unsafe {
        std::slice::from_raw_parts((&account as *const Account).cast::<u8>(), Account::LEN)
    };
    assert_eq!(raw, fixture().as_slice());
}

#[test]
fn bytemuck_agrees() {
    assert_eq!(bytemuck::bytes_of(&account()), fixture().as_slice());
    assert_eq!(*bytemuck::from_bytes::<Account>(&fixture()), account());
}

#[test]
fn zerocopy_agrees() {
    use zerocopy::{FromBytes, IntoBytes};
    assert_eq!(account().as_bytes(), fixture().as_slice());
    assert_eq!(Account::read_from_bytes(&fixture()).unwrap(), account());
}

#[test]
fn borsh_agrees() {
    assert_eq!(borsh::to_vec(&account()).unwrap(), fixture());
    assert_eq!(borsh::from_slice::<Account>(&fixture()).unwrap(), account());
}

#[test]
fn bincode_agrees() {
    let config = bincode::config::standard().with_fixed_int_encoding();
    assert_eq!(
        bincode::encode_to_vec(account(), config).unwrap(),
        fixture()
    );
    let (decoded, read): (Account, usize) = bincode::decode_from_slice(&fixture(), config).unwrap();
    assert_eq!((decoded, read), (account(), Account::LEN));
}

#[test]
fn wincode_agrees() {
    use wincode::ZeroCopy;
    assert_eq!(wincode::serialize(&account()).unwrap(), fixture());
    assert_eq!(
        wincode::deserialize::<Account>(&fixture()).unwrap(),
        account()
    );
    assert_eq!(*Account::from_bytes(&fixture()).unwrap(), account());
}
