//! Token-2022's calls, as a team's Mollusk tests would make them: the
//! program loaded the way `mollusk-svm-programs-token-2022` loads it, its
//! accounts written in the program's own layout (the base `Mint` and
//! `Account` of spl-token, then the account type and each extension as
//! type, length and value), every call's result checked before it is
//! written as a fixture.

use solana_account::Account;
use solana_instruction::{AccountMeta, Instruction};
use solana_pubkey::Pubkey;

/// Token-2022's address.
pub const ID: Pubkey = mollusk_svm_programs_token_2022::ID;

/// The mints' decimals.
const DECIMALS: u8 = 6;

/// The extensions the calls use, by their `ExtensionType` number.
#[derive(Clone, Copy)]
enum Extension {
    /// A mint's transfer fee (108 bytes).
    TransferFeeConfig = 1,
    /// An account's fees withheld from transfers into it (8 bytes).
    TransferFeeAmount = 2,
    /// Whether an account requires a memo before each transfer into it (1 byte).
    MemoTransfer = 8,
}

/// `AccountType`, the byte after the base state where extensions follow.
const MINT_TYPE: u8 = 1;
const ACCOUNT_TYPE: u8 = 2;
/// The base account's length, where a mint's extensions begin too.
const ACCOUNT_LEN: usize = 165;

/// `base` (a mint's or an account's state) with `extensions` after it: the
/// base padded to an account's length, its account type, then each
/// extension's type, length and value.
fn with_extensions(mut base: Vec<u8>, kind: u8, extensions: &[(Extension, Vec<u8>)]) -> Vec<u8> {
    if extensions.is_empty() {
        return base;
    }
    base.resize(ACCOUNT_LEN, 0);
    base.push(kind);
    for (extension, value) in extensions {
        base.extend_from_slice(&(*extension as u16).to_le_bytes());
        base.extend_from_slice(&(value.len() as u16).to_le_bytes());
        base.extend_from_slice(value);
    }
    base
}

/// An initialized mint: `authority` may mint, `supply` minted, no freeze
/// authority.
fn mint(authority: &Pubkey, supply: u64, extensions: &[(Extension, Vec<u8>)]) -> Vec<u8> {
    let mut data = vec![0u8; 82];
    data[0] = 1; // COption::Some
    data[4..36].copy_from_slice(authority.as_ref());
    data[36..44].copy_from_slice(&supply.to_le_bytes());
    data[44] = DECIMALS;
    data[45] = 1; // initialized
    with_extensions(data, MINT_TYPE, extensions)
}

/// An initialized token account of `mint` held by `owner`.
fn account(
    mint: &Pubkey,
    owner: &Pubkey,
    amount: u64,
    extensions: &[(Extension, Vec<u8>)],
) -> Vec<u8> {
    let mut data = vec![0u8; ACCOUNT_LEN];
    data[0..32].copy_from_slice(mint.as_ref());
    data[32..64].copy_from_slice(owner.as_ref());
    data[64..72].copy_from_slice(&amount.to_le_bytes());
    data[108] = 1; // AccountState::Initialized
    with_extensions(data, ACCOUNT_TYPE, extensions)
}

/// A token account's balance.
pub fn amount(data: &[u8]) -> u64 {
    u64::from_le_bytes(data[64..72].try_into().expect("a token account"))
}

/// A transfer fee of `basis_points`, up to `maximum`, from epoch 0 (both
/// the older and the newer fee, as a mint initialized with one has them).
fn transfer_fee_config(authority: &Pubkey, basis_points: u16, maximum: u64) -> Vec<u8> {
    let fee = [
        &0u64.to_le_bytes()[..],
        &maximum.to_le_bytes(),
        &basis_points.to_le_bytes(),
    ]
    .concat();
    [
        authority.as_ref(),
        authority.as_ref(),
        &0u64.to_le_bytes(),
        &fee,
        &fee,
    ]
    .concat()
}

/// The transfer fee the calls' fee mint charges: 1%, up to 1,000,000.
pub const FEE_BASIS_POINTS: u16 = 100;

/// The fee withheld in a token account of a fee mint.
pub fn withheld(data: &[u8]) -> u64 {
    // The account type, then TransferFeeAmount's type and length.
    let at = ACCOUNT_LEN + 1 + 4;
    u64::from_le_bytes(data[at..at + 8].try_into().expect("a fee mint's account"))
}

/// What a call is expected to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    Succeeds,
    /// Fails with `Custom(code)`, the program's `TokenError`.
    Fails(u32),
}

/// One call: its fixture's name, what it is to do, and the instruction
/// with its accounts.
pub struct Call {
    pub name: &'static str,
    pub expect: Expect,
    pub instruction: Instruction,
    pub accounts: Vec<(Pubkey, Account)>,
}

/// The calls most transactions make of Token-2022 (the instructions
/// named in docs/toolchain.md), two with extensions (a transfer with the
/// transfer-fee extension, and memos required on an account) and two
/// refusals, with each account's rent-exempt lamports from `rent`.
pub fn calls(rent: &dyn Fn(usize) -> u64) -> Vec<Call> {
    let key = |n: u8| Pubkey::new_from_array([n; 32]);
    let (mint_key, fee_mint_key, alice, bob, owner, delegate) =
        (key(1), key(2), key(3), key(4), key(5), key(6));
    let owned = |data: Vec<u8>| Account {
        lamports: rent(data.len()),
        data,
        owner: ID,
        executable: false,
        rent_epoch: 0,
    };
    let signer = Account::new(1_000_000_000, 0, &solana_sdk_ids::system_program::id());
    let tag_amount = |tag: u8, amount: u64| [&[tag][..], &amount.to_le_bytes()].concat();
    let checked = |tag: u8, amount: u64| [tag_amount(tag, amount), vec![DECIMALS]].concat();
    let fee_amount = (Extension::TransferFeeAmount, vec![0u8; 8]);
    let memo = |required: u8| (Extension::MemoTransfer, vec![required]);
    let plain =
        |holder: Pubkey, tokens: u64| (holder, owned(account(&mint_key, &owner, tokens, &[])));
    let plain_mint = |supply: u64| (mint_key, owned(mint(&owner, supply, &[])));
    let fee_mint = (
        fee_mint_key,
        owned(mint(
            &owner,
            1_000,
            &[(
                Extension::TransferFeeConfig,
                transfer_fee_config(&owner, FEE_BASIS_POINTS, 1_000_000),
            )],
        )),
    );
    let fee_holding = |holder: Pubkey, tokens: u64| {
        (
            holder,
            owned(account(
                &fee_mint_key,
                &owner,
                tokens,
                std::slice::from_ref(&fee_amount),
            )),
        )
    };
    let memo_holding = |holder: Pubkey, required: u8| {
        (
            holder,
            owned(account(&mint_key, &owner, 0, &[memo(required)])),
        )
    };
    let signs = (owner, signer.clone());
    let call = |name, expect, data: Vec<u8>, metas: Vec<((Pubkey, Account), bool, bool)>| {
        let instruction = Instruction {
            program_id: ID,
            accounts: metas
                .iter()
                .map(|((key, _), writable, signs)| AccountMeta {
                    pubkey: *key,
                    is_writable: *writable,
                    is_signer: *signs,
                })
                .collect(),
            data,
        };
        Call {
            name,
            expect,
            instruction,
            accounts: metas.into_iter().map(|(keyed, ..)| keyed).collect(),
        }
    };
    let w = |keyed| (keyed, true, false);
    let r = |keyed| (keyed, false, false);
    let s = || (signs.clone(), false, true);
    vec![
        call(
            "initialize_account3",
            Expect::Succeeds,
            [&[18u8][..], owner.as_ref()].concat(),
            vec![w((alice, owned(vec![0; ACCOUNT_LEN]))), r(plain_mint(0))],
        ),
        call(
            "mint_to",
            Expect::Succeeds,
            tag_amount(7, 500),
            vec![w(plain_mint(0)), w(plain(alice, 0)), s()],
        ),
        call(
            "transfer",
            Expect::Succeeds,
            tag_amount(3, 200),
            vec![w(plain(alice, 500)), w(plain(bob, 0)), s()],
        ),
        call(
            "transfer_checked",
            Expect::Succeeds,
            checked(12, 200),
            vec![
                w(plain(alice, 500)),
                r(plain_mint(500)),
                w(plain(bob, 0)),
                s(),
            ],
        ),
        call(
            "burn",
            Expect::Succeeds,
            tag_amount(8, 200),
            vec![w(plain(alice, 500)), w(plain_mint(500)), s()],
        ),
        call(
            "approve",
            Expect::Succeeds,
            tag_amount(4, 200),
            vec![w(plain(alice, 500)), r((delegate, signer.clone())), s()],
        ),
        call(
            "close_account",
            Expect::Succeeds,
            vec![9],
            vec![w(plain(alice, 0)), w((bob, signer.clone())), s()],
        ),
        call(
            "transfer_checked_with_fee_extension",
            Expect::Succeeds,
            checked(12, 200),
            vec![
                w(fee_holding(alice, 500)),
                r(fee_mint.clone()),
                w(fee_holding(bob, 0)),
                s(),
            ],
        ),
        call(
            "enable_required_memo_transfers",
            Expect::Succeeds,
            vec![30, 0],
            vec![w(memo_holding(bob, 0)), s()],
        ),
        // Mollusk runs one instruction, so no memo precedes it: TokenError::NoMemo.
        call(
            "transfer_checked_to_memo_required",
            Expect::Fails(36),
            checked(12, 200),
            vec![
                w(plain(alice, 500)),
                r(plain_mint(500)),
                w(memo_holding(bob, 1)),
                s(),
            ],
        ),
        // TokenError::InsufficientFunds.
        call(
            "transfer_insufficient",
            Expect::Fails(1),
            tag_amount(3, 900),
            vec![w(plain(alice, 500)), w(plain(bob, 0)), s()],
        ),
    ]
}
