//! bytemuck: the record as alignment-1 types at SBF's offsets, cast in
//! place (`AccountLoader<T>`'s way).

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use super::*;
use crate::{
    layout::{struct_layout, zero_copy},
    model::{Count, Scalar, Struct, Ty},
};

pub(super) fn aligned_types(roots: &[&Struct], packed: bool) -> TokenStream {
    let items = reachable(roots)
        .into_values()
        .filter_map(|named| match named {
            Named::Struct(s) => Some(aligned_struct(s, packed)),
            Named::Enum(_) => None,
        });
    quote!(#(#items)*)
}

/// `s`'s fields as `field_ty` writes them (alignment-1 types), with the
/// SBF layout's padding as explicit `_paddingN: [u8; N]` fields, and the
/// layout's size: the generated struct's offsets are SBF's on any target.
pub(super) fn padded_fields(
    s: &Struct,
    packed: bool,
    field_ty: fn(&Ty) -> TokenStream,
) -> (Vec<TokenStream>, Literal) {
    let layout = struct_layout(s, packed).expect("checked by the formats' `fits`");
    let mut fields = Vec::new();
    let mut at = 0;
    let mut pads = 0;
    let mut pad = |fields: &mut Vec<TokenStream>, gap: usize| {
        let field = format_ident!("_padding{pads}");
        pads += 1;
        let gap = Literal::usize_unsuffixed(gap);
        fields.push(quote!(#field: [u8; #gap]));
    };
    for ((field, name), offset) in s
        .fields
        .iter()
        .zip(field_idents(&s.fields))
        .zip(&layout.offsets)
    {
        if *offset > at {
            pad(&mut fields, offset - at);
        }
        let ty = field_ty(&field.ty);
        fields.push(quote!(#name: #ty));
        at = offset
            + zero_copy(&field.ty, packed || s.packed)
                .expect("laid out")
                .size;
    }
    if layout.layout.size > at {
        pad(&mut fields, layout.layout.size - at);
    }
    (fields, Literal::usize_unsuffixed(layout.layout.size))
}

/// A struct with every field as little-endian bytes and its padding
/// explicit: alignment 1, so its offsets are SBF's on any target.
pub(super) fn aligned_struct(s: &Struct, packed: bool) -> TokenStream {
    let name = ident(&s.ident, true);
    let (fields, size) = padded_fields(s, packed, aligned_ty);
    let check = validity(s);
    let valid = format_ident!("valid_{}", snake(&s.ident));
    let what = match s.fields.iter().any(|f| matches!(f.ty, Ty::Length { .. })) {
        true => {
            " Every bool is 0 or 1, every enum a variant, and every length within its capacity (a string's bytes in use UTF-8)."
        }
        false => " Every bool is 0 or 1 and every enum a variant.",
    };
    quote! {
        #[repr(C)]
        #[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
        struct #name { #(#fields),* }

        /// The layout's size, checked at compile time.
        const _: [(); #size] = [(); core::mem::size_of::<#name>()];

        #[doc = #what]
        #[allow(unused_variables)]
        fn #valid(value: &#name) -> bool {
            #check
        }
    }
}

pub(super) fn aligned_ty(ty: &Ty) -> TokenStream {
    match ty {
        Ty::Enum(e) if e.tag > 1 => {
            let n = Literal::usize_unsuffixed(e.tag as usize);
            quote!([u8; #n])
        }
        Ty::Bool | Ty::Enum(_) => quote!(u8),
        Ty::Int { bytes, .. }
        | Ty::Float { bytes }
        | Ty::BigEndian { bytes, .. }
        | Ty::Length { bytes, .. } => {
            let n = Literal::usize_unsuffixed(*bytes as usize);
            quote!([u8; #n])
        }
        // A fixed option as its tag and value, in bytes; the tag is checked.
        Ty::TaggedOption {
            tag,
            fixed: true,
            item,
        } => {
            let n = Literal::usize_unsuffixed(
                *tag as usize + crate::layout::encoded_len(item).expect("fixed"),
            );
            quote!([u8; #n])
        }
        // `None` is the item's zero value, which is the item's bytes.
        Ty::ZeroableOption(item) => aligned_ty(item),
        Ty::Pubkey => quote!([u8; 32]),
        Ty::Array(inner, len) => {
            let inner = aligned_ty(inner);
            let len = Literal::usize_unsuffixed(*len);
            quote!([#inner; #len])
        }
        Ty::Struct(s) => {
            let name = ident(&s.ident, true);
            quote!(#name)
        }
        _ => unreachable!("checked by the formats' `fits`"),
    }
}

/// The conjunction of every bool's and enum's range check in `s`, and of
/// every fixed-capacity length's: within its capacity, and for a string
/// its bytes in use UTF-8 (the items follow their length).
pub(super) fn validity(s: &Struct) -> TokenStream {
    let names = field_idents(&s.fields);
    let checks: Vec<TokenStream> = s
        .fields
        .iter()
        .zip(&names)
        .enumerate()
        .filter_map(|(i, (f, name))| match (&f.ty, names.get(i + 1)) {
            (Ty::Length { text: true, .. }, Some(items)) => {
                let len = length(quote!(value.#name), &f.ty);
                Some(quote! {
                    value.#items.as_flattened().get(..#len).is_some_and(|bytes| core::str::from_utf8(bytes).is_ok())
                })
            }
            _ => check(quote!(value.#name), &f.ty),
        })
        .collect();
    if checks.is_empty() {
        quote!(true)
    } else {
        quote!(#(#checks)&&*)
    }
}

/// A fixed-capacity length's value as a `usize`.
fn length(expr: TokenStream, ty: &Ty) -> TokenStream {
    let Ty::Length { bytes, .. } = ty else {
        unreachable!("a length")
    };
    let int = format_ident!("u{}", 8 * *bytes as usize);
    quote!((#int::from_le_bytes(#expr) as usize))
}

pub(super) fn check(expr: TokenStream, ty: &Ty) -> Option<TokenStream> {
    match ty {
        Ty::Bool => Some(quote!(#expr <= 1)),
        Ty::Length { capacity, .. } => {
            let len = length(expr, ty);
            let capacity = Literal::usize_unsuffixed(*capacity);
            Some(quote!(#len <= #capacity))
        }
        Ty::Enum(e) if e.tag > 1 => {
            let n = Literal::usize_unsuffixed(e.variants.len());
            let int = format_ident!("u{}", 8 * e.tag as usize);
            Some(quote!((#int::from_le_bytes(#expr) as usize) < #n))
        }
        // The tag is 0 or 1 (as SPL's `COption` checks it); the value is
        // not read.
        Ty::TaggedOption { tag: 1, .. } => Some(quote!(#expr[0] <= 1)),
        Ty::TaggedOption { tag, .. } => {
            let int = format_ident!("u{}", 8 * *tag as usize);
            let bytes = (0..*tag as usize).map(Literal::usize_unsuffixed);
            Some(quote!(#int::from_le_bytes([#(#expr[#bytes]),*]) <= 1))
        }
        Ty::Enum(e) => {
            let n = Literal::usize_unsuffixed(e.variants.len());
            Some(quote!(usize::from(#expr) < #n))
        }
        Ty::Array(inner, _) => {
            let each = check(quote!(*item), inner)?;
            Some(quote!(#expr.iter().all(|item| #each)))
        }
        Ty::Struct(s) if has_checks(s) => {
            let valid = format_ident!("valid_{}", snake(&s.ident));
            Some(quote!(#valid(&#expr)))
        }
        _ => None,
    }
}

pub(super) fn has_checks(s: &Struct) -> bool {
    s.fields.iter().any(|f| check(quote!(x), &f.ty).is_some())
}

/// A record whose last field is items to the end of the data: the record
/// without it, and the item.
pub(super) fn remainder_split(record: &Struct) -> Option<(Struct, &Ty)> {
    let (last, before) = record.fields.split_last()?;
    match &last.ty {
        Ty::List {
            item,
            count: Count::Remainder,
        } => Some((
            Struct {
                fields: before.to_vec(),
                ..record.clone()
            },
            item,
        )),
        _ => None,
    }
}

/// The helper the operations share, and the operations; `rest`: the item
/// of a slice after the record, cast (and checked) by `full`.
pub(super) fn bytemuck_ops(
    target: &Target,
    packed: bool,
    rest: Option<&Ty>,
) -> (TokenStream, TokenStream) {
    let record = &target.account.record;
    let name = ident(&record.ident, true);
    let valid = format_ident!("valid_{}", snake(&record.ident));
    let size =
        Literal::usize_unsuffixed(struct_layout(record, packed).expect("laid out").layout.size);
    let read = field_expr(quote!(record), record, &target.read.indexes);
    let (read_bytes, read_check) = match target.read.ty {
        Scalar::Bool => (
            quote!([#read]),
            quote! {
                if #read > 1 {
                    return Err(ProgramError::InvalidAccountData);
                }
            },
        ),
        _ => (quote!(#read), quote!()),
    };
    let (full, update) = match &target.update {
        Some(path) => {
            let field = field_expr(quote!(record), record, &path.indexes);
            let (int, from, to) = integer(path.ty);
            (
                quote! {
                    #field = #int::#from(#field).wrapping_add(1).#to();
                },
                quote! {
                    let record = cast_mut(data)?;
                    #field = value.try_into().map_err(|_| ProgramError::InvalidInstructionData)?;
                    Ok(())
                },
            )
        }
        None => (quote!(), refused_update()),
    };
    let rest_check = rest.map(|item| {
        let item_ty = aligned_ty(item);
        let each = check(quote!((*item)), item)
            .map(|each| {
                quote! {
                    if !items.iter().all(|item| #each) {
                        return Err(ProgramError::InvalidAccountData);
                    }
                }
            })
            .unwrap_or_else(|| quote!(let _ = items;));
        quote! {
            let items: &[#item_ty] = data
                .get(#size..)
                .and_then(|bytes| bytemuck::try_cast_slice(bytes).ok())
                .ok_or(ProgramError::InvalidAccountData)?;
            #each
        }
    });
    let ops = operations(
        quote! {
            #rest_check
            let record = cast_mut(data)?;
            if !#valid(record) {
                return Err(ProgramError::InvalidAccountData);
            }
            #full
            Ok(())
        },
        quote! {
            let record: &#name = data
                .get(..#size)
                .and_then(|bytes| bytemuck::try_from_bytes(bytes).ok())
                .ok_or(ProgramError::InvalidAccountData)?;
            #read_check
        },
        quote!(#read_bytes[..] == *value),
        update,
    );
    let helpers = quote! {
        /// The record in place: the bytes after the discriminator, at least
        /// its size (a longer account is accepted, as Anchor's
        /// `AccountLoader<T>` does).
        fn cast_mut(data: &mut [u8]) -> Result<&mut #name, ProgramError> {
            data.get_mut(..#size)
                .and_then(|bytes| bytemuck::try_from_bytes_mut(bytes).ok())
                .ok_or(ProgramError::InvalidAccountData)
        }
    };
    (helpers, ops)
}
