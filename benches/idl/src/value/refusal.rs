//! What no value can be generated for: too large to hold, or a zero-copy
//! account with no zero-copy layout.

use super::types::Lengths;
use crate::{
    layout::struct_layout,
    model::{Struct, Ty},
};

/// The most data an account may hold (10 MiB): no generated value may
/// need more.
pub const MAX_DATA_LEN: u64 = 10 * 1024 * 1024;

/// At least the bytes the `full` instance of `ty` encodes to (every
/// option `Some`, every list of `lengths.list` items, every string of
/// `lengths.string` bytes, each enum's largest variant), each item of an
/// array counted as at least one byte (a million empty structs are a
/// million values to generate); saturating.
pub fn full_len(ty: &Ty, lengths: Lengths) -> u64 {
    let fields = |fields: &[crate::model::Field]| {
        fields
            .iter()
            .fold(0u64, |sum, f| sum.saturating_add(full_len(&f.ty, lengths)))
    };
    let list = lengths.list as u64;
    match ty {
        Ty::Bool | Ty::ShortU16 => 1,
        Ty::Int { bytes, .. }
        | Ty::Float { bytes }
        | Ty::BigEndian { bytes, .. }
        | Ty::Length { bytes, .. } => u64::from(*bytes),
        Ty::Pubkey => 32,
        Ty::Array(item, len) => full_len(item, lengths).max(1).saturating_mul(*len as u64),
        Ty::Struct(s) => fields(&s.fields),
        Ty::Enum(e) => u64::from(e.tag).saturating_add(
            e.variants
                .iter()
                .map(|v| fields(&v.fields))
                .max()
                .unwrap_or(0),
        ),
        Ty::Option(item) | Ty::TaggedOption { item, .. } | Ty::ZeroableOption(item) => {
            full_len(item, lengths).saturating_add(4)
        }
        Ty::Vec(item) | Ty::List { item, .. } => full_len(item, lengths)
            .max(1)
            .saturating_mul(list)
            .saturating_add(4),
        Ty::String | Ty::Bytes | Ty::Text(_) => (lengths.string as u64).saturating_add(4),
        Ty::Map { key, value, .. } => full_len(key, lengths)
            .saturating_add(value.as_deref().map_or(0, |v| full_len(v, lengths)))
            .max(1)
            .saturating_mul(list)
            .saturating_add(4),
    }
}

/// Refuses each account, instruction and event no value can be generated
/// for: one that would take more than [`MAX_DATA_LEN`] (an array of 2^40
/// items, lists of lists of large arrays: nothing could hold it, and
/// generating it would not end), and a zero-copy account whose record has
/// no zero-copy layout (a string in it).
pub fn refuse_unmeasurable(program: &mut crate::model::Program, lengths: Lengths) {
    use crate::model::Unsupported;
    fn check<T>(
        items: &mut [Result<T, Unsupported>],
        lengths: Lengths,
        parts: impl Fn(&T) -> (&str, &Struct),
    ) {
        for item in items.iter_mut() {
            let Ok(resolved) = item else { continue };
            let (name, record) = parts(resolved);
            let len = full_len(&Ty::Struct(record.clone()), lengths);
            if len > MAX_DATA_LEN {
                let shown = if len == u64::MAX {
                    "2^64 or more".to_string()
                } else {
                    len.to_string()
                };
                *item = Err(Unsupported {
                    name: name.to_string(),
                    reason: format!(
                        "its generated value takes {shown} bytes, more than an account may hold (10 MiB); a smaller VEC_LEN or STRING_LEN may fit"
                    ),
                });
            }
        }
    }
    check(&mut program.accounts, lengths, |a| (&a.name, &a.record));
    check(&mut program.instructions, lengths, |i| (&i.name, &i.args));
    check(&mut program.events, lengths, |e| (&e.name, &e.record));
    for item in program.accounts.iter_mut() {
        let Ok(account) = item else { continue };
        if let Some(packed) = account.kind.memory()
            && let Err(reason) = struct_layout(&account.record, packed)
        {
            *item = Err(Unsupported {
                name: account.name.clone(),
                reason: format!("a zero-copy account with no zero-copy layout: {reason}"),
            });
        }
    }
}
