//! The model rendered as programs: one crate per account type and format,
//! written with `quote` and formatted with `prettyplease`, so what lands in
//! `target/benches/idl/` reads like the hand-written programs beside it.
//! Each is a `common::idl::Format` behind the shared dispatch.

use std::collections::BTreeMap;

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{format_ident, quote};

use crate::{
    layout::{encoded_len, struct_layout, zero_copy},
    model::{Account, Count, Enum, Field, Kind, Struct, Ty},
    names,
    value::{FieldPath, ty_at},
};

pub mod arguments;
pub mod events;

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

    pub fn name(self) -> &'static str {
        match self {
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
        }
    }

    /// Whether it reads borsh's bytes into an owned value.
    fn owned(self) -> bool {
        matches!(self, Self::Borsh | Self::BorshBoxed | Self::Wincode)
    }

    /// Whether the format can hold `account`, or why not.
    pub fn fits(self, account: &Account) -> Result<(), String> {
        match (self, account.kind) {
            (Self::Floor | Self::EmitCpi, _) => Err(format!(
                "{} is measured on instructions or events only",
                self.name()
            )),
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
    let paddings: Vec<String> = (0..=fields.len()).map(|n| format!("_padding{n}")).collect();
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

// ---- borsh and wincode: native types with the crate's derives ------------

/// The derives of an owned format's types. `Clone`: borsh decodes a
/// `Box<T>` through `T: ToOwned`.
fn owned_derives(format: Format) -> TokenStream {
    match format {
        Format::Wincode => quote!(#[derive(wincode::SchemaWrite, wincode::SchemaRead)]),
        _ => quote!(#[derive(Clone, borsh::BorshSerialize, borsh::BorshDeserialize)]),
    }
}

/// Every struct and enum reachable from `roots`, with the format's derives.
/// borsh's programs hold each map as the IDL declares it (a hash map or a
/// `BTreeMap`); wincode's, which has no hash map without `std`, hold every
/// map as a `BTreeMap` (the same bytes).
fn owned_types(roots: &[&Struct], format: Format) -> TokenStream {
    let maps = match format {
        Format::Borsh | Format::BorshBoxed => Maps::AsDeclared,
        _ => Maps::Sorted,
    };
    owned_types_with(roots, &owned_derives(format), maps)
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
pub fn holds_hash_maps(roots: &[&Struct], format: Format) -> bool {
    fn hashed(ty: &Ty) -> bool {
        matches!(ty, Ty::Map { sorted: false, .. }) || ty.children().into_iter().any(hashed)
    }
    matches!(format, Format::Borsh | Format::BorshBoxed)
        && roots.iter().any(|r| r.fields.iter().any(|f| hashed(&f.ty)))
}

/// Every struct and enum reachable from `roots`, with `derives`.
fn owned_types_with(roots: &[&Struct], derives: &TokenStream, maps: Maps) -> TokenStream {
    let roots: Vec<Ty> = roots.iter().map(|r| Ty::Struct((*r).clone())).collect();
    let mut types = BTreeMap::new();
    for root in &roots {
        reachable(root, &mut types);
    }
    let items = types.values().map(|ty| match ty {
        Ty::Struct(s) => {
            let name = ident(&s.ident, true);
            let fields = owned_fields(&s.fields, maps);
            quote! {
                #derives
                struct #name { #(#fields),* }
            }
        }
        Ty::Enum(e) => owned_enum(e, derives, maps),
        _ => unreachable!(),
    });
    quote!(#(#items)*)
}

/// Named fields as an owned type declares them: `name: Type`.
fn owned_fields(fields: &[Field], maps: Maps) -> Vec<TokenStream> {
    fields
        .iter()
        .zip(field_idents(fields))
        .map(|(f, field)| {
            let ty = owned_ty(&f.ty, maps);
            quote!(#field: #ty)
        })
        .collect()
}

fn owned_enum(e: &Enum, derives: &TokenStream, maps: Maps) -> TokenStream {
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
        enum #name { #(#variants),* }
    }
}

fn owned_ty(ty: &Ty, maps: Maps) -> TokenStream {
    match ty {
        Ty::Bool => quote!(bool),
        Ty::Int { bytes, signed } => {
            let name = format_ident!("{}{}", if *signed { "i" } else { "u" }, 8 * *bytes as usize);
            quote!(#name)
        }
        Ty::Float { bytes: 4 } => quote!(f32),
        Ty::Float { .. } => quote!(f64),
        Ty::Pubkey => quote!([u8; 32]),
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
            unreachable!("checked by Format::fits")
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
fn widths(
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
fn owned_ops(target: &Target, format: Format) -> (TokenStream, TokenStream) {
    let boxed = format == Format::BorshBoxed;
    let record = &target.account.record;
    let name = ident(&record.ident, true);
    let read = field_expr(quote!(record), record, &target.read);
    let read_bytes = match ty_at(record, &target.read) {
        Ty::Bool => quote!([u8::from(#read)]),
        Ty::Pubkey => quote!(#read),
        _ => quote!(#read.to_le_bytes()),
    };
    let value_ty = if boxed {
        quote!(alloc::boxed::Box<#name>)
    } else {
        quote!(#name)
    };
    let widths = match format {
        Format::Wincode => {
            wincode_config(&Ty::Struct(record.clone())).expect("checked by Format::fits")
        }
        _ => (4, 1),
    };
    let config = wincode_config_expr(widths);
    let config_item = wincode_config_item(widths);
    let (decode_with, encode_with) = match format {
        Format::Wincode => (
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
            let field = field_expr(quote!(record), record, path);
            let ty = owned_ty(ty_at(record, path), Maps::Sorted);
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

// ---- bytemuck: alignment-1 types at SBF's offsets ------------------------

fn aligned_types(roots: &[&Struct], packed: bool) -> TokenStream {
    let roots: Vec<Ty> = roots.iter().map(|r| Ty::Struct((*r).clone())).collect();
    let mut types = BTreeMap::new();
    for root in &roots {
        reachable(root, &mut types);
    }
    let items = types.values().filter_map(|ty| match ty {
        Ty::Struct(s) => Some(aligned_struct(s, packed)),
        _ => None,
    });
    quote!(#(#items)*)
}

/// `s`'s fields as `field_ty` writes them (alignment-1 types), with the
/// SBF layout's padding as explicit `_paddingN: [u8; N]` fields, and the
/// layout's size: the generated struct's offsets are SBF's on any target.
fn padded_fields(
    s: &Struct,
    packed: bool,
    field_ty: fn(&Ty) -> TokenStream,
) -> (Vec<TokenStream>, Literal) {
    let layout = struct_layout(s, packed).expect("checked by Format::fits");
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
fn aligned_struct(s: &Struct, packed: bool) -> TokenStream {
    let name = ident(&s.ident, true);
    let (fields, size) = padded_fields(s, packed, aligned_ty);
    let check = validity(s);
    let valid = format_ident!("valid_{}", snake(&s.ident));
    quote! {
        #[repr(C)]
        #[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
        struct #name { #(#fields),* }

        /// The layout's size, checked at compile time.
        const _: [(); #size] = [(); core::mem::size_of::<#name>()];

        /// Every bool is 0 or 1 and every enum a variant.
        #[allow(unused_variables)]
        fn #valid(value: &#name) -> bool {
            #check
        }
    }
}

fn aligned_ty(ty: &Ty) -> TokenStream {
    match ty {
        Ty::Enum(e) if e.tag > 1 => {
            let n = Literal::usize_unsuffixed(e.tag as usize);
            quote!([u8; #n])
        }
        Ty::Bool | Ty::Enum(_) => quote!(u8),
        Ty::Int { bytes, .. } | Ty::Float { bytes } | Ty::BigEndian { bytes, .. } => {
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
        _ => unreachable!("checked by Format::fits"),
    }
}

/// The conjunction of every bool's and enum's range check in `s`.
fn validity(s: &Struct) -> TokenStream {
    let checks: Vec<TokenStream> = s
        .fields
        .iter()
        .zip(field_idents(&s.fields))
        .filter_map(|(f, name)| check(quote!(value.#name), &f.ty))
        .collect();
    if checks.is_empty() {
        quote!(true)
    } else {
        quote!(#(#checks)&&*)
    }
}

fn check(expr: TokenStream, ty: &Ty) -> Option<TokenStream> {
    match ty {
        Ty::Bool => Some(quote!(#expr <= 1)),
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

fn has_checks(s: &Struct) -> bool {
    s.fields.iter().any(|f| check(quote!(x), &f.ty).is_some())
}

/// A record whose last field is items to the end of the data: the record
/// without it, and the item.
fn remainder_split(record: &Struct) -> Option<(Struct, &Ty)> {
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
fn bytemuck_ops(target: &Target, packed: bool, rest: Option<&Ty>) -> (TokenStream, TokenStream) {
    let record = &target.account.record;
    let name = ident(&record.ident, true);
    let valid = format_ident!("valid_{}", snake(&record.ident));
    let size =
        Literal::usize_unsuffixed(struct_layout(record, packed).expect("laid out").layout.size);
    let read = field_expr(quote!(record), record, &target.read);
    let (read_bytes, read_check) = match ty_at(record, &target.read) {
        Ty::Bool => (
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
            let field = field_expr(quote!(record), record, path);
            let (int, from, to) = integer(ty_at(record, path));
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

// ---- zerocopy: checked types at SBF's offsets -----------------------------

/// Every struct (and unit enum) reachable from `record` with zerocopy's
/// checked derives: little-endian, alignment-1 field types, padding explicit,
/// so the crate validates bools and enum tags as it converts.
fn checked_types(record: &Struct, packed: bool) -> TokenStream {
    let root = Ty::Struct(record.clone());
    let mut types = BTreeMap::new();
    reachable(&root, &mut types);
    let items = types.values().map(|ty| match ty {
        Ty::Struct(s) => checked_struct(s, packed),
        Ty::Enum(e) => {
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
        _ => unreachable!(),
    });
    quote!(#(#items)*)
}

fn checked_struct(s: &Struct, packed: bool) -> TokenStream {
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

fn checked_ty(ty: &Ty) -> TokenStream {
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
        _ => unreachable!("checked by Format::fits"),
    }
}

/// The helpers the operations share, and the operations.
fn zerocopy_ops(target: &Target, packed: bool) -> (TokenStream, TokenStream) {
    let record = &target.account.record;
    let name = ident(&record.ident, true);
    let size =
        Literal::usize_unsuffixed(struct_layout(record, packed).expect("laid out").layout.size);
    let read = field_expr(quote!(record), record, &target.read);
    let (full, update) = match &target.update {
        Some(path) => {
            let field = field_expr(quote!(record), record, path);
            let bump = match ty_at(record, path) {
                Ty::Int { bytes: 1, .. } => quote!(#field = #field.wrapping_add(1);),
                _ => quote!(#field.set(#field.get().wrapping_add(1));),
            };
            let in_place = field_expr(quote!(record_mut(data)?), record, path);
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

// ---- walk: generated in place over borsh's bytes ---------------------------

/// How far the walk checks what it passes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Walk {
    /// Every length, tag, bool and UTF-8 string (`full`): `walk_<type>`.
    Validate,
    /// Only what it must read to find the next field, lengths and tags
    /// (`read`, `update`): `skip_<type>`.
    Skip,
}

impl Walk {
    fn function(self, type_name: &str) -> Ident {
        match self {
            Self::Validate => format_ident!("walk_{}", snake(type_name)),
            Self::Skip => format_ident!("skip_{}", snake(type_name)),
        }
    }
}

/// The walk's functions and operations: per struct and enum a function
/// that walks one value at `at` and returns where it ends; the record's
/// fields walked in order up to the field an operation needs.
fn walk(target: &Target) -> (TokenStream, TokenStream) {
    let record = &target.account.record;
    let root = Ty::Struct(record.clone());
    let mut types = BTreeMap::new();
    reachable(&root, &mut types);
    let mut walkers = Vec::new();
    for mode in [Walk::Validate, Walk::Skip] {
        for ty in types.values() {
            walkers.push(walker(ty, mode));
        }
    }
    walkers.push(codama_helpers(types.values().copied()));
    // Where the field at `path` starts: what lies before it passed.
    let start_of = |path: &[usize]| {
        let steps = walk_to(record, path);
        quote!({ let at = 0usize; #steps at })
    };
    let len_of = |path: &[usize]| Literal::usize_unsuffixed(field_len(ty_at(record, path)));
    let record_walker = Walk::Validate.function(&record.ident);
    let read_at = start_of(&target.read);
    let read_len = len_of(&target.read);
    let read_check = match ty_at(record, &target.read) {
        Ty::Bool => quote! {
            if field[0] > 1 {
                return Err(ProgramError::InvalidAccountData);
            }
        },
        _ => quote!(),
    };
    let (full, update) = match &target.update {
        Some(path) => {
            let at = start_of(path);
            let len = len_of(path);
            let (int, from, to) = integer(ty_at(record, path));
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
fn walk_helpers(walkers: &[TokenStream], invalid: TokenStream) -> TokenStream {
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
fn walker(ty: &Ty, mode: Walk) -> TokenStream {
    let what = match mode {
        Walk::Validate => "Validates",
        Walk::Skip => "Passes (reading only lengths and tags)",
    };
    match ty {
        Ty::Struct(s) => {
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
        Ty::Enum(e) => {
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
        _ => unreachable!(),
    }
}

/// `let at = <where the field ends>;` for each field in turn.
fn walk_fields(fields: &[crate::model::Field], mode: Walk) -> TokenStream {
    let steps = fields.iter().map(|f| {
        let step = walk_ty(&f.ty, mode);
        quote!(let at = #step;)
    });
    quote!(#(#steps)*)
}

/// An expression that walks a `ty` at `at` in `mode` and is where it ends
/// (with `?` on every error).
fn walk_ty(ty: &Ty, mode: Walk) -> TokenStream {
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
        Ty::List { item, count } => {
            let count_at = || read_count(*count);
            match (count, fixed_len(item, mode)) {
                (Count::Remainder, Some(size)) => {
                    let size = Literal::usize_unsuffixed(size);
                    quote! {{
                        if (data.len().checked_sub(at).ok_or(INVALID)?) % #size != 0 {
                            return Err(INVALID);
                        }
                        data.len()
                    }}
                }
                (Count::Remainder, None) => {
                    let step = walk_ty(item, mode);
                    quote! {{
                        let mut at = at;
                        while at < data.len() {
                            at = #step;
                        }
                        at
                    }}
                }
                (_, Some(size)) => {
                    let size = Literal::usize_unsuffixed(size);
                    let count_at = count_at();
                    quote! {{
                        let (n, at) = #count_at;
                        skip(data, at, n.checked_mul(#size).ok_or(INVALID)?)?
                    }}
                }
                (_, None) => {
                    let step = walk_ty(item, mode);
                    let count_at = count_at();
                    quote! {{
                        let (n, mut at) = #count_at;
                        for _ in 0..n {
                            at = #step;
                        }
                        at
                    }}
                }
            }
        }
        Ty::Text(count) => {
            let len_at = match count {
                Count::Remainder => {
                    quote!((data.len().checked_sub(at).ok_or(INVALID)?, at))
                }
                count => read_count(*count),
            };
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
/// it counts starts)`.
fn read_count(count: Count) -> TokenStream {
    match count {
        Count::Prefix(width) => {
            let width = Literal::usize_unsuffixed(width as usize);
            quote!(count_of::<#width>(data, at)?)
        }
        Count::ShortU16 => quote!(short_u16(data, at)?),
        Count::Remainder => unreachable!("a remainder has no count"),
    }
}

/// Whether `ty` holds anything borsh does not write (a Codama IDL's wire
/// shapes), so the walk needs [`codama_helpers`].
fn codama_wire(ty: &Ty) -> bool {
    match ty {
        Ty::BigEndian { .. }
        | Ty::ShortU16
        | Ty::List { .. }
        | Ty::Text(_)
        | Ty::TaggedOption { .. }
        | Ty::ZeroableOption(_) => true,
        Ty::Enum(e) => {
            e.tag > 1
                || e.variants
                    .iter()
                    .flat_map(|v| &v.fields)
                    .any(|f| codama_wire(&f.ty))
        }
        Ty::Struct(s) => s.fields.iter().any(|f| codama_wire(&f.ty)),
        Ty::Array(item, _) | Ty::Option(item) | Ty::Vec(item) => codama_wire(item),
        Ty::Map { key, value, .. } => codama_wire(key) || value.as_deref().is_some_and(codama_wire),
        Ty::Bool | Ty::Int { .. } | Ty::Float { .. } | Ty::Pubkey | Ty::String | Ty::Bytes => false,
    }
}

/// The steps a walk over a Codama IDL's bytes adds to [`walk_helpers`]'s,
/// where `types` need them.
fn codama_helpers<'a>(mut types: impl Iterator<Item = &'a Ty>) -> TokenStream {
    if !types.any(codama_wire) {
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
fn fixed_len(ty: &Ty, mode: Walk) -> Option<usize> {
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
