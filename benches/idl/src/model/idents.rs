//! The resolved program's Rust names, given once for the whole program so
//! that every generated crate agrees: each struct and enum a CamelCase
//! identifier no other type of the program has (a path's last segment,
//! longer where two paths end alike); each account, instruction and event a snake_case one for its
//! crate, handler and constants. A second account, instruction or event
//! with a name already declared is refused: the dispatch and the report
//! would not tell the two apart.

use std::collections::BTreeMap;

use super::types::{Program, Struct, Ty, Unsupported};
use crate::names::{self, Unique};

/// Names every type, variant, account, instruction and event of `program`:
/// `Struct::ident` and `Enum::ident`, and the `ident` of each account,
/// instruction and event (a variant's and a field's identifier is its
/// enum's or struct's business: `render::variant_idents`,
/// `render::field_idents`).
pub(super) fn assign(program: &mut Program) {
    refuse_unnamed_and_duplicates(program);
    let mut types = Types::default();
    for record in program
        .accounts
        .iter()
        .flatten()
        .map(|a| &a.record)
        .chain(program.instructions.iter().flatten().map(|i| &i.args))
        .chain(program.events.iter().flatten().map(|e| &e.record))
    {
        types.collect_struct(record);
    }
    let idents = types.idents();
    for record in program
        .accounts
        .iter_mut()
        .flatten()
        .map(|a| &mut a.record)
        .chain(
            program
                .instructions
                .iter_mut()
                .flatten()
                .map(|i| &mut i.args),
        )
        .chain(program.events.iter_mut().flatten().map(|e| &mut e.record))
    {
        rename_struct(record, &idents);
    }
    let mut accounts = Unique::default();
    for account in program.accounts.iter_mut().flatten() {
        account.ident = accounts.take(&names::value_candidates(&account.name), one);
    }
    // A handler's CamelCase form is claimed too: Anchor names a struct
    // after each handler (`instruction::Swap2` for `swap2` and `swap_2`).
    let mut handlers = Unique::default();
    for ix in program.instructions.iter_mut().flatten() {
        ix.ident = handlers.take(&names::value_candidates(&ix.name), |c| {
            vec![c.to_string(), names::type_ident(c)]
        });
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
fn refuse_unnamed_and_duplicates(program: &mut Program) {
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

    /// Notes `record` and every struct and enum in it, outermost first.
    fn collect_struct(&mut self, record: &Struct) {
        self.note(&record.name);
        for field in &record.fields {
            self.collect(&field.ty);
        }
    }

    /// Notes every struct and enum in `ty`, outermost first.
    fn collect(&mut self, ty: &Ty) {
        match ty {
            Ty::Struct(s) => self.note(&s.name),
            Ty::Enum(e) => self.note(&e.name),
            _ => {}
        }
        for child in ty.children() {
            self.collect(child);
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

/// Gives `record` and every struct and enum in it its identifier.
fn rename_struct(record: &mut Struct, idents: &BTreeMap<String, String>) {
    if let Some(given) = idents.get(&record.name) {
        record.ident = given.clone();
    }
    for field in &mut record.fields {
        rename(&mut field.ty, idents);
    }
}

/// Gives every struct and enum in `ty` its identifier.
fn rename(ty: &mut Ty, idents: &BTreeMap<String, String>) {
    let ident = match ty {
        Ty::Struct(s) => Some((&s.name, &mut s.ident)),
        Ty::Enum(e) => Some((&e.name, &mut e.ident)),
        _ => None,
    };
    if let Some((name, ident)) = ident
        && let Some(given) = idents.get(name)
    {
        *ident = given.clone();
    }
    for child in ty.children_mut() {
        rename(child, idents);
    }
}
