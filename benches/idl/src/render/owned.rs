//! borsh and wincode: the record as native types with the crate's
//! derives, decoded whole and encoded back (`Account<T>`'s way, and
//! Anchor 2's `BorshAccount<T>`'s).

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use super::{
    format::{AccountCodec, Serializer},
    target::Target,
    tokens::*,
};
use crate::model::{Count, Enum, Field, Scalar, Struct, Ty};

/// The derives of an owned format's types. `Clone`: borsh decodes a
/// `Box<T>` through `T: ToOwned`.
pub(super) fn owned_derives(serializer: Serializer) -> TokenStream {
    match serializer {
        Serializer::Wincode => quote!(#[derive(wincode::SchemaWrite, wincode::SchemaRead)]),
        _ => quote!(#[derive(Clone, borsh::BorshSerialize, borsh::BorshDeserialize)]),
    }
}

/// Every struct and enum reachable from `roots`, with the format's derives.
/// borsh's programs hold each map as the IDL declares it (a hash map or a
/// `BTreeMap`); wincode's, which has no hash map without `std`, hold every
/// map as a `BTreeMap` (the same bytes).
pub(super) fn owned_types(roots: &[&Struct], serializer: Serializer) -> TokenStream {
    let maps = match serializer {
        Serializer::Borsh => Maps::AsDeclared,
        _ => Maps::Sorted,
    };
    owned_types_with(roots, &owned_derives(serializer), maps)
}

/// How a generated program holds a map or set.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Maps {
    /// As the IDL declares it: `BTreeMap` where sorted, else
    /// `hashbrown::HashMap` with foldhash's fixed seed (a program has no
    /// randomness to seed one, and `no_std` has no `std::collections::HashMap`).
    AsDeclared,
    /// Every map a `BTreeMap`, every set a `BTreeSet`.
    Sorted,
}

/// Whether a program of `roots` in `format` holds a hash map or set, and so
/// depends on `hashbrown` and `foldhash`.
pub fn holds_hash_maps(roots: &[&Struct], serializer: Serializer) -> bool {
    fn hashed(ty: &Ty) -> bool {
        matches!(ty, Ty::Map { sorted: false, .. }) || ty.children().into_iter().any(hashed)
    }
    serializer == Serializer::Borsh && roots.iter().any(|r| r.fields.iter().any(|f| hashed(&f.ty)))
}

/// Every struct and enum reachable from `roots`, with `derives`.
pub(super) fn owned_types_with(
    roots: &[&Struct],
    derives: &TokenStream,
    maps: Maps,
) -> TokenStream {
    let items = reachable(roots)
        .into_values()
        .map(|named| owned_item(named, derives, maps, &quote!()));
    quote!(#(#items)*)
}

/// One struct or enum with `derives`, declared with `vis` (and a struct's
/// fields with it too: an Anchor program's types are `pub`).
pub(super) fn owned_item(
    named: Named,
    derives: &TokenStream,
    maps: Maps,
    vis: &TokenStream,
) -> TokenStream {
    match named {
        Named::Struct(s) => {
            let name = ident(&s.ident, true);
            let fields = owned_fields(&s.fields, maps);
            quote! {
                #derives
                #vis struct #name { #(#vis #fields),* }
            }
        }
        Named::Enum(e) => owned_enum(e, derives, maps, vis),
    }
}

/// Named fields as an owned type declares them: `name: Type`.
pub(super) fn owned_fields(fields: &[Field], maps: Maps) -> Vec<TokenStream> {
    fields
        .iter()
        .zip(field_idents(fields))
        .map(|(f, field)| {
            let ty = owned_ty(&f.ty, maps);
            quote!(#field: #ty)
        })
        .collect()
}

pub(super) fn owned_enum(
    e: &Enum,
    derives: &TokenStream,
    maps: Maps,
    vis: &TokenStream,
) -> TokenStream {
    let name = ident(&e.ident, true);
    let variants = e
        .variants
        .iter()
        .zip(variant_idents(e))
        .map(|(v, variant)| {
            let tuple = v.fields.iter().all(|f| f.name.parse::<usize>().is_ok());
            if v.fields.is_empty() {
                quote!(#variant)
            } else if tuple {
                let types = v.fields.iter().map(|f| owned_ty(&f.ty, maps));
                quote!(#variant(#(#types),*))
            } else {
                let fields = owned_fields(&v.fields, maps);
                quote!(#variant { #(#fields),* })
            }
        });
    quote! {
        #[allow(dead_code)]
        #derives
        #vis enum #name { #(#variants),* }
    }
}

pub(super) fn owned_ty(ty: &Ty, maps: Maps) -> TokenStream {
    match ty {
        Ty::Bool => quote!(bool),
        Ty::Int { bytes, signed } => {
            let name = format_ident!("{}{}", if *signed { "i" } else { "u" }, 8 * *bytes as usize);
            quote!(#name)
        }
        Ty::Float { bytes: 4 } => quote!(f32),
        Ty::Float { .. } => quote!(f64),
        Ty::Pubkey => quote!([u8; 32]),
        Ty::Length { .. } => unreachable!("{FIXED_CAPACITY_ONLY}"),
        Ty::Array(inner, len) => {
            let inner = owned_ty(inner, maps);
            let len = Literal::usize_unsuffixed(*len);
            quote!([#inner; #len])
        }
        Ty::Struct(s) => {
            let name = ident(&s.ident, true);
            quote!(#name)
        }
        Ty::Enum(e) => {
            let name = ident(&e.ident, true);
            quote!(#name)
        }
        Ty::Option(inner) => {
            let inner = owned_ty(inner, maps);
            quote!(Option<#inner>)
        }
        Ty::Vec(inner) | Ty::List { item: inner, .. } => {
            let inner = owned_ty(inner, maps);
            quote!(alloc::vec::Vec<#inner>)
        }
        Ty::String | Ty::Text(_) => quote!(alloc::string::String),
        Ty::Bytes => quote!(alloc::vec::Vec<u8>),
        Ty::Map { key, value, sorted } => {
            let key = owned_ty(key, maps);
            let value = value.as_deref().map(|value| owned_ty(value, maps));
            match (value, *sorted || maps == Maps::Sorted) {
                (None, true) => quote!(alloc::collections::BTreeSet<#key>),
                (Some(value), true) => quote!(alloc::collections::BTreeMap<#key, #value>),
                (None, false) => quote!(hashbrown::HashSet<#key, foldhash::fast::FixedState>),
                (Some(value), false) => {
                    quote!(hashbrown::HashMap<#key, #value, foldhash::fast::FixedState>)
                }
            }
        }
        Ty::BigEndian { .. } | Ty::ShortU16 | Ty::TaggedOption { .. } | Ty::ZeroableOption(_) => {
            unreachable!("checked by the formats' `fits`")
        }
    }
}

/// Whether `ty`'s bytes are borsh's, or the first part that is not.
pub fn borsh_bytes(ty: &Ty) -> Result<(), String> {
    let (lengths, tags) = widths(ty)?;
    match (
        lengths.iter().find(|w| **w != 4),
        tags.iter().find(|w| **w != 1),
    ) {
        (None, None) => Ok(()),
        (Some(w), _) => Err(format!(
            "a {w}-byte length prefix, where borsh writes 4 bytes"
        )),
        (_, Some(w)) => Err(format!("a {w}-byte enum tag, where borsh writes 1 byte")),
    }
}

/// The length and enum tag widths wincode's configuration is given for
/// `ty`: borsh's (4, 1) where it has none of one kind, or why no one
/// configuration holds its bytes.
pub fn wincode_config(ty: &Ty) -> Result<(u8, u8), String> {
    let (lengths, tags) = widths(ty)?;
    let one = |widths: &std::collections::BTreeSet<u8>, what: &str, default| match widths.len() {
        0 => Ok(default),
        1 => Ok(*widths.first().expect("one")),
        _ => Err(format!(
            "{what} of {widths:?} bytes; one wincode configuration has one width for all"
        )),
    };
    Ok((
        one(&lengths, "length prefixes", 4)?,
        one(&tags, "enum tags", 1)?,
    ))
}

/// The widths of every length prefix and enum tag in `ty`, or the first
/// part of it no serializer's configuration writes (a big-endian number, a
/// `shortU16`, a remainder, a fixed or zeroable option, an option tag of
/// more than one byte).
pub(super) fn widths(
    ty: &Ty,
) -> Result<
    (
        std::collections::BTreeSet<u8>,
        std::collections::BTreeSet<u8>,
    ),
    String,
> {
    fn walk(
        ty: &Ty,
        lengths: &mut std::collections::BTreeSet<u8>,
        tags: &mut std::collections::BTreeSet<u8>,
    ) -> Result<(), String> {
        match ty {
            Ty::Bool | Ty::Int { .. } | Ty::Float { .. } | Ty::Pubkey => Ok(()),
            Ty::String | Ty::Bytes => {
                lengths.insert(4);
                Ok(())
            }
            Ty::Text(Count::Prefix(w)) => {
                lengths.insert(*w);
                Ok(())
            }
            Ty::Vec(item)
            | Ty::List {
                item,
                count: Count::Prefix(_),
            } => {
                lengths.insert(match ty {
                    Ty::List {
                        count: Count::Prefix(w),
                        ..
                    } => *w,
                    _ => 4,
                });
                walk(item, lengths, tags)
            }
            Ty::Array(item, _) | Ty::Option(item) => walk(item, lengths, tags),
            Ty::Length { .. } => unreachable!("{FIXED_CAPACITY_ONLY}"),
            Ty::Map { key, value, .. } => {
                lengths.insert(4);
                walk(key, lengths, tags)?;
                value
                    .as_deref()
                    .map_or(Ok(()), |value| walk(value, lengths, tags))
            }
            Ty::Struct(s) => s.fields.iter().try_for_each(|f| {
                walk(&f.ty, lengths, tags).map_err(|e| format!("field `{}`: {e}", f.name))
            }),
            Ty::Enum(e) => {
                tags.insert(e.tag);
                e.variants
                    .iter()
                    .flat_map(|v| &v.fields)
                    .try_for_each(|f| walk(&f.ty, lengths, tags))
            }
            Ty::BigEndian { .. } => Err("a big-endian number".into()),
            Ty::ShortU16
            | Ty::List {
                count: Count::ShortU16,
                ..
            }
            | Ty::Text(Count::ShortU16) => Err("a `shortU16`".into()),
            Ty::List {
                count: Count::Remainder,
                ..
            }
            | Ty::Text(Count::Remainder) => {
                Err("a list or string that runs to the end of the data".into())
            }
            Ty::TaggedOption {
                tag, fixed: true, ..
            } => Err(format!(
                "a fixed option (a {tag}-byte tag, `None` padded to the size of `Some`)"
            )),
            Ty::TaggedOption { tag, .. } => Err(format!("an option with a {tag}-byte tag")),
            Ty::ZeroableOption(_) => Err("a zeroable option (`None` is all zeros)".into()),
        }
    }
    let mut lengths = std::collections::BTreeSet::new();
    let mut tags = std::collections::BTreeSet::new();
    walk(ty, &mut lengths, &mut tags)?;
    Ok((lengths, tags))
}

/// The wincode configuration for `widths` (from [`wincode_config`]):
/// `common::WINCODE_BORSH` for borsh's, else the `CONFIG_L<n>_T<m>` the
/// program declares ([`wincode_config_item`]).
pub(crate) fn wincode_config_expr(widths: (u8, u8)) -> TokenStream {
    if widths == (4, 1) {
        quote!(common::WINCODE_BORSH)
    } else {
        let name = format_ident!("CONFIG_L{}_T{}", widths.0, widths.1);
        quote!(#name)
    }
}

/// The configuration a program declares where its bytes are not borsh's
/// (nothing for borsh's).
pub(crate) fn wincode_config_item(widths: (u8, u8)) -> TokenStream {
    if widths == (4, 1) {
        return quote!();
    }
    let (length, tag) = widths;
    let name = format_ident!("CONFIG_L{length}_T{tag}");
    let length_ty = format_ident!("u{}", 8 * length as usize);
    let tag_ty = format_ident!("u{}", 8 * tag as usize);
    let doc = format!(
        " wincode configured for these bytes: {length}-byte length prefixes, {tag}-byte enum tags (borsh's are 4 and 1), preallocation capped as `common::WINCODE_BORSH` caps it."
    );
    quote! {
        #[doc = #doc]
        const #name: wincode::config::Configuration<
            true,
            4096,
            wincode::len::FixIntLen<#length_ty>,
            wincode::int_encoding::LittleEndian,
            wincode::int_encoding::FixInt,
            #tag_ty,
        > = wincode::config::Configuration::default()
            .with_length_encoding::<wincode::len::FixIntLen<#length_ty>>()
            .with_tag_encoding::<#tag_ty>()
            .with_preallocation_size_limit::<4096>();
    }
}

/// The decode and encode the operations share (one call site of the
/// crate's each, as the hand-written programs' `Codec` has: inlined at
/// three sites instead, borsh's decode cost the token record 113 CUs more),
/// and the operations.
pub(super) fn owned_ops(target: &Target, format: AccountCodec) -> (TokenStream, TokenStream) {
    let boxed = format == AccountCodec::BorshBoxed;
    let record = &target.account.record;
    let name = ident(&record.ident, true);
    let read = field_expr(quote!(record), record, &target.read.indexes);
    let read_bytes = match target.read.ty {
        Scalar::Bool => quote!([u8::from(#read)]),
        Scalar::Pubkey => quote!(#read),
        _ => quote!(#read.to_le_bytes()),
    };
    let value_ty = if boxed {
        quote!(alloc::boxed::Box<#name>)
    } else {
        quote!(#name)
    };
    let widths = match format {
        AccountCodec::Wincode => {
            wincode_config(&Ty::Struct(record.clone())).expect("checked by the formats' `fits`")
        }
        _ => (4, 1),
    };
    let config = wincode_config_expr(widths);
    let config_item = wincode_config_item(widths);
    let (decode_with, encode_with) = match format {
        AccountCodec::Wincode => (
            quote! {
                wincode::config::deserialize_from(&mut &data[..], #config)
                    .map_err(invalid_account_data)
            },
            quote! {
                wincode::config::serialize_into(&mut &mut data[..], record, #config)
                    .map_err(invalid_account_data)
            },
        ),
        _ => (
            quote! {
                borsh::BorshDeserialize::deserialize(&mut &data[..]).map_err(invalid_account_data)
            },
            quote! {
                borsh::to_writer(&mut data[..], record).map_err(invalid_account_data)
            },
        ),
    };
    let helpers = quote! {
        #config_item

        /// The record after the discriminator, decoded (and so validated)
        /// whole by the crate; what follows it is not read.
        fn decode(data: &[u8]) -> Result<#value_ty, ProgramError> {
            #decode_with
        }

        /// The record encoded back over the account's data. Only an
        /// integer changes, so the encoding keeps its length and fits where
        /// it was decoded from.
        fn encode(record: &#value_ty, data: &mut [u8]) -> ProgramResult {
            #encode_with
        }
    };
    let decode = quote! {
        let mut record = decode(data)?;
    };
    let encode = quote! {
        encode(&record, data)
    };
    let (full, update) = match &target.update {
        Some(path) => {
            let field = field_expr(quote!(record), record, &path.indexes);
            let ty = owned_ty(&path.ty.ty(), Maps::Sorted);
            (
                quote! {
                    #decode
                    #field = #field.wrapping_add(1);
                    #encode
                },
                quote! {
                    #decode
                    let value = value.try_into().map_err(|_| ProgramError::InvalidInstructionData)?;
                    #field = #ty::from_le_bytes(value);
                    #encode
                },
            )
        }
        None => (
            quote! {
                #decode
                let _ = &mut record;
                #encode
            },
            refused_update(),
        ),
    };
    let ops = operations(
        full,
        quote!(let record = decode(data)?;),
        quote!(#read_bytes[..] == *value),
        update,
    );
    (helpers, ops)
}
