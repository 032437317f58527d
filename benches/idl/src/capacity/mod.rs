//! The fixed-capacity move's sizing, from the accounts a team holds: each
//! variable field of an account type (a string, bytes, a list or a map,
//! inside an option, a struct or an enum's variant as the IDL nests them)
//! given a capacity, the largest length the team's accounts
//! (`ACCOUNTS=`, [`crate::input::accounts`]) hold unless `CAPACITY=` sets
//! it ([`Choices`]); then the record's bytes at those capacities, its
//! rent-exempt minimum, and how many of the accounts fit.
//!
//! The layout sized is the one the project's fixed-capacity records use
//! (`common::metadata::FixedCapacity`): no padding, a length in the
//! fewest bytes that hold its capacity (one up to 255) before its inline
//! bytes or items, an option as a flag byte and its value, an enum as a
//! tag byte and its largest variant.

pub mod fixed;
pub mod report;
mod walk;

use std::collections::BTreeMap;

use solana_pubkey::Pubkey;

use crate::{
    input::accounts::{Held, Read},
    model::{Account, Program},
    value::decode_account,
};
pub use walk::{Variable, Varies, fixed_len, variables};

/// `CAPACITY=<Type.field=N,...>`: capacities set by hand, by the account
/// type's name and the field's path below it (`Metadata.data.name`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Choices(pub BTreeMap<(String, String), usize>);

impl Choices {
    /// Parses `CAPACITY=`'s list; `Err` names the entry that is not
    /// `Type.field=N`.
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut choices = BTreeMap::new();
        for entry in text.split(',').map(str::trim).filter(|e| !e.is_empty()) {
            let bad = |why: &str| {
                format!(
                    "CAPACITY={text}: `{entry}` {why}; give Type.field=N, as in CAPACITY=Metadata.name=32,Metadata.creators=5"
                )
            };
            let (path, n) = entry.split_once('=').ok_or_else(|| bad("has no `=N`"))?;
            let (account, field) = path
                .trim()
                .split_once('.')
                .ok_or_else(|| bad("names no field (Type.field)"))?;
            let n: usize = n
                .trim()
                .parse()
                .map_err(|_| bad("does not end in a number of bytes or items"))?;
            choices.insert((account.to_string(), field.to_string()), n);
        }
        Ok(Self(choices))
    }
}

/// Where a capacity came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetBy {
    /// The largest length the accounts hold.
    Seen,
    /// `CAPACITY=`.
    Given,
}

/// One variable field sized.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldCapacity {
    pub variable: Variable,
    /// The largest length among the accounts, and the 99th percentile
    /// (nearest rank); `None` with no account.
    pub largest: Option<usize>,
    pub p99: Option<usize>,
    pub capacity: Option<(usize, SetBy)>,
}

/// One account type with variable fields, sized.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sized {
    pub account: String,
    pub fields: Vec<FieldCapacity>,
    /// The accounts read as this type, and the data lengths they have
    /// (their allocated space).
    pub held: Vec<usize>,
    /// Of them, those whose every length is within its capacity.
    pub fit: usize,
    /// The record at its capacities, and the account (its discriminator
    /// first): `None` while a field has no capacity.
    pub record_len: Option<usize>,
    pub account_len: Option<usize>,
}

impl Sized {
    /// Each variable field's capacity, by path; `None` while one has none.
    pub fn capacities(&self) -> Option<BTreeMap<String, usize>> {
        self.fields
            .iter()
            .map(|f| Some((f.variable.name.clone(), f.capacity?.0)))
            .collect()
    }

    /// The accounts' median and largest data length.
    pub fn today(&self) -> Option<(usize, usize)> {
        let mut lens = self.held.clone();
        lens.sort_unstable();
        Some((*lens.get(lens.len() / 2)?, *lens.last()?))
    }
}

/// Every account type's sizing, and what was not used, each named.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Capacities {
    pub types: Vec<Sized>,
    /// Accounts that are not one of the IDL's types, or do not decode;
    /// `CAPACITY=` entries that name nothing variable; capacities below a
    /// length seen.
    pub notes: Vec<String>,
    /// Whether anything was asked (`ACCOUNTS=` or `CAPACITY=`).
    pub asked: bool,
}

/// Sizes every account type of `program` with a variable field from the
/// `held` accounts (`ACCOUNTS=`) and the `choices` (`CAPACITY=`).
/// `address`, the program's, where the IDL gives it: an account another
/// program owns is named and left out.
pub fn size(
    program: &Program,
    address: Option<Pubkey>,
    held: Option<&Read>,
    choices: &Choices,
) -> Capacities {
    let accounts: Vec<&Account> = program.accounts.iter().flatten().collect();
    let mut out = Capacities {
        asked: held.is_some() || !choices.0.is_empty(),
        ..Capacities::default()
    };
    // Each account's lengths, per account type.
    let mut lengths: BTreeMap<&str, Vec<BTreeMap<String, usize>>> = BTreeMap::new();
    let mut held_lens: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    if let Some(read) = held {
        out.notes.extend(read.unreadable.iter().cloned());
        let mut others_in_fixtures = 0;
        for account in &read.accounts {
            match type_of(&accounts, address, account) {
                Ok((ty, record)) => {
                    let mut seen = BTreeMap::new();
                    walk::lengths(&ty.record, &record, &mut seen);
                    lengths.entry(&ty.name).or_default().push(seen);
                    held_lens
                        .entry(&ty.name)
                        .or_default()
                        .push(account.data.len());
                }
                // An instruction's other accounts (its payer, a sysvar)
                // are in every fixture: counted, not named.
                Err(Unused::NotATypeOf) if account.from_fixture => others_in_fixtures += 1,
                Err(unused) => out.notes.push(unused.describe(account, address)),
            }
        }
        if others_in_fixtures > 0 {
            out.notes.push(format!(
                "{others_in_fixtures} of the fixtures' accounts are none of the IDL's account types (an instruction's payer, programs, sysvars): left out"
            ));
        }
    }
    check_choices(&accounts, choices, &mut out.notes);
    for account in &accounts {
        let variables = variables(&account.record);
        if variables.is_empty() {
            continue;
        }
        let seen = lengths.remove(account.name.as_str()).unwrap_or_default();
        let fields: Vec<FieldCapacity> = variables
            .into_iter()
            .map(|variable| field_capacity(&account.name, variable, &seen, choices))
            .collect();
        for field in &fields {
            if let (Some(largest), Some((capacity, SetBy::Given))) = (field.largest, field.capacity)
                && capacity < largest
            {
                let over = seen
                    .iter()
                    .filter(|s| s.get(&field.variable.name).is_some_and(|&l| l > capacity))
                    .count();
                out.notes.push(format!(
                    "CAPACITY={}.{}={capacity} is below the longest seen ({largest} {}): {over} of {} accounts would not fit",
                    account.name,
                    field.variable.name,
                    field.variable.varies.unit(),
                    seen.len()
                ));
            }
        }
        let capacities: BTreeMap<String, usize> = fields
            .iter()
            .filter_map(|f| Some((f.variable.name.clone(), f.capacity?.0)))
            .collect();
        let fit = seen
            .iter()
            .filter(|lens| {
                lens.iter()
                    .all(|(name, len)| capacities.get(name).is_none_or(|cap| len <= cap))
            })
            .count();
        let record_len = fixed_len(&account.record, &capacities);
        out.types.push(Sized {
            account: account.name.clone(),
            fields,
            held: held_lens.remove(account.name.as_str()).unwrap_or_default(),
            fit,
            record_len,
            account_len: record_len.map(|len| account.discriminator.len() + len),
        });
    }
    out
}

/// A field's lengths over the accounts, and its capacity.
fn field_capacity(
    account: &str,
    variable: Variable,
    seen: &[BTreeMap<String, usize>],
    choices: &Choices,
) -> FieldCapacity {
    let mut lens: Vec<usize> = seen
        .iter()
        .map(|s| s.get(&variable.name).copied().unwrap_or(0))
        .collect();
    lens.sort_unstable();
    let largest = lens.last().copied();
    // The nearest rank: the smallest length at least 99% of the accounts
    // are within.
    let p99 = (!lens.is_empty()).then(|| lens[(lens.len() * 99).div_ceil(100) - 1]);
    let given = choices
        .0
        .get(&(account.to_string(), variable.name.clone()))
        .map(|&n| (n, SetBy::Given));
    FieldCapacity {
        capacity: given.or(largest.map(|l| (l, SetBy::Seen))),
        variable,
        largest,
        p99,
    }
}

/// `CAPACITY=` entries that name no account type, no field, or a field
/// that is not variable: each named.
fn check_choices(accounts: &[&Account], choices: &Choices, notes: &mut Vec<String>) {
    for (account_name, field) in choices.0.keys() {
        let entry = format!("CAPACITY={account_name}.{field}");
        let Some(account) = accounts.iter().find(|a| &a.name == account_name) else {
            let names: Vec<&str> = accounts.iter().map(|a| a.name.as_str()).collect();
            notes.push(format!(
                "{entry}: the IDL has no account type `{account_name}` (its account types: {}); left out",
                names.join(", ")
            ));
            continue;
        };
        let variables = variables(&account.record);
        if variables.iter().any(|v| &v.name == field) {
            continue;
        }
        let why = match walk::exists(&account.record, field) {
            true => "is not variable (its size is fixed already)",
            false => "is no field of it",
        };
        let names: Vec<&str> = variables.iter().map(|v| v.name.as_str()).collect();
        notes.push(format!(
            "{entry}: `{field}` {why}; `{account_name}`'s variable fields: {}; left out",
            if names.is_empty() {
                "none".to_string()
            } else {
                names.join(", ")
            }
        ));
    }
}

/// Why an account was left out.
enum Unused {
    /// Another program owns it.
    Owner(Pubkey),
    /// No account type's discriminator starts its data.
    NotATypeOf,
    /// Its type's layout does not decode from its bytes.
    Decode(String, String),
}

impl Unused {
    fn describe(&self, held: &Held, address: Option<Pubkey>) -> String {
        let source = &held.source;
        match self {
            Unused::Owner(owner) => format!(
                "{source}: owned by {owner}, not this program ({}): left out",
                address.map(|a| a.to_string()).unwrap_or_default()
            ),
            Unused::NotATypeOf => {
                let start: Vec<u8> = held.data.iter().take(8).copied().collect();
                format!(
                    "{source}: its data ({} bytes, starting {start:?}) starts with no account type's discriminator in the IDL: left out",
                    held.data.len()
                )
            }
            Unused::Decode(ty, why) => {
                format!("{source}: not a `{ty}` as the IDL lays it out ({why}): left out")
            }
        }
    }
}

/// The account type `held` is (by the longest discriminator its data
/// starts with) and its record decoded.
fn type_of<'a>(
    accounts: &[&'a Account],
    address: Option<Pubkey>,
    held: &Held,
) -> Result<(&'a Account, crate::value::Value), Unused> {
    let foreign = held
        .owner
        .filter(|&owner| address.is_some_and(|a| a != owner));
    // A dump of another program's account is named for its owner; a
    // fixture's is, only where its bytes are one of the IDL's types.
    if let Some(owner) = foreign
        && !held.from_fixture
    {
        return Err(Unused::Owner(owner));
    }
    let ty = accounts
        .iter()
        .filter(|a| !a.discriminator.is_empty() && held.data.starts_with(&a.discriminator))
        .max_by_key(|a| a.discriminator.len())
        .ok_or(Unused::NotATypeOf)?;
    if let Some(owner) = foreign {
        return Err(Unused::Owner(owner));
    }
    decode_account(ty, &held.data)
        .map(|(record, _)| (*ty, record))
        .map_err(|e| Unused::Decode(ty.name.clone(), format!("at byte {}: {}", e.at, e.what)))
}
