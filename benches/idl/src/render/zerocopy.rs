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
    quote! {
        #[repr(C)]
        #[derive(zerocopy::TryFromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable)]
        struct #name { #(#fields),* }

        /// The layout's size, checked at compile time.
        const _: [(); #size] = [(); core::mem::size_of::<#name>()];
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
                .ok_or(ProgramError::InvalidAccountData)
        }
    };
    (helpers, ops)
}
