//! The resolved program's Rust names, given once for the whole program so
//! that every generated crate agrees: each struct and enum a CamelCase
//! identifier no other type of the program has (a path's last segment,
//! longer where two paths end alike); each account, instruction and event a snake_case one for its
//! crate, handler and constants. A second account, instruction or event
//! with a name already declared is refused: the dispatch and the report
//! would not tell the two apart.

use std::collections::BTreeMap;

use super::{Program, Ty, Unsupported};
use crate::names::{self, Unique};

/// Names every type, variant, account, instruction and event of `program`:
/// `Struct::ident` and `Enum::ident`, and the `ident` of each account,
/// instruction and event (a variant's and a field's identifier is its
/// enum's or struct's business: `render::variant_idents`,
/// `render::field_idents`).
pub(super) fn assign(program: &mut Program) {
    refuse_duplicates(program);
    let mut types = Types::default();
    for account in program.accounts.iter_mut().flatten() {
        types.collect_struct(&account.record.name, &mut account.record.fields);
    }
    for ix in program.instructions.iter_mut().flatten() {
        types.collect_struct(&ix.args.name, &mut ix.args.fields);
    }
    for event in program.events.iter_mut().flatten() {
        types.collect_struct(&event.record.name, &mut event.record.fields);
    }
    let idents = types.idents();
    for account in program.accounts.iter_mut().flatten() {
        rename_struct(&mut account.record, &idents);
    }
    for ix in program.instructions.iter_mut().flatten() {
        rename_struct(&mut ix.args, &idents);
    }
    for event in program.events.iter_mut().flatten() {
        rename_struct(&mut event.record, &idents);
    }
    let mut accounts = Unique::default();
    for account in program.accounts.iter_mut().flatten() {
        account.ident = accounts.take(&names::value_candidates(&account.name), one);
    }
    let mut handlers = Unique::default();
    for ix in program.instructions.iter_mut().flatten() {
        ix.ident = handlers.take(&names::value_candidates(&ix.name), one);
    }
    let mut events = Unique::default();
    for event in program.events.iter_mut().flatten() {
        event.ident = events.take(&names::value_candidates(&event.name), one);
    }
}

fn one(ident: &str) -> Vec<String> {
    vec![ident.to_string()]
}

/// A type's identifier and the snake_case form its functions are named
/// with (`walk_<type>`), both unique.
fn both(ident: &str) -> Vec<String> {
    vec![ident.to_string(), names::value_ident(ident)]
}

/// Refuses an account, instruction or event with no name (named by its
/// place for the report: `(account 2, unnamed)`), and a second one of a
/// name.
fn refuse_duplicates(program: &mut Program) {
    fn dedupe<T>(items: &mut [Result<T, Unsupported>], name: impl Fn(&T) -> &str, what: &str) {
        let mut seen = std::collections::BTreeSet::new();
        for (i, item) in items.iter_mut().enumerate() {
            let key = match item {
                Ok(resolved) => name(resolved).to_string(),
                Err(refused) => refused.name.clone(),
            };
            if key.trim().is_empty() {
                let reason = match item {
                    Err(refused) => refused.reason.clone(),
                    Ok(_) => "it has no name, so no row could say which it is".to_string(),
                };
                *item = Err(Unsupported {
                    name: format!("({what} {}, unnamed)", i + 1),
                    reason,
                });
                continue;
            }
            let Ok(_) = item else { continue };
            if !seen.insert(key.clone()) {
                *item = Err(Unsupported {
                    reason: format!(
                        "a second {what} named `{key}`: the dispatch and the report could not tell the two apart"
                    ),
                    name: key,
                });
            }
        }
    }
    dedupe(&mut program.accounts, |a| &a.name, "account");
    dedupe(&mut program.instructions, |i| &i.name, "instruction");
    dedupe(&mut program.events, |e| &e.name, "event");
}

/// Every struct and enum name of the program, in the order first met.
#[derive(Default)]
struct Types {
    order: Vec<String>,
}

impl Types {
    fn note(&mut self, name: &str) {
        if !self.order.iter().any(|n| n == name) {
            self.order.push(name.to_string());
        }
    }

    fn collect_struct(&mut self, name: &str, fields: &mut [super::Field]) {
        self.note(name);
        for field in fields {
            self.collect(&mut field.ty);
        }
    }

    fn collect(&mut self, ty: &mut Ty) {
        match ty {
            Ty::Struct(s) => self.collect_struct(&s.name.clone(), &mut s.fields),
            Ty::Enum(e) => {
                self.note(&e.name);
                for variant in &mut e.variants {
                    for field in &mut variant.fields {
                        self.collect(&mut field.ty);
                    }
                }
            }
            Ty::Array(item, _)
            | Ty::Option(item)
            | Ty::Vec(item)
            | Ty::List { item, .. }
            | Ty::TaggedOption { item, .. }
            | Ty::ZeroableOption(item) => self.collect(item),
            Ty::Map { key, value } => {
                self.collect(key);
                if let Some(value) = value {
                    self.collect(value);
                }
            }
            _ => {}
        }
    }

    /// Each name's identifier: names whose last segments agree are given
    /// longer ones, the shortest that differ.
    fn idents(self) -> BTreeMap<String, String> {
        let mut unique = Unique::default();
        let mut out = BTreeMap::new();
        // A name that is its own identifier keeps it, whatever its order.
        for name in &self.order {
            if names::type_ident(name) == *name && !name.contains("::") {
                out.insert(name.clone(), unique.take(std::slice::from_ref(name), both));
            }
        }
        for name in &self.order {
            if !out.contains_key(name) {
                out.insert(
                    name.clone(),
                    unique.take(&names::type_candidates(name), both),
                );
            }
        }
        out
    }
}

fn rename_struct(s: &mut super::Struct, idents: &BTreeMap<String, String>) {
    if let Some(ident) = idents.get(&s.name) {
        s.ident = ident.clone();
    }
    for field in &mut s.fields {
        rename(&mut field.ty, idents);
    }
}

fn rename(ty: &mut Ty, idents: &BTreeMap<String, String>) {
    match ty {
        Ty::Struct(s) => rename_struct(s, idents),
        Ty::Enum(e) => {
            if let Some(ident) = idents.get(&e.name) {
                e.ident = ident.clone();
            }
            for variant in &mut e.variants {
                for field in &mut variant.fields {
                    rename(&mut field.ty, idents);
                }
            }
        }
        Ty::Array(item, _)
        | Ty::Option(item)
        | Ty::Vec(item)
        | Ty::List { item, .. }
        | Ty::TaggedOption { item, .. }
        | Ty::ZeroableOption(item) => rename(item, idents),
        Ty::Map { key, value } => {
            rename(key, idents);
            if let Some(value) = value {
                rename(value, idents);
            }
        }
        _ => {}
    }
}
