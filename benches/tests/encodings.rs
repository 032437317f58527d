//! Every crate agrees on the bytes: each fixed-width one encodes the same
//! `Account` to its raw `repr(C)` bytes and decodes those bytes back to an
//! equal value; each varint one encodes it to the contract's encoding
//! (benches/src/token/record.rs, written from the format's specification) and
//! decodes that back.

use benches::token::{Encoding, fixture, raw_fixture};
use common::token::{Account, NEW_AMOUNT};

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

#[test]
fn rkyv_agrees() {
    use rkyv::rancor::Error;
    let bytes = rkyv::to_bytes::<Error>(&account()).unwrap();
    assert_eq!(bytes.as_slice(), fixture().as_slice());
    let archived = rkyv::access::<common::token::ArchivedAccount, Error>(&bytes).unwrap();
    assert_eq!(
        rkyv::deserialize::<Account, Error>(archived).unwrap(),
        account()
    );
}

#[test]
fn light_zero_copy_agrees() {
    use light_zero_copy::traits::ZeroCopyAt;
    let data = fixture();
    let (view, rest) = Account::zero_copy_at(&data).unwrap();
    assert!(rest.is_empty());
    let expected = account();
    assert_eq!(
        (view.mint, view.owner, u64::from(view.amount), view.delegate),
        (
            expected.mint,
            expected.owner,
            expected.amount,
            expected.delegate
        )
    );
    assert_eq!(
        (view.state, view._padding, u64::from(view.native_amount)),
        (expected.state, expected._padding, expected.native_amount)
    );
    assert_eq!(
        (u64::from(view.delegated_amount), view.close_authority),
        (expected.delegated_amount, expected.close_authority)
    );
}

/// Accounts whose integers take every varint width: the fixture (large),
/// zero, the new amount, and the extremes of each width.
fn varint_accounts() -> Vec<Account> {
    let widths = [
        0,
        127,
        128,
        250,
        251,
        65_535,
        65_536,
        NEW_AMOUNT,
        u32::MAX as u64 + 1,
        u64::MAX,
    ];
    let mut accounts = vec![account()];
    for (i, &value) in widths.iter().enumerate() {
        accounts.push(Account {
            amount: value,
            native_amount: widths[(i + 3) % widths.len()],
            delegated_amount: widths[(i + 7) % widths.len()],
            ..account()
        });
    }
    accounts
}

fn raw_of(account: &Account) -> [u8; 160] {
    bytemuck::bytes_of(account).try_into().unwrap()
}

#[test]
fn postcard_agrees() {
    for account in varint_accounts() {
        let encoded = postcard::to_allocvec(&account).unwrap();
        assert_eq!(
            encoded,
            Encoding::Postcard.encode(&raw_of(&account)),
            "{account:?}"
        );
        assert_eq!(postcard::from_bytes::<Account>(&encoded).unwrap(), account);
    }
    let fixture = Encoding::Postcard.fixture();
    assert_eq!(
        postcard::from_bytes::<Account>(&fixture).unwrap(),
        account()
    );
    assert_eq!(Encoding::Postcard.decode(&fixture), Some(raw_fixture()));
}

#[test]
fn bincode_varint_agrees() {
    let config = bincode::config::standard();
    for account in varint_accounts() {
        let encoded = bincode::encode_to_vec(account, config).unwrap();
        assert_eq!(
            encoded,
            Encoding::BincodeVarint.encode(&raw_of(&account)),
            "{account:?}"
        );
        let (decoded, read): (Account, usize) =
            bincode::decode_from_slice(&encoded, config).unwrap();
        assert_eq!((decoded, read), (account, encoded.len()));
    }
    let fixture = Encoding::BincodeVarint.fixture();
    let (decoded, _): (Account, usize) = bincode::decode_from_slice(&fixture, config).unwrap();
    assert_eq!(decoded, account());
}
