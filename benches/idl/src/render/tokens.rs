//! The token-level helpers every renderer shares: identifiers, field
//! expressions, integers, the three operations' shape.

use std::collections::BTreeMap;

use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};

use crate::{
    model::{Enum, Field, Integer, Struct, Ty},
    names,
};

pub(crate) fn unparse(tokens: TokenStream) -> String {
    let file: syn::File = syn::parse2(tokens).expect("the generator writes valid Rust");
    prettyplease::unparse(&file)
}

/// The expression that names the field at `path` in the value `base` of
/// `record`'s type (`record.fees.protocol_fee`).
pub(crate) fn field_expr(base: TokenStream, record: &Struct, path: &[usize]) -> TokenStream {
    let fields = field_names(record, path);
    quote!(#base #(.#fields)*)
}

/// The field identifiers along `path` in `record` (`fees`, `protocol_fee`).
pub(crate) fn field_names(record: &Struct, path: &[usize]) -> Vec<Ident> {
    let mut names = Vec::new();
    let mut at = record;
    for i in path {
        names.push(field_idents(&at.fields).swap_remove(*i));
        if let Ty::Struct(inner) = &at.fields[*i].ty {
            at = inner;
        }
    }
    names
}

/// A Rust identifier for an IDL name (`names`): CamelCase for types
/// (already unique in the program: the naming pass gave them), snake_case
/// for the rest, raw where it is a keyword (`r#type`).
pub fn ident(name: &str, type_name: bool) -> Ident {
    if type_name {
        Ident::new(&names::type_ident(name), Span::call_site())
    } else {
        names::value_token(&names::value_ident(name))
    }
}

/// The identifiers of `e`'s variants in order, each once (named through
/// their enum, so `None` is free; `foo` and `Foo` get a number).
pub(crate) fn variant_idents(e: &Enum) -> Vec<Ident> {
    let mut unique = names::Unique::default();
    e.variants
        .iter()
        .map(|v| {
            let ident = unique.take(&[names::variant_ident(&v.name)], |c| vec![c.to_string()]);
            Ident::new(&ident, Span::call_site())
        })
        .collect()
}

/// The identifiers of `fields` in order, each once: a field whose name
/// comes to another's (`feeRate` and `fee_rate`) or to a padding field's
/// (`_padding0`) gets a number.
pub(crate) fn field_idents(fields: &[Field]) -> Vec<Ident> {
    // The padding fields' names, and `ctx`: an Anchor handler's context,
    // where the fields are its parameters.
    let mut paddings: Vec<String> = (0..=fields.len()).map(|n| format!("_padding{n}")).collect();
    paddings.push("ctx".into());
    let paddings: Vec<&str> = paddings.iter().map(String::as_str).collect();
    let mut unique = names::Unique::with(&paddings);
    fields
        .iter()
        .map(|f| {
            let ident = unique.take(&[names::value_ident(&f.name)], |c| vec![c.to_string()]);
            names::value_token(&ident)
        })
        .collect()
}

/// A snake_case name for functions and folders (`walk_<type>`).
pub fn snake(name: &str) -> String {
    names::value_ident(name)
}

pub(crate) fn camel(name: &str) -> String {
    names::camel_case(name)
}

/// A struct or enum a generated program declares.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Named<'a> {
    Struct(&'a Struct),
    Enum(&'a Enum),
}

/// Every struct and enum reachable from `roots`, the roots too, once each
/// by name (the first met, its fields' types before it).
pub(crate) fn reachable<'a>(roots: &[&'a Struct]) -> BTreeMap<String, Named<'a>> {
    fn visit<'a>(ty: &'a Ty, out: &mut BTreeMap<String, Named<'a>>) {
        for child in ty.children() {
            visit(child, out);
        }
        match ty {
            Ty::Struct(s) => {
                out.entry(s.ident.clone()).or_insert(Named::Struct(s));
            }
            Ty::Enum(e) => {
                out.entry(e.ident.clone()).or_insert(Named::Enum(e));
            }
            _ => {}
        }
    }
    let mut out = BTreeMap::new();
    for root in roots {
        for field in &root.fields {
            visit(&field.ty, &mut out);
        }
        out.entry(root.ident.clone()).or_insert(Named::Struct(root));
    }
    out
}

/// An integer field's Rust type and the conversions from and to its
/// bytes (big-endian where the IDL says so).
pub(crate) fn integer(int: Integer) -> (Ident, Ident, Ident) {
    let Integer {
        bytes,
        signed,
        big_endian,
    } = int;
    let int = format_ident!("{}{}", if signed { "i" } else { "u" }, 8 * bytes as usize);
    if big_endian {
        (
            int,
            format_ident!("from_be_bytes"),
            format_ident!("to_be_bytes"),
        )
    } else {
        (
            int,
            format_ident!("from_le_bytes"),
            format_ident!("to_le_bytes"),
        )
    }
}

/// The three `common::idl::Format` operations from their bodies: `read` runs
/// `read_setup`, then succeeds if `matches` (the field's bytes are the
/// value) and answers `InvalidArgument` if not.
pub(crate) fn operations(
    full: TokenStream,
    read_setup: TokenStream,
    matches: TokenStream,
    update: TokenStream,
) -> TokenStream {
    quote! {
        fn full(data: &mut [u8]) -> ProgramResult {
            #full
        }

        fn read(data: &[u8], value: &[u8]) -> ProgramResult {
            #read_setup
            if #matches {
                Ok(())
            } else {
                Err(ProgramError::InvalidArgument)
            }
        }

        fn update(data: &mut [u8], value: &[u8]) -> ProgramResult {
            #update
        }
    }
}

/// `update` for a record with no integer to update.
pub(crate) fn refused_update() -> TokenStream {
    quote! {
        let _ = (data, value);
        Err(ProgramError::InvalidInstructionData)
    }
}

/// Why the owned, walking and event renderers never meet a
/// [`crate::model::Ty::Length`].
pub(crate) const FIXED_CAPACITY_ONLY: &str =
    "a fixed-capacity length is only in a record that is cast (`AccountCodec::fits`)";
