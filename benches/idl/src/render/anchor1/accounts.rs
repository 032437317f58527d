//! Anchor 1.x programs from an Anchor IDL: the account as the user's own
//! program holds it. A borsh account is `#[account]` behind `Account<T>`
//! (decoded whole when the handler starts, encoded back when a mutable one
//! exits); a zero-copy one is `#[account(zero_copy)]` behind
//! `AccountLoader<T>` (a checked cast, stores in place). A borsh account
//! also takes the two moves Anchor offers it: `LazyAccount<T>` (one field
//! decoded on demand) and, where its fields can be zero-copy,
//! `AccountLoader<T>` over them laid out so ([`held`]). Each program has
//! the generated programs' three operations as Anchor handlers (`full`,
//! `read`, `update`), dispatched by Anchor on their `global:` discriminators,
//! with the IDL's account discriminator. They build in the run's Anchor
//! workspace ([`super`]).

use std::borrow::Cow;

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use crate::{
    layout::struct_layout,
    model::{Account, Integer, Kind, Scalar, Struct, Ty},
    render::{
        AccountFormat, AccountWrapper, Maps, Named, RowFormat, Target, field_expr, field_idents,
        field_names, ident, owned_fields, owned_item, padded_fields, reachable, snake, unparse,
    },
};

/// A record whose value takes more stack than this is held as
/// `Box<Account<T>>`, as Anchor's documentation advises for large accounts
/// (the stack frame is 4 KiB).
const BOX_ABOVE: usize = 1024;

/// The Anchor 1.x path a program takes for `account`, as its IDL says:
/// `Account<T>` for a borsh account, `AccountLoader<T>` for a zero-copy
/// one (none for a Codama layout).
pub fn format_for(account: &Account) -> Option<RowFormat> {
    match account.kind {
        Kind::Borsh => Some(RowFormat::Anchor1Account),
        Kind::ZeroCopy { .. } => Some(RowFormat::Anchor1AccountLoader),
        Kind::Codama | Kind::FixedCapacity => None,
    }
}

/// Every Anchor 1.x path `account` is measured on: today's first, then the
/// moves Anchor offers it (a borsh account's `LazyAccount<T>`, and
/// `AccountLoader<T>` where its fields can be zero-copy; a zero-copy
/// account has no other).
pub fn formats_for(account: &Account) -> &'static [AccountWrapper] {
    match account.kind {
        Kind::Borsh => &[
            AccountWrapper::Account,
            AccountWrapper::LazyAccount,
            AccountWrapper::AccountLoader,
        ],
        Kind::ZeroCopy { .. } | Kind::FixedCapacity => &[AccountWrapper::AccountLoader],
        Kind::Codama => &[],
    }
}

/// The account as a program of `format` holds it: a borsh account moved
/// to `AccountLoader<T>` is its fields in `#[account(zero_copy)]`'s
/// layout (`repr(C)`, the padding written out), so its bytes are that
/// layout's; every other pairing holds the IDL's account as it is.
pub fn held(format: AccountFormat, account: &Account) -> Cow<'_, Account> {
    if format == AccountFormat::Anchor1(AccountWrapper::AccountLoader)
        && account.kind == Kind::Borsh
    {
        Cow::Owned(Account {
            kind: Kind::ZeroCopy { packed: false },
            ..account.clone()
        })
    } else {
        Cow::Borrowed(account)
    }
}

/// Whether an Anchor 1.x program of `wrapper` can hold `account`, or why not.
pub fn fits(wrapper: AccountWrapper, account: &Account) -> Result<(), String> {
    if account.kind == Kind::Codama {
        return Err("a Codama layout: Anchor 1.x programs are rendered for Anchor IDLs".into());
    }
    if account.discriminator.iter().all(|b| *b == 0) {
        return Err(
            "no account discriminator (the record starts at byte 0): Anchor's accounts lead with one"
                .into(),
        );
    }
    match (wrapper, account.kind) {
        (AccountWrapper::Account, Kind::Borsh) => Ok(()),
        (AccountWrapper::LazyAccount, Kind::Borsh) => lazy_fits(&account.record),
        (AccountWrapper::Account | AccountWrapper::LazyAccount, _) => Err(format!(
            "a zero-copy account: `{}` reads `#[account]` (borsh) accounts only",
            wrapper_name(wrapper)
        )),
        (AccountWrapper::AccountLoader, Kind::ZeroCopy { packed }) => {
            struct_layout(&account.record, packed).map(|_| ())
        }
        (AccountWrapper::AccountLoader, Kind::FixedCapacity) => {
            struct_layout(&account.record, true).map(|_| ())
        }
        (AccountWrapper::AccountLoader, _) => struct_layout(&account.record, false)
            .map(|_| ())
            .map_err(|e| format!("a borsh account that cannot move to `AccountLoader<T>`: {e}")),
    }
}

/// The account type a wrapper's handlers take, for messages.
fn wrapper_name(wrapper: AccountWrapper) -> &'static str {
    match wrapper {
        AccountWrapper::LazyAccount => "LazyAccount<T>",
        AccountWrapper::AccountLoader => "AccountLoader<T>",
        AccountWrapper::Account => "Account<T>",
    }
}

/// Whether `LazyAccount<T>` can hold `record`: anchor-lang's `Lazy` trait
/// has no map or set; its macro names each root field's loader
/// `load_<field>`, which a raw identifier (`r#type`) cannot be part of;
/// and it sizes a fixed-size root field by calling the type's `size_of`
/// on an empty buffer, which panics for a struct of more than one field
/// (it slices past each field) and for a fieldless enum (it reads the
/// tag): a load of that field or past it aborts, and a written account
/// loads every field when it exits.
fn lazy_fits(record: &Struct) -> Result<(), String> {
    fn map_in(ty: &Ty) -> bool {
        matches!(ty, Ty::Map { .. }) || ty.children().into_iter().any(map_in)
    }
    if let Some(field) = record.fields.iter().find(|f| map_in(&f.ty)) {
        return Err(format!(
            "field `{}` holds a map or set, which anchor-lang's `LazyAccount<T>` cannot size (its `Lazy` trait has no map)",
            field.name
        ));
    }
    if let Some(field) = field_idents(&record.fields)
        .iter()
        .find(|f| f.to_string().starts_with("r#"))
    {
        return Err(format!(
            "field `{field}` is a Rust keyword: anchor-lang's `LazyAccount<T>` cannot name its `load_` method"
        ));
    }
    if let Some((field, why)) = record
        .fields
        .iter()
        .find_map(|f| empty_size_panics(&f.ty).map(|why| (f, why)))
    {
        return Err(format!(
            "field `{}` is fixed-size and holds {why}: anchor-lang's `LazyAccount<T>` sizes a fixed-size field from an empty buffer, which panics there, so loading it or any field past it aborts",
            field.name
        ));
    }
    Ok(())
}

/// What in `ty` makes anchor-lang's `Lazy::size_of(&[])` panic, where `ty`
/// is fixed-size to `Lazy` (no option, `Vec`, string or enum with data):
/// a struct of more than one field, or a fieldless enum.
fn empty_size_panics(ty: &Ty) -> Option<String> {
    fn sized(ty: &Ty) -> bool {
        match ty {
            Ty::Enum(e) => e.variants.iter().all(|v| v.fields.is_empty()),
            Ty::Struct(s) => s.fields.iter().all(|f| sized(&f.ty)),
            Ty::Array(inner, len) => *len == 0 || sized(inner),
            Ty::Option(_) | Ty::Vec(_) | Ty::String | Ty::Bytes | Ty::Map { .. } => false,
            _ => ty.children().is_empty(),
        }
    }
    fn panics(ty: &Ty) -> Option<String> {
        match ty {
            Ty::Enum(e) => Some(format!("the fieldless enum `{}`", e.name)),
            Ty::Struct(s) if s.fields.len() > 1 => Some(format!(
                "the struct `{}` of {} fields",
                s.name,
                s.fields.len()
            )),
            Ty::Array(_, 0) => None,
            _ => ty.children().into_iter().find_map(panics),
        }
    }
    if sized(ty) { panics(ty) } else { None }
}

/// The crate's `src/lib.rs`: `target`'s account behind `wrapper`, at the
/// program id `id` (base58; `declare_id!`, which `Account<T>` checks the
/// owner against).
pub fn program(target: &Target, wrapper: AccountWrapper, id: &str) -> String {
    let account = target.account;
    let record = &account.record;
    let name = ident(&record.ident, true);
    let label = RowFormat::from(AccountFormat::Anchor1(wrapper)).name();
    let module = format_ident!("{}_{}", snake(&record.ident), label);
    let (types, wrapper_ty, what) = match (wrapper, account.kind.memory()) {
        (_, Some(packed)) => (
            zero_copy_types(record, &account.discriminator, packed),
            quote!(AccountLoader<'info, state::#name>),
            "`#[account(zero_copy)]` behind `AccountLoader<T>`: a checked cast of the bytes after the discriminator, every field in place",
        ),
        (AccountWrapper::LazyAccount, _) => (
            borsh_types(record, &account.discriminator),
            quote!(LazyAccount<'info, state::#name>),
            "`#[account]` behind `LazyAccount<T>` (anchor-lang's `lazy-account` feature): `read` and `update` decode the one root field that holds their field (`load_<field>`), `full` the whole record (`load_mut`); a mutable one is encoded back whole when it exits",
        ),
        _ if stack_len(&Ty::Struct(record.clone())) > BOX_ABOVE => (
            borsh_types(record, &account.discriminator),
            quote!(Box<Account<'info, state::#name>>),
            "`#[account]` behind `Box<Account<T>>` (the record is large): decoded whole with borsh when the handler starts, encoded back when a mutable one exits",
        ),
        _ => (
            borsh_types(record, &account.discriminator),
            quote!(Account<'info, state::#name>),
            "`#[account]` behind `Account<T>`: decoded whole with borsh when the handler starts, encoded back when a mutable one exits",
        ),
    };
    let doc = format!(
        " `{}` of `{}` ({}) as an Anchor program holds it (anchor-lang: the workspace's pin): {what}. Generated by `make idl` from the IDL; see docs/idl.md.",
        account.name, target.program, target.source
    );
    let access = match (wrapper, account.kind) {
        (_, Kind::ZeroCopy { .. } | Kind::FixedCapacity) => Access::Loader,
        (AccountWrapper::LazyAccount, _) => Access::Lazy,
        _ => Access::Decoded,
    };
    let handlers = handlers(target, access);
    // The `load_<field>` methods are the trait `#[account]` derives
    // (`Lazy<Name>`), in scope where the handlers are.
    let lazy_trait = (access == Access::Lazy).then(|| {
        let name = format_ident!("Lazy{name}");
        quote!(use state::#name;)
    });
    let file = quote! {
        #![doc = #doc]
        extern crate alloc;

        use anchor_lang::prelude::*;
        // Memory and integer builtins for the SVM (the linker asks for them).
        use solana_compiler_builtins as _;

        declare_id!(#id);

        /// The IDL's types, in a module of their own: a type named as one of
        /// Anchor's prelude items (`Key`) shadows it only here.
        pub mod state {
            use anchor_lang::prelude::*;

            #types
        }

        #lazy_trait

        #[program]
        pub mod #module {
            use super::*;

            #handlers
        }

        /// `read`'s account: the record, read-only.
        #[derive(Accounts)]
        pub struct ReadRecord<'info> {
            pub record: #wrapper_ty,
        }

        /// `full`'s and `update`'s account: the record, written.
        #[derive(Accounts)]
        pub struct WriteRecord<'info> {
            #[account(mut)]
            pub record: #wrapper_ty,
        }
    };
    unparse(file)
}

/// How a handler reaches the record's fields.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Access {
    /// `Account<T>`: the record decoded whole before the handler runs.
    Decoded,
    /// `AccountLoader<T>`: `load()` / `load_mut()`, a cast in place.
    Loader,
    /// `LazyAccount<T>`: `load_<field>()` decodes one root field.
    Lazy,
}

/// The three handlers: `full` adds one to the `update` field, `read`
/// compares the `read` field's bytes with its argument, `update` stores its
/// argument in the `update` field.
fn handlers(target: &Target, access: Access) -> TokenStream {
    let record = &target.account.record;
    let loader = access == Access::Loader;
    let (load_mut, at_mut) = match access {
        Access::Decoded => (quote!(let record = &mut ctx.accounts.record;), None),
        Access::Loader => (
            quote!(let mut record = ctx.accounts.record.load_mut()?;),
            None,
        ),
        Access::Lazy => (
            quote!(let mut record = ctx.accounts.record.load_mut()?;),
            target
                .update
                .as_ref()
                .map(|path| lazy_field(record, &path.indexes, true)),
        ),
    };
    let (load, read_field) = match access {
        Access::Decoded => (
            quote!(let record = &ctx.accounts.record;),
            field_expr(quote!(record), record, &target.read.indexes),
        ),
        Access::Loader => (
            quote!(let record = ctx.accounts.record.load()?;),
            field_expr(quote!(record), record, &target.read.indexes),
        ),
        Access::Lazy => lazy_field(record, &target.read.indexes, false),
    };
    let read_len = Literal::usize_unsuffixed(target.read.ty.width());
    let read_bytes = read_bytes(read_field, target.read.ty, loader);
    let (full, update) = match &target.update {
        Some(path) => {
            let field = field_expr(quote!(record), record, &path.indexes);
            // Little-endian: big-endian integers come from Codama files,
            // which `fits` refuses.
            let Integer { bytes, signed, .. } = path.ty;
            let int = format_ident!("{}{}", if signed { "i" } else { "u" }, 8 * bytes as usize);
            let wide = loader && bytes == 16;
            let (bump, store) = if wide {
                (
                    quote!(#field = #int::from_le_bytes(#field).wrapping_add(1).to_le_bytes();),
                    quote!(#field = value.to_le_bytes();),
                )
            } else {
                (
                    quote!(#field = #field.wrapping_add(1);),
                    quote!(#field = value;),
                )
            };
            let full = quote! {
                /// Load the record, add one to the `update` field.
                pub fn full(ctx: Context<WriteRecord>) -> Result<()> {
                    #load_mut
                    #bump
                    Ok(())
                }
            };
            let update = match at_mut {
                // `LazyAccount<T>` decodes the root field that holds it.
                Some((load_field, field)) => quote! {
                    /// Store `value` in the `update` field, keeping every other one.
                    pub fn update(ctx: Context<WriteRecord>, value: #int) -> Result<()> {
                        #load_field
                        #field = value;
                        Ok(())
                    }
                },
                None => quote! {
                    /// Store `value` in the `update` field, keeping every other one.
                    pub fn update(ctx: Context<WriteRecord>, value: #int) -> Result<()> {
                        #load_mut
                        #store
                        Ok(())
                    }
                },
            };
            (full, update)
        }
        // No integer to change: `full` loads (and, for `Account<T>`,
        // encodes back) the record as it is; there is no `update`.
        None => (
            quote! {
                /// Load the record; nothing to change.
                pub fn full(ctx: Context<WriteRecord>) -> Result<()> {
                    #load_mut
                    let _ = &mut *record;
                    Ok(())
                }
            },
            quote!(),
        ),
    };
    quote! {
        #full

        /// Succeed if the `read` field's bytes are `value`.
        pub fn read(ctx: Context<ReadRecord>, value: [u8; #read_len]) -> Result<()> {
            #load
            if #read_bytes == value {
                Ok(())
            } else {
                Err(ProgramError::InvalidArgument.into())
            }
        }

        #update
    }
}

/// `LazyAccount<T>`'s load of the root field that holds `path` (its
/// `load_<field>` or `load_mut_<field>`), and the field at `path` in it.
fn lazy_field(record: &Struct, path: &[usize], write: bool) -> (TokenStream, TokenStream) {
    let (first, rest) = path.split_first().expect("a field path is never empty");
    let root = field_idents(&record.fields).swap_remove(*first);
    let field = if rest.is_empty() {
        quote!((*field))
    } else {
        let inner = field_names(record, path).into_iter().skip(1);
        quote!(field #(.#inner)*)
    };
    let load = if write {
        let method = format_ident!("load_mut_{root}");
        quote!(let mut field = ctx.accounts.record.#method()?;)
    } else {
        let method = format_ident!("load_{root}");
        quote!(let field = ctx.accounts.record.#method()?;)
    };
    (load, field)
}

/// The `read` field's bytes, compared with the argument as an array.
fn read_bytes(field: TokenStream, ty: Scalar, loader: bool) -> TokenStream {
    // A zero-copy field is copied out first: a packed record's fields
    // cannot be borrowed.
    let field = if loader { quote!({ #field }) } else { field };
    match ty {
        // A zero-copy bool is its byte.
        Scalar::Bool if loader => quote!([#field]),
        Scalar::Bool => quote!([u8::from(#field)]),
        Scalar::Pubkey if loader => quote!(#field.to_bytes()),
        // 16-byte integers are kept as their bytes in a zero-copy record.
        Scalar::Int(Integer {
            bytes: 16,
            big_endian: false,
            ..
        }) if loader => quote!(#field),
        Scalar::Pubkey => quote!(#field),
        _ => quote!(#field.to_le_bytes()),
    }
}

/// The record and every type it reaches, for `Account<T>`: the root as
/// `#[account]` with the IDL's discriminator, the rest with Anchor's borsh
/// derives. Pubkeys are `[u8; 32]` (`Pubkey`'s borsh code is the array's).
fn borsh_types(record: &Struct, discriminator: &[u8]) -> TokenStream {
    let name = ident(&record.ident, true);
    let fields = owned_fields(&record.fields, Maps::Sorted);
    let discriminator = discriminator.iter().map(|b| Literal::u8_unsuffixed(*b));
    let derives = quote!(#[derive(AnchorSerialize, AnchorDeserialize, Clone)]);
    let others = reachable(&[record])
        .into_values()
        .filter(|named| !matches!(named, Named::Struct(s) if s.ident == record.ident))
        .map(|named| owned_item(named, &derives, Maps::Sorted, &quote!(pub)));
    quote! {
        #[account(discriminator = [#(#discriminator),*])]
        pub struct #name { #(pub #fields),* }

        #(#others)*
    }
}

/// The record and every struct it reaches, for `AccountLoader<T>`: the
/// fields at SBF's offsets with the padding written out (`_paddingN`), a
/// compile-time size check on each; 16-byte integers as their bytes (this
/// route aligns `u128` to 16, SBF's toolchain to 8: docs/toolchain.md),
/// bools and enum tags as their bytes (`bool` is not `Pod`).
fn zero_copy_types(record: &Struct, discriminator: &[u8], packed: bool) -> TokenStream {
    let discriminator = discriminator.iter().map(|b| Literal::u8_unsuffixed(*b));
    let discriminator = quote!(discriminator = [#(#discriminator),*]);
    let items = reachable(&[record]).into_values().filter_map(|named| {
        let Named::Struct(s) = named else { return None };
        let name = ident(&s.ident, true);
        let (fields, size) = padded_fields(s, packed, loader_ty);
        let root = s.ident == record.ident;
        let attributes = match (root, packed || s.packed) {
            (true, false) => quote!(#[account(zero_copy, #discriminator)]),
            (true, true) => {
                quote!(#[account(zero_copy(unsafe), #discriminator)] #[repr(C, packed)])
            }
            (false, false) => quote!(#[zero_copy]),
            (false, true) => quote!(#[zero_copy(unsafe)] #[repr(C, packed)]),
        };
        Some(quote! {
            #attributes
            pub struct #name { #(pub #fields),* }

            /// The layout's size, checked at compile time.
            const _: [(); #size] = [(); core::mem::size_of::<#name>()];
        })
    });
    quote!(#(#items)*)
}

/// A field's type in a zero-copy record.
fn loader_ty(ty: &Ty) -> TokenStream {
    match ty {
        Ty::Int { bytes: 16, .. } => quote!([u8; 16]),
        Ty::Int { bytes, signed } => {
            let name = format_ident!("{}{}", if *signed { "i" } else { "u" }, 8 * *bytes as usize);
            quote!(#name)
        }
        Ty::Float { bytes: 4 } => quote!(f32),
        Ty::Float { .. } => quote!(f64),
        Ty::Pubkey => quote!(Pubkey),
        Ty::Array(inner, len) => {
            let inner = loader_ty(inner);
            let len = Literal::usize_unsuffixed(*len);
            quote!([#inner; #len])
        }
        Ty::Struct(s) => {
            let name = ident(&s.ident, true);
            quote!(#name)
        }
        // Bools and enum tags as their bytes.
        other => crate::render::aligned_ty(other),
    }
}

/// About the bytes `ty`'s value takes on the stack (a `Vec`, `String` or
/// map is its 24-byte header), to choose `Box<Account<T>>`; saturating,
/// since an IDL may declare arrays no stack could hold.
fn stack_len(ty: &Ty) -> usize {
    let fields = |fields: &[crate::model::Field]| {
        fields
            .iter()
            .map(|f| stack_len(&f.ty))
            .fold(0, usize::saturating_add)
    };
    match ty {
        Ty::Bool => 1,
        Ty::Int { bytes, .. } | Ty::Float { bytes } | Ty::BigEndian { bytes, .. } => {
            *bytes as usize
        }
        Ty::Pubkey => 32,
        Ty::Array(inner, len) => stack_len(inner).saturating_mul(*len),
        Ty::Struct(s) => fields(&s.fields),
        Ty::Enum(e) => {
            let largest = e.variants.iter().map(|v| fields(&v.fields)).max();
            8usize.saturating_add(largest.unwrap_or(0))
        }
        Ty::Option(inner) => 8usize.saturating_add(stack_len(inner)),
        _ => 24,
    }
}
