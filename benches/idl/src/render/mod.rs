//! The model rendered as programs: one crate per account type and format,
//! written with `quote` and formatted with `prettyplease`, so what lands in
//! `target/benches/idl/` reads like the hand-written programs beside it.
//! Each is a `common::idl::Format` behind the shared dispatch.

use std::collections::BTreeMap;

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{format_ident, quote};

use crate::{
    layout::{encoded_len, struct_layout, zero_copy},
    model::{Account, Enum, Field, Kind, Struct, Ty},
    names,
    value::{FieldPath, ty_at},
};

pub mod anchor1;
pub mod arguments;
mod bytemuck;
pub mod events;
mod owned;
mod walk;
mod zerocopy;

pub use self::owned::*;
use self::{bytemuck::*, walk::*, zerocopy::*};

/// A format the generator writes programs in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Format {
    /// Anchor 1.x's `Account<T>`: borsh's owned decode of the record after
    /// the discriminator, encoded back; by value.
    Borsh,
    /// The same, decoded into a `Box` (what `Box<Account<T>>` does).
    BorshBoxed,
    /// Anchor 2's `BorshAccount<T>`: wincode reading and writing borsh's
    /// bytes (`common::WINCODE_BORSH`).
    Wincode,
    /// No crate: generated code in place over borsh's bytes, reading
    /// lengths and tags up to the field it needs (the raw baseline).
    Walk,
    /// Anchor's `AccountLoader<T>`: bytemuck's cast of the bytes after the
    /// discriminator (zero-copy accounts only).
    Bytemuck,
    /// zerocopy's checked conversion of the same bytes: it validates every
    /// bool and enum itself (zero-copy accounts only).
    Zerocopy,
    /// No decode at all (instructions): the same dispatch and store, the
    /// stored bytes taken from the data as they came, so each format's own
    /// cost is a difference in one run.
    Floor,
    /// Anchor's `emit_cpi!` (events): the event encoded as `#[event]`
    /// (wincode), passed to the program itself in a CPI signed by its
    /// event authority.
    EmitCpi,
    /// Anchor 1.x itself (`programs/anchor1/`'s route): the record as
    /// `#[account]` behind `Account<T>`, through Anchor's dispatch and
    /// account checks; borsh accounts.
    Anchor1Account,
    /// Anchor 1.x's `AccountLoader<T>` over `#[account(zero_copy)]`: a
    /// zero-copy account as its IDL says, or a borsh one whose fields can
    /// be laid out so (its move to zero-copy).
    Anchor1AccountLoader,
    /// Anchor 1.x's `LazyAccount<T>` over `#[account]` (its `lazy-account`
    /// feature): one field decoded on demand; borsh accounts.
    Anchor1LazyAccount,
    /// Anchor 1.x's instruction handlers: every instruction's arguments as
    /// the handler's parameters, decoded with borsh by Anchor's dispatch
    /// on the IDL's discriminators.
    Anchor1Instruction,
    /// Anchor 1.x's `emit!`: the event as `#[event]`, logged.
    Anchor1Emit,
    /// Anchor 1.x's `emit_cpi!`: the event passed to the program itself,
    /// signed by its event authority (`#[event_cpi]`).
    Anchor1EmitCpi,
}

impl Format {
    pub const ALL: [Self; 6] = [
        Self::Borsh,
        Self::BorshBoxed,
        Self::Wincode,
        Self::Walk,
        Self::Bytemuck,
        Self::Zerocopy,
    ];

    /// The account formats of Anchor 1.x programs (`make idl` renders
    /// them for Anchor IDLs: [`anchor1`]).
    pub const ANCHOR1: [Self; 3] = [
        Self::Anchor1Account,
        Self::Anchor1AccountLoader,
        Self::Anchor1LazyAccount,
    ];

    /// The framework the program is written in: `pinocchio` (the
    /// generated formats behind common's dispatch) or `anchor1`.
    pub fn framework(self) -> &'static str {
        if self.is_anchor1() {
            "anchor1"
        } else {
            "pinocchio"
        }
    }

    /// Whether the program is an Anchor 1.x one (`render::anchor1`).
    pub fn is_anchor1(self) -> bool {
        matches!(
            self,
            Self::Anchor1Account
                | Self::Anchor1AccountLoader
                | Self::Anchor1LazyAccount
                | Self::Anchor1Instruction
                | Self::Anchor1Emit
                | Self::Anchor1EmitCpi
        )
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::Anchor1Account => "anchor1_account",
            Self::Anchor1AccountLoader => "anchor1_account_loader",
            Self::Anchor1LazyAccount => "anchor1_lazy_account",
            Self::Anchor1Instruction => "anchor1_instruction",
            Self::Anchor1Emit => "anchor1_emit",
            Self::Anchor1EmitCpi => "anchor1_emit_cpi",
            Self::Borsh => "borsh",
            Self::BorshBoxed => "borsh_boxed",
            Self::Wincode => "wincode",
            Self::Walk => "walk",
            Self::Bytemuck => "bytemuck",
            Self::Zerocopy => "zerocopy",
            Self::Floor => "floor",
            Self::EmitCpi => "emit_cpi",
        }
    }

    /// The crate measured, as results name it.
    pub fn crate_name(self) -> &'static str {
        match self {
            Self::Borsh | Self::BorshBoxed => "borsh",
            Self::Wincode | Self::EmitCpi => "wincode",
            Self::Walk | Self::Floor => "none",
            Self::Bytemuck => "bytemuck",
            Self::Zerocopy => "zerocopy",
            _ => "anchor-lang",
        }
    }

    /// The crate's version, pinned as the workspace pins it.
    pub fn crate_version(self) -> &'static str {
        match self {
            Self::Borsh | Self::BorshBoxed => "1.8.1",
            Self::Wincode | Self::EmitCpi => "0.6.3",
            Self::Walk | Self::Floor => "-",
            Self::Bytemuck => "1.25.2",
            Self::Zerocopy => "0.8.63",
            _ => anchor1::ANCHOR_LANG,
        }
    }

    /// What the generated program does with the crate, for its doc comment.
    fn describe(self) -> &'static str {
        match self {
            Self::Borsh => {
                "borsh, as Anchor 1.x's `Account<T>` reads it: an owned decode of the record after the discriminator, by value, encoded back after a write"
            }
            Self::BorshBoxed => {
                "borsh decoded into a `Box` (what `Box<Account<T>>` does), encoded back after a write"
            }
            Self::Wincode => {
                "wincode writing borsh's bytes, as Anchor 2's `BorshAccount<T>` does: an owned decode of the record after the discriminator, encoded back after a write"
            }
            Self::Walk => {
                "no crate: generated code that walks borsh's bytes in place, validating every length, tag, bool and UTF-8 string it passes (all of them for `full`), and reads or writes the one field where it lies"
            }
            Self::Bytemuck => {
                "bytemuck, as Anchor's `AccountLoader<T>` reads it: a cast of the bytes after the discriminator, every field in place"
            }
            Self::Zerocopy => {
                "zerocopy's checked conversion of the bytes after the discriminator (the crate validates every bool and enum), every field in place"
            }
            Self::Floor | Self::EmitCpi => unreachable!("not an account format"),
            _ => unreachable!("rendered by render::anchor1"),
        }
    }

    /// Whether it reads borsh's bytes into an owned value.
    fn owned(self) -> bool {
        matches!(self, Self::Borsh | Self::BorshBoxed | Self::Wincode)
    }

    /// Whether the format can hold `account`, or why not.
    pub fn fits(self, account: &Account) -> Result<(), String> {
        match (self, account.kind) {
            (
                Self::Floor
                | Self::EmitCpi
                | Self::Anchor1Instruction
                | Self::Anchor1Emit
                | Self::Anchor1EmitCpi,
                _,
            ) => Err(format!(
                "{} is measured on instructions or events only",
                self.name()
            )),
            (
                Self::Anchor1Account | Self::Anchor1AccountLoader | Self::Anchor1LazyAccount,
                _,
            ) => anchor1::fits(self, account),
            (Self::Zerocopy, Kind::Codama) => Err(
                "a Codama layout: zerocopy is measured on Anchor's zero-copy accounts (bytemuck is the cast p-token and spl-pod make)"
                    .into(),
            ),
            (Self::Bytemuck, Kind::Codama) => match remainder_split(&account.record) {
                Some((header, item)) => {
                    struct_layout(&header, true)?;
                    zero_copy(item, true)
                        .map(|_| ())
                        .map_err(|e| format!("the items to the end of the data: {e}"))
                }
                None => struct_layout(&account.record, true).map(|_| ()),
            },
            (Self::Borsh | Self::BorshBoxed, Kind::Codama) => {
                borsh_bytes(&Ty::Struct(account.record.clone()))
            }
            (Self::Wincode, Kind::Codama) => {
                wincode_config(&Ty::Struct(account.record.clone())).map(|_| ())
            }
            (_, Kind::Codama) => Ok(()),
            (Self::Bytemuck | Self::Zerocopy, Kind::Borsh) => Err(format!(
                "a borsh account: {} reads zero-copy accounts only",
                self.name()
            )),
            (Self::Bytemuck | Self::Zerocopy, Kind::ZeroCopy { packed }) => {
                struct_layout(&account.record, packed).map(|_| ())
            }
            (_, Kind::Borsh) => Ok(()),
            (_, Kind::ZeroCopy { packed }) => {
                let memory = struct_layout(&account.record, packed)?.layout.size;
                let encoded = encoded_len(&Ty::Struct(account.record.clone()));
                if encoded == Some(memory) {
                    Ok(())
                } else {
                    Err(format!(
                        "its layout has {} bytes of padding, so borsh's bytes are not the account's",
                        memory - encoded.unwrap_or(memory)
                    ))
                }
            }
        }
    }
}

/// What the generator needs to know of an account beyond the model.
#[derive(Clone, Debug)]
pub struct Target<'a> {
    pub program: &'a str,
    pub source: &'a str,
    pub account: &'a Account,
    /// The account's index in the IDL (the instruction's second byte).
    pub index: u8,
    pub read: FieldPath,
    pub update: Option<FieldPath>,
}

/// The crate's `src/lib.rs` for `target` in `format`.
pub fn program(target: &Target, format: Format) -> String {
    let account = target.account;
    let doc = format!(
        " `{}` of `{}` ({}), with {}. Generated by `make idl` from the IDL; see docs/idl.md.",
        account.name,
        target.program,
        target.source,
        format.describe()
    );
    let (types, body) = match format {
        Format::Borsh | Format::BorshBoxed | Format::Wincode => {
            let (helpers, ops) = owned_ops(target, format);
            let types = owned_types(&[&account.record], format);
            (quote!(#types #helpers), ops)
        }
        Format::Walk => walk(target),
        Format::Floor | Format::EmitCpi => unreachable!("checked by Format::fits"),
        Format::Anchor1Account
        | Format::Anchor1AccountLoader
        | Format::Anchor1LazyAccount
        | Format::Anchor1Instruction
        | Format::Anchor1Emit
        | Format::Anchor1EmitCpi => unreachable!("rendered by render::anchor1"),
        Format::Bytemuck => {
            let packed = match account.kind {
                Kind::ZeroCopy { packed } => packed,
                Kind::Codama => true,
                Kind::Borsh => unreachable!("checked by Format::fits"),
            };
            match remainder_split(&account.record) {
                // A fixed header cast as one struct, the items after it
                // cast as a slice (the address lookup table program reads
                // its addresses so).
                Some((header, item)) if account.kind == Kind::Codama => {
                    let header_account = Account {
                        record: header,
                        ..account.clone()
                    };
                    let header_target = Target {
                        account: &header_account,
                        ..target.clone()
                    };
                    let (helpers, ops) = bytemuck_ops(&header_target, true, Some(item));
                    let mut roots = vec![&header_account.record];
                    if let Ty::Struct(s) = item {
                        roots.push(s);
                    }
                    let types = aligned_types(&roots, true);
                    (quote!(#types #helpers), ops)
                }
                _ => {
                    let (helpers, ops) = bytemuck_ops(target, packed, None);
                    let types = aligned_types(&[&account.record], packed);
                    (quote!(#types #helpers), ops)
                }
            }
        }
        Format::Zerocopy => {
            let Kind::ZeroCopy { packed } = account.kind else {
                unreachable!("checked by Format::fits")
            };
            let (helpers, ops) = zerocopy_ops(target, packed);
            let types = checked_types(&account.record, packed);
            (quote!(#types #helpers), ops)
        }
    };
    let discriminator = account
        .discriminator
        .iter()
        .map(|b| Literal::u8_unsuffixed(*b));
    let index = Literal::u8_unsuffixed(target.index);
    let read_len = Literal::usize_unsuffixed(field_len(ty_at(&account.record, &target.read)));
    let update_len = match &target.update {
        Some(path) => {
            let len = Literal::usize_unsuffixed(field_len(ty_at(&account.record, path)));
            quote!(Some(#len))
        }
        None => quote!(None),
    };
    let format_ident = format_ident!("{}", camel(format.name()));
    let alloc = format.owned().then(|| {
        quote!(
            extern crate alloc;
        )
    });
    let file = quote! {
        #![doc = #doc]
        #![no_std]
        #alloc

        use common::{ProgramError, ProgramResult, idl::Format, invalid_account_data};

        #types

        struct #format_ident;

        impl Format for #format_ident {
            const TYPE: u8 = #index;
            const DISCRIMINATOR: &'static [u8] = &[#(#discriminator),*];
            const READ_LEN: usize = #read_len;
            const UPDATE_LEN: Option<usize> = #update_len;
            #body
        }

        common::idl_program!(#format_ident);
    };
    unparse(file)
}

/// The `hashbrown` a generated program's hash maps are (`generate` keeps
/// its lockfile to this one).
pub const HASHBROWN: &str = "0.15.5";

/// The crate's `Cargo.toml`: `common` from this repository, the crate at
/// the workspace's pinned version. A crate that holds a hash map or set
/// (`hash_maps`) also depends on `hashbrown`, through borsh's `hashbrown`
/// feature, and on `foldhash` for its fixed-seed hasher.
pub fn manifest(package: &str, format: Format, common: &str, hash_maps: bool) -> String {
    let hashed_borsh = format!(
        "borsh = {{ version = \"=1.8.1\", default-features = false, features = [\"derive\", \"hashbrown\"] }}\n\
         hashbrown = {{ version = \"={HASHBROWN}\", default-features = false }}\n\
         foldhash = {{ version = \"=0.1.5\", default-features = false }}"
    );
    let (serializer, common_features) = match format {
        Format::Borsh | Format::BorshBoxed if hash_maps => (hashed_borsh.as_str(), ""),
        Format::Borsh | Format::BorshBoxed => (
            r#"borsh = { version = "=1.8.1", default-features = false, features = ["derive"] }"#,
            "",
        ),
        Format::Wincode => (
            r#"wincode = { version = "=0.6.3", default-features = false, features = ["derive", "alloc"] }"#,
            r#", features = ["wincode"]"#,
        ),
        Format::Bytemuck => (
            r#"bytemuck = { version = "=1.25.2", default-features = false, features = ["derive", "min_const_generics"] }"#,
            "",
        ),
        Format::Zerocopy => (
            r#"zerocopy = { version = "=0.8.63", default-features = false, features = ["derive"] }"#,
            "",
        ),
        Format::Walk | Format::Floor | Format::EmitCpi => ("", ""),
        _ => unreachable!("an Anchor workspace's: anchor1::manifest"),
    };
    format!(
        "# Generated by `make idl`.\n[package]\nname = \"{package}\"\nversion = \"0.1.0\"\nedition = \"2024\"\npublish = false\n\n[lib]\ncrate-type = [\"cdylib\", \"lib\"]\n\n[dependencies]\ncommon = {{ path = \"{common}\"{common_features} }}\n{serializer}\n\n[lints]\nworkspace = true\n"
    )
}

/// The generated workspace's `Cargo.toml`: the main workspace's release
/// profile and lints, so generated rows are built as the families are.
pub fn workspace_manifest() -> String {
    "# Generated by `make idl`: one crate per account type and format.\n[workspace]\nresolver = \"2\"\nmembers = [\"programs/*\"]\n\n[workspace.lints.rust]\nunexpected_cfgs = { level = \"warn\", check-cfg = ['cfg(target_os, values(\"solana\"))'] }\n\n[profile.release]\nlto = \"fat\"\ncodegen-units = 1\n".into()
}

fn unparse(tokens: TokenStream) -> String {
    let file: syn::File = syn::parse2(tokens).expect("the generator writes valid Rust");
    prettyplease::unparse(&file)
}

/// A field's width in the instruction data.
fn field_len(ty: &Ty) -> usize {
    match ty {
        Ty::Bool => 1,
        Ty::Int { bytes, .. } | Ty::Float { bytes } | Ty::BigEndian { bytes, .. } => {
            *bytes as usize
        }
        Ty::Pubkey => 32,
        _ => unreachable!("read and update fields are scalars or pubkeys"),
    }
}

/// The expression that names the field at `path` in the value `base` of
/// `record`'s type (`record.fees.protocol_fee`).
fn field_expr(base: TokenStream, record: &Struct, path: &[usize]) -> TokenStream {
    let mut expr = base;
    let mut at = record;
    for i in path {
        let field = field_idents(&at.fields).swap_remove(*i);
        expr = quote!(#expr.#field);
        if let Ty::Struct(inner) = &at.fields[*i].ty {
            at = inner;
        }
    }
    expr
}

/// `let at = ...;` steps from the start of `record` to the field at
/// `path`, passing (reading only lengths and tags) what lies before it at
/// each level; constant offsets where nothing before it varies.
fn walk_to(record: &Struct, path: &[usize]) -> TokenStream {
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

fn camel(name: &str) -> String {
    names::camel_case(name)
}

/// Every struct and enum reachable from `record`, once each by name.
fn reachable<'a>(ty: &'a Ty, out: &mut BTreeMap<String, &'a Ty>) {
    for child in ty.children() {
        reachable(child, out);
    }
    match ty {
        Ty::Struct(s) => {
            out.entry(s.ident.clone()).or_insert(ty);
        }
        Ty::Enum(e) => {
            out.entry(e.ident.clone()).or_insert(ty);
        }
        _ => {}
    }
}

/// An integer field's Rust type and the conversions from and to its
/// bytes (big-endian where the IDL says so).
fn integer(ty: &Ty) -> (Ident, Ident, Ident) {
    let (bytes, signed, big) = match *ty {
        Ty::Int { bytes, signed } => (bytes, signed, false),
        Ty::BigEndian { bytes, signed } => (bytes, signed, true),
        _ => unreachable!("the update field is an integer"),
    };
    let int = format_ident!("{}{}", if signed { "i" } else { "u" }, 8 * bytes as usize);
    if big {
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

/// The three `Format` operations from their bodies: `read` runs
/// `read_setup`, then succeeds if `matches` (the field's bytes are the
/// value) and answers `InvalidArgument` if not.
fn operations(
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
fn refused_update() -> TokenStream {
    quote! {
        let _ = (data, value);
        Err(ProgramError::InvalidInstructionData)
    }
}
