//! Each account's instances: the user's own bytes (`DATA=`), decoded with
//! the model, or the generated ones.

use std::collections::BTreeMap;

use super::Options;
use crate::{
    capacity::{Capacities, fixed},
    guard, input, measure,
    model::{self, Program},
    value,
};

/// Each account's instances: its bytes from `DATA=` where there is a file,
/// decoded with the model (every decode error named, with its byte), else
/// the generated ones.
pub(super) fn instances(
    program: &mut Program,
    options: &Options,
) -> Result<BTreeMap<String, Vec<measure::Instance>>, String> {
    let mut all = BTreeMap::new();
    let mut errors = Vec::new();
    for entry in program.accounts.iter_mut() {
        let Ok(account) = entry else { continue };
        guard::stage("generating instances", &account.name);
        let real = match &options.data {
            Some(dir) => input::account_data(dir, &account.name)?,
            None => None,
        };
        let instances = match real {
            Some((file, bytes)) => match value::decode_account(account, &bytes) {
                // A legacy account assumed borsh whose data is exactly its
                // zero-copy layout's length, which is not borsh's: it was
                // read with the wrong layout.
                Ok((_, tail))
                    if !tail.is_empty() && !zero_copy_hint(account, bytes.len()).is_empty() =>
                {
                    errors.push(format!(
                        "{file}: account `{}` is {} bytes, its zero-copy layout's size, not borsh's ({}){}",
                        account.name,
                        bytes.len(),
                        bytes.len() - tail.len(),
                        zero_copy_hint(account, bytes.len())
                    ));
                    continue;
                }
                Ok((record, tail)) => vec![measure::Instance {
                    name: "data",
                    record,
                    tail,
                }],
                Err(e) => {
                    errors.push(format!(
                        "{file}: account `{}` does not decode at byte {}: {}{}",
                        account.name,
                        e.at,
                        e.what,
                        zero_copy_hint(account, bytes.len())
                    ));
                    continue;
                }
            },
            None => match guard::caught(|| measure::generated(account, options.lengths)) {
                Ok(generated) => generated,
                Err(reason) => {
                    *entry = Err(model::Unsupported {
                        name: account.name.clone(),
                        reason,
                    });
                    continue;
                }
            },
        };
        all.insert(account.name.clone(), instances);
    }
    if errors.is_empty() {
        Ok(all)
    } else {
        Err(format!(
            "DATA: {} (is it this IDL's account, at the version the IDL describes?)",
            errors.join("; ")
        ))
    }
}

/// Where a legacy IDL's account was assumed borsh and its data has exactly
/// the length of its zero-copy layout: the likely cause, and what to say.
fn zero_copy_hint(account: &model::Account, len: usize) -> String {
    let as_zero_copy = model::Account {
        kind: model::Kind::ZeroCopy { packed: false },
        ..account.clone()
    };
    let fits = crate::layout::account_len(&as_zero_copy).ok().flatten() == Some(len);
    if account.assumed && account.kind == model::Kind::Borsh && fits {
        format!(
            " ({len} bytes is its zero-copy layout's size: if `{0}` is `#[account(zero_copy)]`, say ZERO_COPY={0})",
            account.name
        )
    } else {
        String::new()
    }
}

/// The fixed-capacity move of each account type sized at every field
/// ([`capacity::Sized::capacities`]): its generated instances cut to the
/// capacities (so every path runs one record that fits), then the
/// fixed-capacity account added to `program` with those instances in its
/// type. What cannot be moved, or an instance that does not fit (the
/// user's `DATA=`), is a note of `capacities`.
pub(super) fn fixed_capacity(
    program: &mut Program,
    capacities: &mut Capacities,
    instances: &mut BTreeMap<String, Vec<measure::Instance>>,
) {
    for sized in &capacities.types {
        let Some(caps) = sized.capacities() else {
            continue;
        };
        let Some(account) = program.account(&sized.account).cloned() else {
            continue;
        };
        let Some(held) = instances.get_mut(&account.name) else {
            continue;
        };
        for instance in held.iter_mut().filter(|i| i.name != "data") {
            instance.record = fixed::clamp(&account, &caps, &instance.record);
        }
        let moved = match fixed::account(&account, &caps) {
            Ok(moved) => moved,
            Err(why) => {
                capacities.notes.push(format!(
                    "`{}`: no fixed-capacity program: {why}",
                    account.name
                ));
                continue;
            }
        };
        let mut fitting = Vec::new();
        for instance in held.iter() {
            match fixed::value(&account, &caps, &instance.record) {
                Ok(record) => fitting.push(measure::Instance {
                    name: instance.name,
                    record,
                    tail: instance.tail.clone(),
                }),
                Err(why) => capacities.notes.push(format!(
                    "`{}`'s `{}` instance does not fit its capacities ({why}): its fixed-capacity path is not measured on it",
                    account.name, instance.name
                )),
            }
        }
        if fitting.is_empty() {
            continue;
        }
        instances.insert(moved.name.clone(), fitting);
        program.accounts.push(Ok(moved));
    }
}
