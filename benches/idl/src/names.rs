//! Names from an IDL as Rust identifiers, the one place they become so.
//!
//! An IDL's names are input: Anchor 0.30 and later write a type defined
//! outside the program's root module under its Rust path
//! (`my_program::state::Pool`), fields may be Rust keywords (`type`,
//! `move`), and a hand-edited or foreign file may hold names that are no
//! identifier at all (a leading digit, `-`, spaces, non-ASCII). Every such
//! name becomes a readable identifier here: [`type_ident`] for types and
//! variants (CamelCase), [`value_ident`] for fields, functions and
//! folders (snake_case); [`Unique`] resolves the collisions that
//! shortening a path or converting case creates. The model keeps the
//! IDL's own names for messages and reports.

use std::collections::BTreeSet;

/// Rust's keywords, strict and reserved (2024 edition).
const KEYWORDS: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern",
    "false", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut",
    "pub", "ref", "return", "self", "Self", "static", "struct", "super", "trait", "true", "type",
    "unsafe", "use", "where", "while", "abstract", "become", "box", "do", "final", "macro",
    "override", "priv", "try", "typeof", "unsized", "virtual", "yield",
];

/// Keywords that cannot be raw identifiers (`r#self` is refused): these
/// get a trailing `_` instead.
const NOT_RAW: &[&str] = &["crate", "self", "Self", "super", "_"];

/// Type names a generated program already uses (the prelude's, the
/// formats' marker types, the traits and derives it imports): an IDL type
/// with one of these names gets `Type` appended.
const TAKEN_TYPES: &[&str] = &[
    "Account",
    "AccountInfo",
    "AccountLoader",
    "AccountView",
    "Address",
    "Anchor",
    "Arguments",
    "Borsh",
    "BorshAccount",
    "BorshBoxed",
    "BorshDeserialize",
    "BorshSerialize",
    "Box",
    "Bytemuck",
    "CheckedBitPattern",
    "Clone",
    "Context",
    "Copy",
    "EmitCpi",
    "EmitEvent",
    "EmitEventCpi",
    "Err",
    "Events",
    "F32",
    "F64",
    "FixInt",
    "FixIntLen",
    "Floor",
    "Format",
    "FromBytes",
    "I128",
    "I16",
    "I32",
    "I64",
    "Immutable",
    "IntoBytes",
    "Key",
    "KnownLayout",
    "LittleEndian",
    "None",
    "Ok",
    "Option",
    "Pod",
    "Program",
    "ProgramError",
    "ProgramResult",
    "Pubkey",
    "ReadRecord",
    "Result",
    "SchemaRead",
    "SchemaWrite",
    "SelfCpi",
    "Signer",
    "Some",
    "StoreArgument",
    "String",
    "TryFromBytes",
    "U128",
    "U16",
    "U32",
    "U64",
    "Unaligned",
    "UncheckedAccount",
    "Vec",
    "Walk",
    "Wincode",
    "WriteRecord",
    "Zeroable",
    "Zerocopy",
];

/// The last segment of a Rust path (`my_program::state::Pool` is `Pool`);
/// any other name as it is.
pub fn last_segment(name: &str) -> &str {
    name.rsplit("::").next().unwrap_or(name)
}

/// The words of `name`: runs of ASCII letters and digits, split at every
/// other character and where a lowercase letter or digit meets an
/// uppercase one (`tokenAccount` is `token`, `Account`).
fn words(name: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut previous: Option<char> = None;
    for c in name.chars() {
        if !c.is_ascii_alphanumeric() {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            previous = None;
            continue;
        }
        if c.is_ascii_uppercase()
            && previous.is_some_and(|p| p.is_ascii_lowercase() || p.is_ascii_digit())
            && !current.is_empty()
        {
            words.push(std::mem::take(&mut current));
        }
        current.push(c);
        previous = Some(c);
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

/// A CamelCase identifier for a type or variant name: the last segment of
/// a path, each word capitalized (the rest of the word as written, so
/// `NFTData` stays), `T` before a leading digit, `Type` after a keyword
/// or a name the generated program uses; `Type` for a name with no ASCII
/// letter or digit.
pub fn type_ident(name: &str) -> String {
    camel_ident(name, TAKEN_TYPES)
}

fn camel_ident(name: &str, taken: &[&str]) -> String {
    let mut text: String = words(last_segment(name))
        .iter()
        .map(|w| {
            let mut chars = w.chars();
            chars
                .next()
                .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
                .unwrap_or_default()
        })
        .collect();
    if text.is_empty() {
        return "Type".into();
    }
    if text.starts_with(|c: char| c.is_ascii_digit()) {
        text.insert(0, 'T');
    }
    if KEYWORDS.contains(&text.as_str()) || taken.contains(&text.as_str()) {
        text.push_str("Type");
    }
    text
}

/// A CamelCase identifier for an enum's variant: as [`type_ident`], but
/// the program's own type names are free to use (`None`, `String`), a
/// variant being named through its enum.
pub fn variant_ident(name: &str) -> String {
    camel_case(name)
}

/// `name`'s words capitalized and joined, as [`type_ident`] writes them,
/// with no name reserved (the generator's own names: `emit_cpi` is
/// `EmitCpi`).
pub fn camel_case(name: &str) -> String {
    camel_ident(name, &[])
}

/// A snake_case identifier for a field, argument, function or folder
/// name: the words in lowercase joined by `_` (`tokenAccount` is
/// `token_account`), `f` before a leading digit, `field` for a name with
/// no ASCII letter or digit, `_` after a keyword that cannot be a raw
/// identifier (`self_`). Another keyword stays itself; [`value_token`]
/// makes it a raw identifier (`r#type`).
pub fn value_ident(name: &str) -> String {
    let text = words(name)
        .iter()
        .map(|w| snake_word(w))
        .collect::<Vec<_>>()
        .join("_");
    let text = if text.is_empty() {
        "field".into()
    } else {
        text
    };
    // A leading `_` (`_padding`, `_reserved`) is kept: it says unused.
    if name.starts_with('_') {
        return format!("_{text}");
    }
    if text.starts_with(|c: char| c.is_ascii_digit()) {
        return format!("f{text}");
    }
    if NOT_RAW.contains(&text.as_str()) {
        return format!("{text}_");
    }
    text
}

/// One word in snake_case: an uppercase letter after a lowercase one
/// starts a new part (`tokenAccount` came split already; `userID` is
/// `user_id`, as written in parts).
fn snake_word(word: &str) -> String {
    let mut out = String::new();
    let chars: Vec<char> = word.chars().collect();
    for (i, c) in chars.iter().enumerate() {
        let next_lower = chars.get(i + 1).is_some_and(|n| n.is_ascii_lowercase());
        let prev_upper = i > 0 && chars[i - 1].is_ascii_uppercase();
        if c.is_ascii_uppercase() && i > 0 && prev_upper && next_lower {
            out.push('_');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

/// An identifier from [`value_ident`] as tokens: a raw identifier
/// (`r#type`) where it is a keyword.
pub fn value_token(ident: &str) -> proc_macro2::Ident {
    let span = proc_macro2::Span::call_site();
    if KEYWORDS.contains(&ident) {
        proc_macro2::Ident::new_raw(ident, span)
    } else {
        proc_macro2::Ident::new(ident, span)
    }
}

/// Identifiers handed out once each: a second name that comes to the same
/// identifier gets a longer one (more of its path) or a number.
#[derive(Clone, Debug, Default)]
pub struct Unique {
    taken: BTreeSet<String>,
}

impl Unique {
    /// A set in which `taken` are already used.
    pub fn with(taken: &[&str]) -> Self {
        Self {
            taken: taken.iter().map(|t| t.to_string()).collect(),
        }
    }

    /// `candidates` in order (the first the shortest), the first not yet
    /// taken; else the last with the smallest number from 2 that is free.
    /// `key` is what must differ: the identifier itself, or also its
    /// snake_case form where functions are named after it.
    pub fn take(&mut self, candidates: &[String], key: impl Fn(&str) -> Vec<String>) -> String {
        let free = |taken: &BTreeSet<String>, c: &str| key(c).iter().all(|k| !taken.contains(k));
        let chosen = candidates
            .iter()
            .find(|c| free(&self.taken, c))
            .cloned()
            .unwrap_or_else(|| {
                let last = candidates.last().cloned().unwrap_or_else(|| "Type".into());
                (2..)
                    .map(|n| format!("{last}{n}"))
                    .find(|c| free(&self.taken, c))
                    .expect("some number is free")
            });
        self.taken.extend(key(&chosen));
        chosen
    }
}

/// The type identifiers to try for `name`, shortest first: its last
/// segment, then with each enclosing module before it
/// (`my_program::state::Config`: `Config`, `StateConfig`,
/// `MyProgramStateConfig`).
pub fn type_candidates(name: &str) -> Vec<String> {
    candidates(name, type_ident)
}

/// The value identifiers to try for `name`: its own, then with `_` and
/// the enclosing modules' names before it.
pub fn value_candidates(name: &str) -> Vec<String> {
    candidates(name, value_ident)
}

/// `ident` of each tail of `name`'s path, shortest first, once each.
fn candidates(name: &str, ident: fn(&str) -> String) -> Vec<String> {
    let segments: Vec<&str> = name.split("::").collect();
    let mut out: Vec<String> = Vec::new();
    for n in 1..=segments.len() {
        let candidate = ident(&segments[segments.len() - n..].join("_"));
        if !out.contains(&candidate) {
            out.push(candidate);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_keep_their_last_segment() {
        assert_eq!(type_ident("my_program::state::Pool"), "Pool");
        assert_eq!(
            type_candidates("my_program::state::Config"),
            ["Config", "StateConfig", "MyProgramStateConfig"]
        );
        assert_eq!(type_ident("tokenAccount"), "TokenAccount");
        assert_eq!(type_ident("NFTData"), "NFTData");
        assert_eq!(type_ident("pool_v2"), "PoolV2");
    }

    #[test]
    fn names_that_are_no_identifier_become_one() {
        assert_eq!(type_ident("2d-point"), "T2dPoint");
        assert_eq!(type_ident("Self"), "SelfType");
        assert_eq!(type_ident("String"), "StringType");
        assert_eq!(type_ident("日本"), "Type");
        assert_eq!(value_ident("fee rate"), "fee_rate");
        assert_eq!(value_ident("1st"), "f1st");
        assert_eq!(value_ident("tokenAccount"), "token_account");
        assert_eq!(value_ident("userID"), "user_id");
        assert_eq!(value_ident("HTTPServer"), "http_server");
        assert_eq!(value_ident("ünïcode"), "n_code");
        assert_eq!(value_ident("—"), "field");
        assert_eq!(value_ident("_padding"), "_padding");
    }

    #[test]
    fn keywords_are_raw_where_rust_allows_it() {
        assert_eq!(value_token("type").to_string(), "r#type");
        assert_eq!(value_token("match").to_string(), "r#match");
        assert_eq!(value_ident("self"), "self_");
        assert_eq!(value_ident("Crate"), "crate_");
        assert_eq!(value_token("amount").to_string(), "amount");
    }

    #[test]
    fn collisions_get_a_longer_name_then_a_number() {
        let mut unique = Unique::default();
        let key = |c: &str| vec![c.to_string()];
        assert_eq!(
            unique.take(&type_candidates("a::state::Config"), key),
            "Config"
        );
        assert_eq!(
            unique.take(&type_candidates("a::admin::Config"), key),
            "AdminConfig"
        );
        assert_eq!(unique.take(&type_candidates("Config"), key), "Config2");
        assert_eq!(unique.take(&type_candidates("config"), key), "Config3");
    }
}
