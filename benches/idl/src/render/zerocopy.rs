//! zerocopy: checked types at SBF's offsets; the crate validates every
//! bool and enum as it converts.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use super::*;
use crate::{
    layout::struct_layout,
    model::{Integer, Struct, Ty},
};

/// Every struct (and unit enum) reachable from `record` with zerocopy's
/// checked derives: little-endian, alignment-1 field types, padding explicit,
/// so the crate validates bools and enum tags as it converts.
pub(super) fn checked_types(record: &Struct, packed: bool) -> TokenStream {
    let types = reachable(&[record]);
    let items = types.values().map(|named| match *named {
        Named::Struct(s) => checked_struct(s, packed),
        Named::Enum(e) => {
            let name = ident(&e.ident, true);
            let variants = variant_idents(e).into_iter().enumerate().map(|(i, variant)| {
                let i = Literal::u8_unsuffixed(i as u8);
                quote!(#variant = #i)
            });
            quote! {
                #[allow(dead_code)]
                #[repr(u8)]
                #[derive(Clone, Copy, zerocopy::TryFromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable)]
                enum #name { #(#variants),* }
            }
        }
    });
    quote!(#(#items)*)
}

pub(super) fn checked_struct(s: &Struct, packed: bool) -> TokenStream {
    let name = ident(&s.ident, true);
    let (fields, size) = padded_fields(s, packed, checked_ty);
    let lengths = holds_lengths(s).then(|| {
        let check = lengths_check(s);
        let within = lengths_fn(s);
        quote! {
            /// Every fixed-capacity length within its capacity, and a
            /// string's bytes in use UTF-8: what zerocopy's conversion does
            /// not check.
            fn #within(value: &#name) -> bool {
                #check
            }
        }
    });
    quote! {
        #[repr(C)]
        #[derive(zerocopy::TryFromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable)]
        struct #name { #(#fields),* }

        /// The layout's size, checked at compile time.
        const _: [(); #size] = [(); core::mem::size_of::<#name>()];

        #lengths
    }
}

/// Whether `s` holds a fixed-capacity length, at any depth.
fn holds_lengths(s: &Struct) -> bool {
    fn ty_holds(ty: &Ty) -> bool {
        match ty {
            Ty::Length { .. } => true,
            Ty::Struct(s) => holds_lengths(s),
            Ty::Array(item, _) => ty_holds(item),
            _ => false,
        }
    }
    s.fields.iter().any(|f| ty_holds(&f.ty))
}

/// The function that checks `s`'s lengths: `lengths_<type>`.
fn lengths_fn(s: &Struct) -> proc_macro2::Ident {
    format_ident!("lengths_{}", snake(&s.ident))
}

/// The conjunction of `s`'s lengths' checks (a string's with its bytes'
/// UTF-8), and its nested structs'.
fn lengths_check(s: &Struct) -> TokenStream {
    let names = field_idents(&s.fields);
    let checks = s
        .fields
        .iter()
        .zip(&names)
        .enumerate()
        .filter_map(|(i, (f, name))| {
            let expr = quote!(value.#name);
            nested_check(expr, &f.ty, names.get(i + 1))
        });
    quote!(true #(&& #checks)*)
}

fn nested_check(
    expr: TokenStream,
    ty: &Ty,
    items: Option<&proc_macro2::Ident>,
) -> Option<TokenStream> {
    match ty {
        Ty::Length {
            bytes,
            capacity,
            text,
        } => {
            let len = match bytes {
                1 => quote!(usize::from(#expr)),
                _ => quote!((#expr.get() as usize)),
            };
            let capacity = Literal::usize_unsuffixed(*capacity);
            Some(match (text, items) {
                (true, Some(items)) => quote! {
                    value.#items.get(..#len).is_some_and(|bytes| core::str::from_utf8(bytes).is_ok())
                },
                _ => quote!(#len <= #capacity),
            })
        }
        Ty::Struct(s) if holds_lengths(s) => {
            let within = lengths_fn(s);
            Some(quote!(#within(&#expr)))
        }
        Ty::Array(item, _) => {
            let each = nested_check(quote!((*item)), item, None)?;
            Some(quote!(#expr.iter().all(|item| #each)))
        }
        _ => None,
    }
}

/// Whether every type in `ty` has a checked zerocopy type
/// ([`checked_ty`]): a fixed-capacity record moved from a Codama layout
/// may keep a wire type (a tagged or zeroable option, a big-endian
/// integer) that zerocopy is not measured on.
pub(crate) fn checked_fits(ty: &Ty) -> Result<(), String> {
    match ty {
        Ty::Bool | Ty::Int { .. } | Ty::Float { .. } | Ty::Pubkey | Ty::Length { .. } => Ok(()),
        Ty::Enum(e) if e.is_unit() && e.tag == 1 => Ok(()),
        Ty::Array(item, _) => checked_fits(item),
        Ty::Struct(s) => s.fields.iter().try_for_each(|f| checked_fits(&f.ty)),
        other => {
            let what = match other {
                Ty::TaggedOption { .. } => "a tagged option",
                Ty::ZeroableOption(_) => "a zeroable option",
                Ty::BigEndian { .. } => "a big-endian integer",
                Ty::Enum(_) => "an enum of a wider tag",
                _ => "a type of no fixed layout",
            };
            Err(format!(
                "it keeps a Codama wire type ({what}): zerocopy is measured on Anchor's layouts (bytemuck is the cast p-token and spl-pod make)"
            ))
        }
    }
}

pub(super) fn checked_ty(ty: &Ty) -> TokenStream {
    match ty {
        Ty::Bool => quote!(bool),
        Ty::Int { bytes: 1, signed } => {
            if *signed {
                quote!(i8)
            } else {
                quote!(u8)
            }
        }
        Ty::Int { bytes, signed } => {
            let name = format_ident!("{}{}", if *signed { "I" } else { "U" }, 8 * *bytes as usize);
            quote!(zerocopy::little_endian::#name)
        }
        Ty::Length { bytes: 1, .. } => quote!(u8),
        Ty::Length { bytes, .. } => {
            let name = format_ident!("U{}", 8 * *bytes as usize);
            quote!(zerocopy::little_endian::#name)
        }
        Ty::Float { bytes } => {
            let name = format_ident!("F{}", 8 * *bytes as usize);
            quote!(zerocopy::little_endian::#name)
        }
        Ty::Pubkey => quote!([u8; 32]),
        Ty::Array(inner, len) => {
            let inner = checked_ty(inner);
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
        _ => unreachable!("checked by the formats' `fits`"),
    }
}

/// The helpers the operations share, and the operations.
pub(super) fn zerocopy_ops(target: &Target, packed: bool) -> (TokenStream, TokenStream) {
    let record = &target.account.record;
    let name = ident(&record.ident, true);
    let size =
        Literal::usize_unsuffixed(struct_layout(record, packed).expect("laid out").layout.size);
    let read = field_expr(quote!(record), record, &target.read.indexes);
    // A fixed-capacity record's lengths, checked where the crate checks
    // the rest: at every conversion.
    let within = holds_lengths(record).then(|| {
        let within = lengths_fn(record);
        quote!(.filter(|record| #within(record)))
    });
    let (full, update) = match &target.update {
        Some(path) => {
            let field = field_expr(quote!(record), record, &path.indexes);
            let bump = match path.ty {
                Integer {
                    bytes: 1,
                    big_endian: false,
                    ..
                } => quote!(#field = #field.wrapping_add(1);),
                _ => quote!(#field.set(#field.get().wrapping_add(1));),
            };
            let in_place = field_expr(quote!(record_mut(data)?), record, &path.indexes);
            (
                bump,
                quote! {
                    zerocopy::IntoBytes::as_mut_bytes(&mut #in_place).copy_from_slice(value);
                    Ok(())
                },
            )
        }
        None => (quote!(), refused_update()),
    };
    let ops = operations(
        quote! {
            let record = record_mut(data)?;
            #full
            Ok(())
        },
        quote! {
            let record = data
                .get(..#size)
                .and_then(|bytes| <#name as zerocopy::TryFromBytes>::try_ref_from_bytes(bytes).ok())
                #within
                .ok_or(ProgramError::InvalidAccountData)?;
        },
        quote!(zerocopy::IntoBytes::as_bytes(&#read) == value),
        update,
    );
    let helpers = quote! {
        /// The record in place, validated by the crate (every bool and enum):
        /// the bytes after the discriminator, at least its size.
        fn record_mut(data: &mut [u8]) -> Result<&mut #name, ProgramError> {
            data.get_mut(..#size)
                .and_then(|bytes| <#name as zerocopy::TryFromBytes>::try_mut_from_bytes(bytes).ok())
                #within
                .ok_or(ProgramError::InvalidAccountData)
        }
    };
    (helpers, ops)
}
