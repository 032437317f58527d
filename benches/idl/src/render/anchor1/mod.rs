//! Anchor 1.x programs from an Anchor IDL: the user's program as it runs,
//! on Anchor's own dispatch, checks and codec. One module a part:
//! [`accounts`] (each account type behind `Account<T>`, `LazyAccount<T>`
//! or `AccountLoader<T>`), [`instructions`] (every instruction's arguments as
//! its handler's parameters), [`events`] (`emit!` and `emit_cpi!`). They
//! build in a workspace of their own (`anchor1/` in the run's folder) with
//! `programs/anchor1/`'s route (`std`), as the hand-written Anchor 1.x
//! programs do, and share their `store` (`anchor1-records`, copied in).
//! The release is `programs/anchor1/`'s pin with its lockfile, or another
//! from 0.31 on (`ANCHOR=`) with the lockfile `make anchor-versions`
//! committed for it.

use proc_macro2::{Ident, TokenStream};
use quote::quote;

use super::{Maps, Named, RowFormat, ident, owned_item, reachable, unparse};
use crate::model::Struct;

pub mod accounts;
pub mod events;
pub mod instructions;

pub use accounts::{fits, format_for, formats_for, held, program};

pub use benches::frameworks::anchor1::releases::Release;
use benches::frameworks::anchor1::releases::{PINNED, RELEASES};

/// The anchor-lang release the programs build with by default:
/// `programs/anchor1/`'s pin (its lockfile is the generated workspace's).
pub const ANCHOR_LANG: &str = PINNED;

/// Whether release `version` is `major.minor` or later.
pub fn at_least(version: &str, major_minor: (u32, u32)) -> bool {
    let mut parts = version.split('.').map(|p| p.parse::<u32>().unwrap_or(0));
    (parts.next().unwrap_or(0), parts.next().unwrap_or(0)) >= major_minor
}

/// Whether `version` is 0.31.0 or later: the releases that take an
/// account's, instruction's and event's discriminator from the program
/// (`discriminator = [...]`), which the programs need to carry the IDL's.
fn custom_discriminators(version: &str) -> bool {
    at_least(version, (0, 31))
}

/// The release `ANCHOR=<version>` names: one `make anchor-versions`
/// measures (its lockfile is committed), from 0.31.0 on; the pinned one
/// where `version` is empty.
pub fn release(version: &str) -> Result<Release, String> {
    let version = if version.is_empty() { PINNED } else { version };
    let usable: Vec<&str> = RELEASES
        .iter()
        .map(|r| r.version)
        .filter(|v| custom_discriminators(v))
        .collect();
    let found = RELEASES.iter().find(|r| r.version == version);
    match found {
        Some(release) if custom_discriminators(version) => Ok(*release),
        Some(_) => Err(format!(
            "ANCHOR={version}: anchor-lang {version} cannot give a program the IDL's discriminators (`discriminator = [...]` is new in 0.31.0); give one of {}",
            usable.join(", ")
        )),
        None => Err(format!(
            "ANCHOR={version}: not a release this project has a lockfile for (benches/anchor_versions/); give one of {}",
            usable.join(", ")
        )),
    }
}

/// Every struct and enum `roots` reach, the roots themselves left out (they
/// are a handler's parameters, or an `#[event]` in `own`), each with
/// Anchor's borsh derives, in `pub mod state`; and the `use` that names
/// them (and the roots, where `import_roots`) at the
/// crate's root, which Anchor's generated modules (`instruction`,
/// `accounts`) see through their `use super::*`. An explicit `use` outranks
/// the prelude's glob, so an IDL type named as a prelude item is the IDL's.
fn state(roots: &[&Struct], own: TokenStream, import_roots: bool) -> TokenStream {
    let types = reachable(roots);
    let is_root = |named: &Named| matches!(named, Named::Struct(s) if roots.iter().any(|r| r.ident == s.ident));
    let derives = quote!(#[derive(AnchorSerialize, AnchorDeserialize, Clone)]);
    let items = types
        .values()
        .filter(|named| !is_root(named))
        .map(|named| owned_item(*named, &derives, Maps::Sorted, &quote!(pub)));
    let names: Vec<_> = types
        .values()
        .filter(|named| import_roots || !is_root(named))
        .map(|named| match named {
            Named::Struct(s) => ident(&s.ident, true),
            Named::Enum(e) => ident(&e.ident, true),
        })
        .collect();
    let import = (!names.is_empty()).then(|| {
        quote! {
            #[allow(unused_imports)]
            use state::{#(#names),*};
        }
    });
    quote! {
        /// The IDL's types, in a module of their own.
        pub mod state {
            use anchor_lang::prelude::*;

            #own
            #(#items)*
        }

        #import
    }
}

/// An instruction or event program's whole file: its doc, its `use`s
/// (`uses`, beside the prelude's), its id (base58), its types (`state`),
/// the `#[program]` module of its `handlers`, and its accounts structs.
/// A handler takes every parameter and may use only one.
fn file(
    doc: &str,
    uses: TokenStream,
    id: &str,
    state: TokenStream,
    (module, handlers): (Ident, TokenStream),
    accounts: TokenStream,
) -> String {
    unparse(quote! {
        #![doc = #doc]
        #![allow(unused_variables)]
        extern crate alloc;

        #uses
        use anchor_lang::prelude::*;
        // Memory and integer builtins for the SVM (the linker asks for them).
        use solana_compiler_builtins as _;

        declare_id!(#id);

        #state

        #[program]
        pub mod #module {
            use super::*;

            #handlers
        }

        #accounts
    })
}

/// The crate's `Cargo.toml`: anchor-lang and the builtins from the
/// workspace; bytemuck for a zero-copy record; the hand-written programs'
/// `store` for the instruction handlers; anchor-lang's `event-cpi` for
/// `emit_cpi!` and `lazy-account` for `LazyAccount<T>` (each program is
/// built alone: built with others, cargo would give the feature to them
/// too); and the features every Anchor program declares (all off, as
/// `anchor init` leaves them).
pub fn manifest(package: &str, format: RowFormat) -> String {
    let anchor = match format {
        RowFormat::Anchor1EmitCpi => {
            "anchor-lang = { workspace = true, features = [\"event-cpi\"] }"
        }
        RowFormat::Anchor1LazyAccount => {
            "anchor-lang = { workspace = true, features = [\"lazy-account\"] }"
        }
        _ => "anchor-lang.workspace = true",
    };
    let extra = match format {
        RowFormat::Anchor1AccountLoader => "bytemuck.workspace = true\n",
        RowFormat::Anchor1Instruction => "anchor1-records.workspace = true\n",
        _ => "",
    };
    format!(
        "# Generated by `make idl`.\n[package]\nname = \"{package}\"\nversion = \"0.1.0\"\nedition = \"2021\"\npublish = false\n\n[lib]\ncrate-type = [\"cdylib\", \"lib\"]\n\n[dependencies]\n{anchor}\nsolana-compiler-builtins.workspace = true\n{extra}\n[lints]\nworkspace = true\n\n[features]\ndefault = []\ncpi = [\"no-entrypoint\"]\nno-entrypoint = []\nno-idl = []\nno-log-ix-name = []\nidl-build = []\ncustom-heap = []\ncustom-panic = []\nanchor-debug = []\n"
    )
}

/// The generated Anchor workspace's `Cargo.toml`: `release`'s pin,
/// `programs/anchor1/`'s other pins, lints and release profile, and its
/// `anchor1-records` copied in (`records/`, so that its anchor-lang is the
/// workspace's; borsh 0.10's counting before 1.0, as `make
/// anchor-versions` builds it).
pub fn workspace_manifest(release: &Release) -> String {
    let version = release.version;
    let records = if release.borsh_0_10 {
        "anchor1-records = { path = \"records\", features = [\"borsh-0-10\"] }"
    } else {
        "anchor1-records = { path = \"records\" }"
    };
    format!(
        "# Generated by `make idl`: Anchor {version} programs from the IDL, built as programs/anchor1/ is.\n[workspace]\nresolver = \"2\"\nmembers = [\"programs/*\", \"records\"]\n\n[workspace.package]\nversion = \"0.1.0\"\nedition = \"2021\"\nlicense = \"Apache-2.0\"\npublish = false\n\n[workspace.dependencies]\nanchor-lang = {{ version = \"={version}\" }}\nsolana-compiler-builtins = \"=0.3.0\"\nbytemuck = {{ version = \"=1.25.2\", features = [\"derive\", \"min_const_generics\"] }}\n{records}\n\n[workspace.lints.rust]\nunexpected_cfgs = {{ level = \"warn\", check-cfg = ['cfg(target_os, values(\"solana\"))'] }}\n\n[workspace.lints.cargo]\nunused_dependencies = \"allow\"\n\n[profile.release]\nlto = \"fat\"\ncodegen-units = 1\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_release_is_one_with_a_lockfile_and_custom_discriminators() {
        assert_eq!(release("").unwrap().version, PINNED);
        assert_eq!(release("0.31.2").unwrap().version, "0.31.2");
        let old = release("0.30.1").unwrap_err();
        assert!(
            old.contains("new in 0.31.0") && old.contains("0.31.2, 0.32.2"),
            "{old}"
        );
        let unknown = release("9.9.9").unwrap_err();
        assert!(unknown.contains("not a release"), "{unknown}");
        let manifest = workspace_manifest(&release("0.32.2").unwrap());
        assert!(
            manifest.contains("anchor-lang = { version = \"=0.32.2\" }"),
            "{manifest}"
        );
        assert!(
            manifest.contains("features = [\"borsh-0-10\"]"),
            "{manifest}"
        );
        let manifest = workspace_manifest(&release("").unwrap());
        assert!(
            manifest.contains("anchor1-records = { path = \"records\" }"),
            "{manifest}"
        );
    }
}
