//! walk: no crate; generated code in place over borsh's bytes, reading
//! lengths and tags up to the field it needs.

use proc_macro2::{Ident, Literal, TokenStream};
use quote::{format_ident, quote};

use super::*;
use crate::model::{Count, Enum, Scalar, Struct, Ty};

/// How far the walk checks what it passes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Walk {
    /// Every length, tag, bool and UTF-8 string (`full`): `walk_<type>`.
    Validate,
    /// Only what it must read to find the next field, lengths and tags
    /// (`read`, `update`): `skip_<type>`.
    Skip,
}

impl Walk {
    pub(super) fn function(self, type_name: &str) -> Ident {
        match self {
            Self::Validate => format_ident!("walk_{}", snake(type_name)),
            Self::Skip => format_ident!("skip_{}", snake(type_name)),
        }
    }
}

/// The walk's functions and operations: per struct and enum a function
/// that walks one value at `at` and returns where it ends; the record's
/// fields walked in order up to the field an operation needs.
pub(super) fn walk(target: &Target) -> (TokenStream, TokenStream) {
    let record = &target.account.record;
    let types = reachable(&[record]);
    let mut walkers = Vec::new();
    for mode in [Walk::Validate, Walk::Skip] {
        for named in types.values() {
            walkers.push(walker(*named, mode));
        }
    }
    walkers.push(codama_helpers(types.values().copied()));
    // Where the field at `path` starts: what lies before it passed.
    let start_of = |path: &[usize]| {
        let steps = walk_to(record, path);
        quote!({ let at = 0usize; #steps at })
    };
    let record_walker = Walk::Validate.function(&record.ident);
    let read_at = start_of(&target.read.indexes);
    let read_len = Literal::usize_unsuffixed(target.read.ty.width());
    let read_check = match target.read.ty {
        Scalar::Bool => quote! {
            if field[0] > 1 {
                return Err(ProgramError::InvalidAccountData);
            }
        },
        _ => quote!(),
    };
    let (full, update) = match &target.update {
        Some(path) => {
            let at = start_of(&path.indexes);
            let len = Literal::usize_unsuffixed(usize::from(path.ty.bytes));
            let (int, from, to) = integer(path.ty);
            (
                quote! {
                    #record_walker(data, 0)?;
                    let at = #at;
                    let field: &mut [u8; #len] = (&mut data[at..at + #len])
                        .try_into()
                        .map_err(invalid_account_data)?;
                    *field = #int::#from(*field).wrapping_add(1).#to();
                    Ok(())
                },
                quote! {
                    let at = #at;
                    let field = data.get_mut(at..at + #len).ok_or(ProgramError::InvalidAccountData)?;
                    field.copy_from_slice(value);
                    Ok(())
                },
            )
        }
        None => (
            quote! {
                #record_walker(data, 0)?;
                Ok(())
            },
            refused_update(),
        ),
    };
    let helpers = walk_helpers(&walkers, quote!(ProgramError::InvalidAccountData));
    let ops = operations(
        full,
        quote! {
            let at = #read_at;
            let field = data.get(at..at + #read_len).ok_or(ProgramError::InvalidAccountData)?;
            #read_check
        },
        quote!(field == value),
        update,
    );
    (helpers, ops)
}

/// The walkers and the two steps they share; `invalid` is the error a
/// walk answers (`InvalidAccountData` over an account,
/// `InvalidInstructionData` over instruction data).
pub(super) fn walk_helpers(walkers: &[TokenStream], invalid: TokenStream) -> TokenStream {
    quote! {
        /// What the walk answers where the bytes are not a valid encoding.
        const INVALID: ProgramError = #invalid;

        #(#walkers)*

        /// `len` bytes at `at`, where the data holds them: where they end.
        #[inline(always)]
        fn skip(data: &[u8], at: usize, len: usize) -> Result<usize, ProgramError> {
            match at.checked_add(len) {
                Some(end) if end <= data.len() => Ok(end),
                _ => Err(INVALID),
            }
        }

        /// A borsh `u32` count at `at`, and where what it counts starts.
        #[inline(always)]
        fn count(data: &[u8], at: usize) -> Result<(usize, usize), ProgramError> {
            let end = skip(data, at, 4)?;
            let bytes: [u8; 4] = data[at..end].try_into().map_err(|_| INVALID)?;
            Ok((u32::from_le_bytes(bytes) as usize, end))
        }
    }
}

/// The function that walks one struct or enum in `mode`.
pub(super) fn walker(named: Named, mode: Walk) -> TokenStream {
    let what = match mode {
        Walk::Validate => "Validates",
        Walk::Skip => "Passes (reading only lengths and tags)",
    };
    match named {
        Named::Struct(s) => {
            let name = mode.function(&s.ident);
            let steps = walk_fields(&s.fields, mode);
            let doc = format!(" {what} a `{}` at `at`; where it ends.", s.name);
            quote! {
                #[allow(dead_code)]
                #[doc = #doc]
                fn #name(data: &[u8], at: usize) -> Result<usize, ProgramError> {
                    #steps
                    Ok(at)
                }
            }
        }
        Named::Enum(e) => {
            let name = mode.function(&e.ident);
            let arms = e.variants.iter().enumerate().map(|(i, v)| {
                let tag = if e.tag == 1 {
                    Literal::u8_unsuffixed(i as u8)
                } else {
                    Literal::usize_unsuffixed(i)
                };
                let steps = walk_fields(&v.fields, mode);
                quote!(#tag => { #steps at })
            });
            let read_tag = if e.tag == 1 {
                quote! {
                    let tag = *data.get(at).ok_or(INVALID)?;
                    let at = at + 1;
                }
            } else {
                let width = Literal::usize_unsuffixed(e.tag as usize);
                quote!(let (tag, at) = count_of::<#width>(data, at)?;)
            };
            let doc = format!(
                " {what} a `{}` (its tag, then its variant) at `at`; where it ends.",
                e.name
            );
            quote! {
                #[allow(dead_code)]
                #[doc = #doc]
                fn #name(data: &[u8], at: usize) -> Result<usize, ProgramError> {
                    #read_tag
                    Ok(match tag {
                        #(#arms)*
                        _ => return Err(INVALID),
                    })
                }
            }
        }
    }
}

/// `let at = <where the field ends>;` for each field in turn.
pub(super) fn walk_fields(fields: &[crate::model::Field], mode: Walk) -> TokenStream {
    let steps = fields.iter().map(|f| {
        let step = walk_ty(&f.ty, mode);
        quote!(let at = #step;)
    });
    quote!(#(#steps)*)
}

/// An expression that walks a `ty` at `at` in `mode` and is where it ends
/// (with `?` on every error).
pub(super) fn walk_ty(ty: &Ty, mode: Walk) -> TokenStream {
    if let Some(len) = fixed_len(ty, mode) {
        let len = Literal::usize_unsuffixed(len);
        return quote!(skip(data, at, #len)?);
    }
    match ty {
        Ty::Bool => quote! {{
            if *data.get(at).ok_or(INVALID)? > 1 {
                return Err(INVALID);
            }
            at + 1
        }},
        Ty::Length { .. } => unreachable!("{FIXED_CAPACITY_ONLY}"),
        Ty::Array(inner, len) => {
            let step = walk_ty(inner, mode);
            let len = Literal::usize_unsuffixed(*len);
            quote! {{
                let mut at = at;
                for _ in 0..#len {
                    at = #step;
                }
                at
            }}
        }
        Ty::Struct(s) => {
            let name = mode.function(&s.ident);
            quote!(#name(data, at)?)
        }
        Ty::Enum(e) => {
            let name = mode.function(&e.ident);
            quote!(#name(data, at)?)
        }
        Ty::Option(inner) => {
            let step = walk_ty(inner, mode);
            quote! {{
                match *data.get(at).ok_or(INVALID)? {
                    0 => at + 1,
                    1 => {
                        let at = at + 1;
                        #step
                    }
                    _ => return Err(INVALID),
                }
            }}
        }
        Ty::Vec(inner) => match fixed_len(inner, mode) {
            Some(size) => {
                let size = Literal::usize_unsuffixed(size);
                quote! {{
                    let (n, at) = count(data, at)?;
                    skip(data, at, n.checked_mul(#size).ok_or(INVALID)?)?
                }}
            }
            None => {
                let step = walk_ty(inner, mode);
                quote! {{
                    let (n, mut at) = count(data, at)?;
                    for _ in 0..n {
                        at = #step;
                    }
                    at
                }}
            }
        },
        // Each entry, key then value: borsh's bytes of a map (in any
        // order, as borsh decodes it).
        Ty::Map { key, value, .. } => {
            let key = walk_ty(key, mode);
            let value = value.as_deref().map(|value| {
                let step = walk_ty(value, mode);
                quote!(at = #step;)
            });
            quote! {{
                let (n, mut at) = count(data, at)?;
                for _ in 0..n {
                    at = #key;
                    #value
                }
                at
            }}
        }
        Ty::String if mode == Walk::Validate => quote! {{
            let (len, at) = count(data, at)?;
            let end = skip(data, at, len)?;
            core::str::from_utf8(&data[at..end]).map_err(|_| INVALID)?;
            end
        }},
        Ty::String | Ty::Bytes => quote! {{
            let (len, at) = count(data, at)?;
            skip(data, at, len)?
        }},
        Ty::ShortU16 => quote!(short_u16(data, at)?.1),
        Ty::List { item, count } => match (read_count(*count), fixed_len(item, mode)) {
            (None, Some(size)) => {
                let size = Literal::usize_unsuffixed(size);
                quote! {{
                    if (data.len().checked_sub(at).ok_or(INVALID)?) % #size != 0 {
                        return Err(INVALID);
                    }
                    data.len()
                }}
            }
            (None, None) => {
                let step = walk_ty(item, mode);
                quote! {{
                    let mut at = at;
                    while at < data.len() {
                        at = #step;
                    }
                    at
                }}
            }
            (Some(count_at), Some(size)) => {
                let size = Literal::usize_unsuffixed(size);
                quote! {{
                    let (n, at) = #count_at;
                    skip(data, at, n.checked_mul(#size).ok_or(INVALID)?)?
                }}
            }
            (Some(count_at), None) => {
                let step = walk_ty(item, mode);
                quote! {{
                    let (n, mut at) = #count_at;
                    for _ in 0..n {
                        at = #step;
                    }
                    at
                }}
            }
        },
        Ty::Text(count) => {
            let len_at = read_count(*count)
                .unwrap_or_else(|| quote!((data.len().checked_sub(at).ok_or(INVALID)?, at)));
            if mode == Walk::Validate {
                quote! {{
                    let (len, at) = #len_at;
                    let end = skip(data, at, len)?;
                    core::str::from_utf8(&data[at..end]).map_err(|_| INVALID)?;
                    end
                }}
            } else {
                quote! {{
                    let (len, at) = #len_at;
                    skip(data, at, len)?
                }}
            }
        }
        Ty::TaggedOption { tag, fixed, item } => {
            let width = Literal::usize_unsuffixed(*tag as usize);
            let none = if *fixed {
                let len = Literal::usize_unsuffixed(
                    crate::layout::encoded_len(item).expect("a fixed option's item"),
                );
                quote!(skip(data, at, #len)?)
            } else {
                quote!(at)
            };
            let step = walk_ty(item, mode);
            quote! {{
                let (tag, at) = count_of::<#width>(data, at)?;
                match tag {
                    0 => #none,
                    1 => #step,
                    _ => return Err(INVALID),
                }
            }}
        }
        Ty::ZeroableOption(item) => {
            // Checked only where it holds a value (not all zeros).
            let len = Literal::usize_unsuffixed(
                crate::layout::encoded_len(item).expect("a zeroable option's item"),
            );
            let step = walk_ty(item, mode);
            quote! {{
                let end = skip(data, at, #len)?;
                if data[at..end].iter().all(|b| *b == 0) {
                    end
                } else {
                    #step
                }
            }}
        }
        Ty::Int { .. } | Ty::Float { .. } | Ty::Pubkey | Ty::BigEndian { .. } => {
            unreachable!("fixed, handled first")
        }
    }
}

/// An expression that reads a Codama count at `at`: `(count, where what
/// it counts starts)`; `None` for a remainder, which has no count (its
/// items run to the data's end).
pub(super) fn read_count(count: Count) -> Option<TokenStream> {
    match count {
        Count::Prefix(width) => {
            let width = Literal::usize_unsuffixed(width as usize);
            Some(quote!(count_of::<#width>(data, at)?))
        }
        Count::ShortU16 => Some(quote!(short_u16(data, at)?)),
        Count::Remainder => None,
    }
}

/// Whether `ty` holds anything borsh does not write (a Codama IDL's wire
/// shapes), so the walk needs [`codama_helpers`].
pub(super) fn codama_wire(ty: &Ty) -> bool {
    match ty {
        Ty::BigEndian { .. }
        | Ty::ShortU16
        | Ty::List { .. }
        | Ty::Text(_)
        | Ty::TaggedOption { .. }
        | Ty::ZeroableOption(_) => true,
        Ty::Enum(e) => enum_wire(e),
        Ty::Struct(s) => struct_wire(s),
        Ty::Array(item, _) | Ty::Option(item) | Ty::Vec(item) => codama_wire(item),
        Ty::Map { key, value, .. } => codama_wire(key) || value.as_deref().is_some_and(codama_wire),
        Ty::Bool | Ty::Int { .. } | Ty::Float { .. } | Ty::Pubkey | Ty::String | Ty::Bytes => false,
        Ty::Length { .. } => unreachable!("{FIXED_CAPACITY_ONLY}"),
    }
}

fn struct_wire(s: &Struct) -> bool {
    s.fields.iter().any(|f| codama_wire(&f.ty))
}

fn enum_wire(e: &Enum) -> bool {
    e.tag > 1
        || e.variants
            .iter()
            .flat_map(|v| &v.fields)
            .any(|f| codama_wire(&f.ty))
}

/// The steps a walk over a Codama IDL's bytes adds to [`walk_helpers`]'s,
/// where `types` need them.
pub(super) fn codama_helpers<'a>(mut types: impl Iterator<Item = Named<'a>>) -> TokenStream {
    let named_wire = |named: Named| match named {
        Named::Struct(s) => struct_wire(s),
        Named::Enum(e) => enum_wire(e),
    };
    if !types.any(named_wire) {
        return quote!();
    }
    quote! {
        /// A little-endian count (or tag) of `N` bytes at `at`, and where
        /// what it counts starts.
        #[allow(dead_code)]
        #[inline(always)]
        fn count_of<const N: usize>(data: &[u8], at: usize) -> Result<(usize, usize), ProgramError> {
            let end = skip(data, at, N)?;
            let mut wide = [0u8; 8];
            wide[..N].copy_from_slice(&data[at..end]);
            Ok((u64::from_le_bytes(wide) as usize, end))
        }

        /// A compact `u16` at `at` (7 bits a byte, at most 3 bytes, in its
        /// shortest form), and where it ends.
        #[allow(dead_code)]
        #[inline(always)]
        fn short_u16(data: &[u8], at: usize) -> Result<(usize, usize), ProgramError> {
            let mut value = 0usize;
            for i in 0..3 {
                let byte = *data.get(at + i).ok_or(INVALID)?;
                if i > 0 && byte == 0 {
                    return Err(INVALID);
                }
                value |= usize::from(byte & 0x7f) << (7 * i);
                if byte & 0x80 == 0 {
                    return if value <= 0xffff { Ok((value, at + i + 1)) } else { Err(INVALID) };
                }
            }
            Err(INVALID)
        }
    }
}

/// borsh's length of `ty` where every value has it and the walk checks no
/// byte of it (no tag; in `Validate`, no bool): passed in one step.
pub(super) fn fixed_len(ty: &Ty, mode: Walk) -> Option<usize> {
    match ty {
        Ty::Int { bytes, .. } | Ty::Float { bytes } | Ty::BigEndian { bytes, .. } => {
            Some(*bytes as usize)
        }
        Ty::ZeroableOption(item) => fixed_len(item, mode),
        Ty::Pubkey => Some(32),
        Ty::Bool if mode == Walk::Skip => Some(1),
        Ty::Array(inner, len) => fixed_len(inner, mode)?.checked_mul(*len),
        Ty::Struct(s) => s
            .fields
            .iter()
            .try_fold(0usize, |sum, f| sum.checked_add(fixed_len(&f.ty, mode)?)),
        _ => None,
    }
}

/// `let at = ...;` steps from the start of `record` to the field at
/// `path`, passing (reading only lengths and tags) what lies before it at
/// each level; constant offsets where nothing before it varies.
pub(crate) fn walk_to(record: &Struct, path: &[usize]) -> TokenStream {
    let mut steps = Vec::new();
    let mut at = record;
    for i in path {
        steps.push(walk_fields(&at.fields[..*i], Walk::Skip));
        if let Ty::Struct(inner) = &at.fields[*i].ty {
            at = inner;
        }
    }
    quote!(#(#steps)*)
}
