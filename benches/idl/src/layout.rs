//! The bytes an account holds: where each field sits in a zero-copy
//! account, and how long a borsh account is.
//!
//! Zero-copy accounts are laid out as the program's own build lays them
//! out: `repr(C)` with Solana's SBF rules, every primitive aligned to its
//! size except `u128`/`i128`, aligned to 8 (platform-tools' data layout);
//! or, for `repr(packed)`, with no padding at all. This is *not* what
//! `repr(C)` gives on this project's build target or an x86_64 host, where
//! `u128` aligns to 16 (`i128:128`): the generator reproduces these offsets
//! itself rather than trusting the compiler's.

pub use crate::model::encoded_len;
use crate::model::{Account, Count, Struct, Ty};

/// A type's size and alignment in a zero-copy account.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub size: usize,
    pub align: usize,
}

/// Where a struct's fields sit: each field's offset, and the struct's own
/// layout (its size includes the trailing padding).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StructLayout {
    pub offsets: Vec<usize>,
    pub layout: Layout,
}

/// Why a size past `usize` has no layout.
const TOO_LARGE: &str = "larger than any memory (its size overflows)";

/// The zero-copy layout of `ty`; `packed` where an enclosing struct is
/// `repr(packed)` (everything inside aligns to 1). What has no fixed
/// memory layout (strings, vecs, options, enums with data) is refused.
pub fn zero_copy(ty: &Ty, packed: bool) -> Result<Layout, String> {
    let align = |natural: usize| if packed { 1 } else { natural };
    let layout = |size: usize, natural: usize| {
        Ok(Layout {
            size,
            align: align(natural),
        })
    };
    match ty {
        Ty::Bool => layout(1, 1),
        // SBF: `u128`/`i128` align to 8.
        Ty::Int { bytes, .. } => layout(*bytes as usize, (*bytes as usize).min(8)),
        Ty::Float { bytes } => layout(*bytes as usize, *bytes as usize),
        Ty::Pubkey => layout(32, 1),
        Ty::Array(inner, len) => {
            let inner = zero_copy(inner, packed)?;
            Ok(Layout {
                size: inner.size.checked_mul(*len).ok_or(TOO_LARGE)?,
                align: inner.align,
            })
        }
        Ty::Struct(s) => Ok(struct_layout(s, packed)?.layout),
        // A unit enum in a zero-copy type is its tag (`repr(u8)` in Anchor).
        Ty::Enum(e) if e.is_unit() && (e.tag > 1 || e.variants.len() <= 256) => {
            layout(e.tag as usize, e.tag as usize)
        }
        Ty::Enum(e) => Err(format!(
            "enum `{}` carries data, which has no layout a zero-copy account can hold",
            e.name
        )),
        Ty::Option(_) => Err("an `Option` has no fixed layout in a zero-copy account".into()),
        Ty::Vec(_) | Ty::String | Ty::Bytes => {
            Err("a `Vec`, string or bytes has no fixed layout in a zero-copy account".into())
        }
        Ty::Map { .. } => Err("a map or set has no fixed layout in a zero-copy account".into()),
        Ty::BigEndian { bytes, .. } | Ty::Length { bytes, .. } => {
            layout(*bytes as usize, (*bytes as usize).min(8))
        }
        Ty::TaggedOption {
            tag,
            fixed: true,
            item,
        } => Ok(Layout {
            size: zero_copy(item, true)?
                .size
                .checked_add(*tag as usize)
                .ok_or(TOO_LARGE)?,
            align: 1,
        }),
        Ty::TaggedOption { .. } => Err("an option that is not `fixed` has no fixed layout".into()),
        Ty::ZeroableOption(item) => zero_copy(item, packed),
        Ty::ShortU16 => Err("a `shortU16` (1 to 3 bytes) has no fixed layout".into()),
        Ty::List { .. } | Ty::Text(_) => {
            Err("a prefixed or remainder list or string has no fixed layout".into())
        }
    }
}

/// Each field's offset in `s`, `repr(C)` (or packed: where `s` or an
/// enclosing struct is).
pub fn struct_layout(s: &Struct, packed: bool) -> Result<StructLayout, String> {
    let packed = packed || s.packed;
    let mut offsets = Vec::with_capacity(s.fields.len());
    let mut at = 0usize;
    let mut align = 1;
    for field in &s.fields {
        let layout = zero_copy(&field.ty, packed)
            .map_err(|e| format!("type `{}`, field `{}`: {e}", s.name, field.name))?;
        at = at.checked_next_multiple_of(layout.align).ok_or(TOO_LARGE)?;
        offsets.push(at);
        at = at.checked_add(layout.size).ok_or(TOO_LARGE)?;
        align = align.max(layout.align);
    }
    Ok(StructLayout {
        offsets,
        layout: Layout {
            size: at.checked_next_multiple_of(align).ok_or(TOO_LARGE)?,
            align,
        },
    })
}

/// The account's length, discriminator included, where it is fixed: the
/// zero-copy layout's size, or borsh's fixed length.
pub fn account_len(account: &Account) -> Result<Option<usize>, String> {
    let body = match account.kind.memory() {
        Some(packed) => Some(struct_layout(&account.record, packed)?.layout.size),
        None => encoded_len(&Ty::Struct(account.record.clone())),
    };
    Ok(body.map(|len| account.discriminator.len() + len))
}

/// An account whose last field runs to the end of the data (a Codama
/// remainder of fixed-size items, such as the address lookup table's
/// addresses): the fixed bytes before it, discriminator included, and each
/// item's size.
pub fn header_and_item(account: &Account) -> Option<(usize, usize)> {
    let (last, before) = account.record.fields.split_last()?;
    let item = match &last.ty {
        Ty::List {
            item,
            count: Count::Remainder,
        } => encoded_len(item)?,
        Ty::Text(Count::Remainder) => 1,
        _ => return None,
    };
    let header: usize = before
        .iter()
        .map(|f| encoded_len(&f.ty))
        .sum::<Option<usize>>()?;
    Some((account.discriminator.len() + header, item))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Enum, Field, Variant};

    fn int(bytes: u8) -> Ty {
        Ty::Int {
            bytes,
            signed: false,
        }
    }

    fn record(fields: Vec<Ty>, packed: bool) -> Struct {
        Struct {
            name: "T".into(),
            ident: "T".into(),
            fields: fields
                .into_iter()
                .enumerate()
                .map(|(i, ty)| Field {
                    name: format!("f{i}"),
                    ty,
                })
                .collect(),
            packed,
        }
    }

    fn offsets_and_size(fields: Vec<Ty>, packed: bool) -> (Vec<usize>, usize) {
        let layout = struct_layout(&record(fields, packed), false).unwrap();
        (layout.offsets, layout.layout.size)
    }

    #[test]
    fn u128_after_u64_aligns_to_8_as_sbf_does() {
        // On x86_64 or bpfel-unknown-none `repr(C)` puts it at 16 (size 32).
        assert_eq!(
            offsets_and_size(vec![int(8), int(16)], false),
            (vec![0, 8], 24)
        );
        assert_eq!(
            offsets_and_size(vec![int(1), int(16)], false),
            (vec![0, 8], 24)
        );
        assert_eq!(
            offsets_and_size(vec![int(16), int(1)], false),
            (vec![0, 16], 24)
        );
    }

    #[test]
    fn packed_has_no_padding() {
        assert_eq!(
            offsets_and_size(vec![int(1), int(16)], true),
            (vec![0, 1], 17)
        );
        assert_eq!(
            offsets_and_size(vec![int(1), int(8), int(2)], true),
            (vec![0, 1, 9], 11)
        );
        // A packed struct nested in a `repr(C)` one aligns to 1 there.
        let inner = Ty::Struct(record(vec![int(1), int(8)], true));
        assert_eq!(
            offsets_and_size(vec![int(1), inner], false),
            (vec![0, 1], 10)
        );
    }

    #[test]
    fn arrays_nest_and_keep_their_elements_alignment() {
        let nested = Ty::Array(Box::new(Ty::Array(Box::new(int(2)), 3)), 2);
        assert_eq!(
            zero_copy(&nested, false).unwrap(),
            Layout { size: 12, align: 2 }
        );
        // A 33-byte array, then a u64 at the next multiple of 8.
        let bytes33 = Ty::Array(Box::new(int(1)), 33);
        assert_eq!(
            offsets_and_size(vec![bytes33, int(8)], false),
            (vec![0, 40], 48)
        );
        // Trailing padding to the struct's alignment.
        assert_eq!(
            offsets_and_size(vec![int(8), Ty::Bool], false),
            (vec![0, 8], 16)
        );
    }

    #[test]
    fn what_has_no_fixed_layout_is_refused_by_name() {
        let with_data = Ty::Enum(Enum {
            name: "E".into(),
            ident: "E".into(),
            tag: 1,
            variants: vec![Variant {
                name: "A".into(),
                fields: vec![Field {
                    name: "0".into(),
                    ty: int(8),
                }],
            }],
        });
        let err = struct_layout(&record(vec![int(8), with_data], false), false).unwrap_err();
        assert_eq!(
            err,
            "type `T`, field `f1`: enum `E` carries data, which has no layout a zero-copy account can hold"
        );
        assert!(struct_layout(&record(vec![Ty::String], false), false).is_err());
    }

    #[test]
    fn borsh_lengths_are_fixed_only_without_variable_parts() {
        let fixed = Ty::Struct(record(vec![int(8), Ty::Pubkey, Ty::Bool, int(16)], false));
        assert_eq!(encoded_len(&fixed), Some(8 + 32 + 1 + 16));
        let variable = Ty::Struct(record(vec![int(8), Ty::Option(Box::new(int(8)))], false));
        assert_eq!(encoded_len(&variable), None);
    }
}
