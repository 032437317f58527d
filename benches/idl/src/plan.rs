//! The plan: which programs one IDL becomes before anything is written.
//! Each account in each format that can hold it ([`plan`]), one argument
//! program a format ([`plan_arguments`]) and one event program a format
//! ([`plan_events`]), the rest skipped with their reasons; and the address
//! each program is loaded at. The stages after it (writing, building,
//! measuring, the report) read the plan; it imports none of them.

use solana_pubkey::Pubkey;

use crate::{
    layout::account_len,
    model::{Account, Dialect, Event, Instruction, Integer, Kind, Program, Scalar, Site, Ty},
    render::{
        self, AccountCodec, AccountFormat, ArgumentCodec, ArgumentFormat, EventCodec, EventFormat,
        EventMacro, RowFormat,
        arguments::{self, Handler},
        events::{self, Emitter},
    },
    value::{FieldPath, default_path, path_name, path_of},
};

/// A generated program's key: the same on every run of its label.
pub fn program_id(label: &str) -> Pubkey {
    benches::Program::id_for(&format!("idl/{label}"))
}

/// The address the argument program of `format` is loaded at (and an
/// Anchor 1.x one declares).
pub fn arguments_program_id(format: RowFormat) -> Pubkey {
    program_id(&format!("instructions {}", format.name()))
}

/// The address the event program of `format` is loaded at (and an Anchor
/// 1.x one declares): the `emit_cpi` programs' own, else one from its name.
pub fn events_program_id(format: RowFormat, self_cpi: Option<events::SelfCpi>) -> Pubkey {
    self_cpi.map_or_else(
        || program_id(&format!("events {}", format.name())),
        |ids| Pubkey::new_from_array(ids.program_id),
    )
}

/// One program to build: an account type in a format.
#[derive(Clone, Debug)]
pub struct Planned {
    pub account: String,
    /// The account's index in the IDL (the instruction's second byte).
    pub index: u8,
    pub format: AccountFormat,
    pub package: String,
    /// `<account>_<format>`: the crate's folder and the `.so`'s name.
    pub name: String,
    pub read: FieldPath<Scalar>,
    pub update: Option<FieldPath<Integer>>,
}

/// What became of an account in a format before anything ran.
#[derive(Clone, Debug)]
pub enum Plan {
    Build(Planned),
    /// No row, and why (the format cannot hold the account, or the account
    /// has nothing to read).
    Skip {
        account: String,
        format: RowFormat,
        reason: String,
    },
}

/// The fields the user chose for `read` and `update` (`READ=Account.field`,
/// `UPDATE=Account.field`, comma-separated): account name to field name;
/// and the argument each instruction stores (`ARG=instruction.field`).
#[derive(Clone, Debug, Default)]
pub struct FieldChoices {
    pub read: Vec<(String, String)>,
    pub update: Vec<(String, String)>,
    pub arg: Vec<(String, String)>,
}

impl FieldChoices {
    /// From the Makefile's lists; `Err` names an entry that is not
    /// `Account.field`.
    pub fn parse(read: &str, update: &str) -> Result<Self, String> {
        let list = |name: &str, text: &str| {
            pairs(text, |entry| {
                format!("{name}={entry}: give Account.field, e.g. {name}=LbPair.active_id")
            })
        };
        Ok(Self {
            read: list("READ", read)?,
            update: list("UPDATE", update)?,
            arg: Vec::new(),
        })
    }

    /// With the stored arguments the user chose (`ARG=swap.amount_in`,
    /// comma-separated; a path may go into nested structs).
    pub fn with_args(mut self, arg: &str) -> Result<Self, String> {
        self.arg = pairs(arg, |entry| {
            format!("ARG={entry}: give instruction.argument, e.g. ARG=swap.amount_in")
        })?;
        Ok(self)
    }
}

/// A comma-separated list of `name.field` entries as pairs; `Err` with
/// `wrong`'s words for an entry that has no `.`.
fn pairs(text: &str, wrong: impl Fn(&str) -> String) -> Result<Vec<(String, String)>, String> {
    text.split(',')
        .map(str::trim)
        .filter(|e| !e.is_empty())
        .map(|entry| {
            entry
                .split_once('.')
                .map(|(a, f)| (a.to_string(), f.to_string()))
                .ok_or_else(|| wrong(entry))
        })
        .collect()
}

/// One item of a program, by name (an instruction's handler, an event's
/// emitter, an account): whether the program's format measures it (else it
/// is only carried, with no row, so that the dispatch still holds it), and
/// what the site keeps beside it (`detail`: the argument a handler stores).
#[derive(Clone, Debug)]
pub struct PlannedItem<D = ()> {
    pub name: String,
    pub measured: bool,
    pub detail: D,
}

/// One program of a site in one format: its crate and the items it holds.
#[derive(Clone, Debug)]
pub struct PlannedProgram<F, D = ()> {
    pub format: F,
    pub package: String,
    /// `instructions_<format>`, `events_<format>`, `<account>_<format>`:
    /// the crate's folder and the `.so`'s name.
    pub name: String,
    pub items: Vec<PlannedItem<D>>,
}

/// The argument program of one format: every instruction's handler, with
/// the argument it stores; one the format cannot decode is walked.
pub type PlannedArguments = PlannedProgram<ArgumentFormat, Option<FieldPath<Scalar>>>;

impl PlannedArguments {
    /// The handlers, resolved against the program's instructions.
    pub fn handlers<'a>(&self, program: &'a Program) -> Vec<Handler<'a>> {
        self.items
            .iter()
            .map(|item| Handler {
                instruction: instruction(program, &item.name),
                store: item.detail.clone(),
                measured: item.measured,
            })
            .collect()
    }
}

/// An account, instruction or event with no row in a format, and why: a
/// format that cannot hold it (skipped while planning or writing), or a
/// program the toolchain refused (a link past the stack frame) or whose
/// check was a bug. The report lists the two kinds apart.
#[derive(Clone, Debug)]
pub struct NoRow {
    pub site: Site,
    /// The account type's, instruction's or event's name.
    pub name: String,
    pub format: RowFormat,
    pub reason: String,
    /// How a build's refusal was traced to this item; none where no
    /// build was refused for it.
    pub found: Option<Found>,
}

/// How a program's refused build was traced to one of its items (the
/// summary says it beside the reason).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Found {
    /// The compiler's or the linker's words name it: its function, or a
    /// line of its handler.
    Named,
    /// The linker named its handler in a build of the program with each
    /// handler out of line, and built alone it is refused.
    OutOfLine,
    /// It holds a float whose soft-float built-in the linker found
    /// nowhere, and built alone it is refused.
    Float,
    /// Halves of the program were built until it was left.
    Halves,
}

impl Found {
    /// As the summary says it.
    pub fn words(self) -> &'static str {
        match self {
            Found::Named => "named in the compiler's or linker's words",
            Found::OutOfLine => {
                "the linker named its handler built out of line, and it is refused alone"
            }
            Found::Float => "it holds such a float, and it is refused alone",
            Found::Halves => "found by building halves of the program",
        }
    }
}

/// The argument programs of `program`: one per format with every
/// instruction that format can decode; the others with their reasons.
pub fn plan_arguments(
    program: &Program,
    choices: &FieldChoices,
) -> (Vec<PlannedArguments>, Vec<NoRow>) {
    let mut planned = Vec::new();
    let mut skipped = Vec::new();
    let mut stores = Vec::new();
    // An Anchor IDL's instructions also as the user's own program takes them.
    let formats: Vec<ArgumentFormat> = ArgumentCodec::ALL
        .into_iter()
        .map(ArgumentFormat::Pinocchio)
        .chain(is_anchor(program).then_some(ArgumentFormat::Anchor1))
        .collect();
    for ix in program.instructions.iter().flatten() {
        match stored_argument(ix, choices) {
            Ok(store) => stores.push((ix, store)),
            Err(reason) => {
                for &format in &formats {
                    skipped.push(NoRow {
                        site: Site::Instruction,
                        name: ix.name.clone(),
                        format: format.into(),
                        reason: reason.clone(),
                        found: None,
                    });
                }
            }
        }
    }
    for format in formats {
        let mut handlers = Vec::new();
        for (ix, store) in &stores {
            let fits = arguments::fits(format, ix);
            handlers.push(PlannedItem {
                name: ix.name.clone(),
                measured: fits.is_ok(),
                detail: store.clone(),
            });
            if let Err(reason) = fits {
                skipped.push(NoRow {
                    site: Site::Instruction,
                    name: ix.name.clone(),
                    format: format.into(),
                    reason,
                    found: None,
                });
            }
        }
        if !handlers.iter().any(|h| h.measured) {
            continue;
        }
        let name = match format {
            ArgumentFormat::Anchor1 => "instructions_anchor1".to_string(),
            ArgumentFormat::Pinocchio(_) => {
                format!("instructions_{}", RowFormat::from(format).name())
            }
        };
        planned.push(PlannedArguments {
            format,
            package: package(program, &name),
            name,
            items: handlers,
        });
    }
    (planned, skipped)
}

/// The argument an instruction's handler stores: the user's (`ARG=`), else
/// the last top-level scalar or pubkey, else one inside a nested struct;
/// `None` where there is none (the handler decodes and stores nothing).
fn stored_argument(
    ix: &Instruction,
    choices: &FieldChoices,
) -> Result<Option<FieldPath<Scalar>>, String> {
    match choices.arg.iter().find(|(name, _)| *name == ix.name) {
        Some((_, field)) => {
            let (indexes, ty) =
                path_of(&ix.args, field).map_err(|e| format!("ARG={}.{field}: {e}", ix.name))?;
            match Scalar::of(ty) {
                Some(ty) => Ok(Some(FieldPath { indexes, ty })),
                None => Err(format!("ARG={}.{field}: not a scalar or pubkey", ix.name)),
            }
        }
        None => Ok(default_path(&ix.args, Scalar::of)),
    }
}

/// The event program of one format: every event, and whether the format
/// encodes it (else it is logged as it came, with no row).
pub type PlannedEvents = PlannedProgram<EventFormat>;

impl PlannedEvents {
    /// The emitters, resolved against the program's events.
    pub fn emitters<'a>(&self, program: &'a Program) -> Vec<Emitter<'a>> {
        self.items
            .iter()
            .map(|item| Emitter {
                event: event(program, &item.name),
                measured: item.measured,
            })
            .collect()
    }

    /// `emit_cpi`'s program address and event authority, for the formats
    /// that emit so.
    pub fn self_cpi(&self) -> Option<events::SelfCpi> {
        matches!(
            self.format,
            EventFormat::Pinocchio(EventCodec::EmitCpi) | EventFormat::Anchor1(EventMacro::EmitCpi)
        )
        .then(|| self_cpi(&self.package))
    }
}

/// The event programs of `program`, one per format, and the events a
/// format cannot encode, with their reasons.
pub fn plan_events(program: &Program) -> (Vec<PlannedEvents>, Vec<NoRow>) {
    let mut planned = Vec::new();
    let mut skipped = Vec::new();
    let all: Vec<&Event> = program
        .events
        .iter()
        .flatten()
        .filter(|e| e.discriminator.len() == 8)
        .collect();
    // An Anchor IDL's events also as the user's own program emits them.
    let anchor = [EventMacro::Emit, EventMacro::EmitCpi].map(EventFormat::Anchor1);
    let formats = EventCodec::ALL
        .into_iter()
        .map(EventFormat::Pinocchio)
        .chain(anchor.into_iter().filter(|_| is_anchor(program)));
    for format in formats {
        let mut emitters = Vec::new();
        for event in &all {
            let fits = events::fits(format, event);
            if let Err(reason) = &fits {
                skipped.push(NoRow {
                    site: Site::Event,
                    name: event.name.clone(),
                    format: format.into(),
                    reason: reason.clone(),
                    found: None,
                });
            }
            emitters.push(PlannedItem {
                name: event.name.clone(),
                measured: fits.is_ok(),
                detail: (),
            });
        }
        if !emitters.iter().any(|e| e.measured) {
            continue;
        }
        let name = format!("events_{}", RowFormat::from(format).name());
        planned.push(PlannedEvents {
            format,
            package: package(program, &name),
            name,
            items: emitters,
        });
    }
    (planned, skipped)
}

/// The `emit_cpi` program's address (from its package's name, so every
/// IDL's differs) and its event authority, the PDA of `__event_authority`.
fn self_cpi(package: &str) -> events::SelfCpi {
    use sha2::{Digest, Sha256};
    let id = solana_pubkey::Pubkey::new_from_array(
        Sha256::digest(format!("serialization-bench/idl/{package}")).into(),
    );
    let (authority, bump) =
        solana_pubkey::Pubkey::find_program_address(&[b"__event_authority"], &id);
    events::SelfCpi {
        program_id: id.to_bytes(),
        event_authority: authority.to_bytes(),
        bump,
    }
}

pub(crate) fn event<'a>(program: &'a Program, name: &str) -> &'a Event {
    program
        .event(name)
        .expect("planned from the program's events")
}

pub(crate) fn instruction<'a>(program: &'a Program, name: &str) -> &'a Instruction {
    program
        .instruction(name)
        .expect("planned from the program's instructions")
}

/// The most data an account may hold (10 MiB).
const MAX_ACCOUNT_LEN: usize = 10 * 1024 * 1024;

/// Whether `program`'s IDL is Anchor's (spec or legacy): its accounts,
/// instructions and events are also rendered as an Anchor 1.x program.
pub(crate) fn is_anchor(program: &Program) -> bool {
    matches!(program.dialect, Dialect::Anchor | Dialect::LegacyAnchor)
}

/// The plan for every account and format of `program`.
pub fn plan(program: &Program, choices: &FieldChoices) -> Vec<Plan> {
    let mut plans = Vec::new();
    // An Anchor IDL's accounts also as the user's own program holds them.
    let anchor = is_anchor(program);
    for (index, account) in program.accounts.iter().enumerate() {
        let Ok(account) = account else { continue };
        let own = if anchor {
            render::anchor1::formats_for(account)
        } else {
            &[]
        };
        // A fixed-capacity account is measured as the casts, no other
        // format.
        let codecs: &[AccountCodec] = match account.kind {
            Kind::FixedCapacity => &[AccountCodec::Bytemuck, AccountCodec::Zerocopy],
            _ => &AccountCodec::ALL,
        };
        let formats = codecs
            .iter()
            .map(|c| AccountFormat::Pinocchio(*c))
            .chain(own.iter().map(|w| AccountFormat::Anchor1(*w)));
        for format in formats {
            let skip = |reason: String| Plan::Skip {
                account: account.name.clone(),
                format: format.into(),
                reason,
            };
            if let Ok(Some(len)) = account_len(account)
                && len > MAX_ACCOUNT_LEN
            {
                plans.push(skip(format!(
                    "{len} bytes, more than an account may hold (10 MiB)"
                )));
                continue;
            }
            if let Err(reason) = format.fits(account) {
                plans.push(skip(reason));
                continue;
            }
            let fields = match program.moved_from(account) {
                Some(from) => chosen(from, choices).and_then(|f| moved(from, account, f)),
                None => chosen(account, choices),
            };
            let (read, update) = match fields {
                Ok(fields) => fields,
                Err(reason) => {
                    plans.push(skip(reason));
                    continue;
                }
            };
            let Some(read) = read else {
                plans.push(skip(
                    "no scalar or pubkey field to read, at the top level or in a nested struct (choose one with READ=Account.field)"
                        .into(),
                ));
                continue;
            };
            let name = format!("{}_{}", account.ident, RowFormat::from(format).name());
            plans.push(Plan::Build(Planned {
                account: account.name.clone(),
                index: index as u8,
                format,
                package: package(program, &name),
                name,
                read,
                update,
            }));
        }
    }
    plans
}

/// An account's `read` and `update` fields, where it has them.
type ChosenFields = (Option<FieldPath<Scalar>>, Option<FieldPath<Integer>>);

/// The `read` and `update` fields of `account`: the user's where given
/// (`READ=Pool.fees.protocol_fee`: a path into nested structs, to a scalar
/// or pubkey, an integer for `update`), else the defaults (the last
/// top-level one, else one inside the last nested struct that has one).
fn chosen(account: &Account, choices: &FieldChoices) -> Result<ChosenFields, String> {
    let read = chosen_field(
        account,
        &choices.read,
        "READ",
        Scalar::of,
        "a scalar or pubkey",
    )?
    .or_else(|| default_path(&account.record, Scalar::of));
    let update = chosen_field(
        account,
        &choices.update,
        "UPDATE",
        Integer::of,
        "an integer",
    )?
    .or_else(|| default_path(&account.record, Integer::of));
    Ok((read, update))
}

/// The `read` and `update` fields of `from` as they lie in `to`, its
/// fixed-capacity account: the same names, at their new indexes.
fn moved(
    from: &Account,
    to: &Account,
    (read, update): ChosenFields,
) -> Result<ChosenFields, String> {
    fn at<T>(
        from: &Account,
        to: &Account,
        path: Option<FieldPath<T>>,
    ) -> Result<Option<FieldPath<T>>, String> {
        let Some(path) = path else { return Ok(None) };
        let name = path_name(&from.record, &path.indexes);
        let (indexes, _) = path_of(&to.record, &name)
            .map_err(|e| format!("`{name}` in the fixed-capacity layout: {e}"))?;
        Ok(Some(FieldPath {
            indexes,
            ty: path.ty,
        }))
    }
    Ok((at(from, to, read)?, at(from, to, update)?))
}

/// The field `list` (`READ=` or `UPDATE=`) names in `account`, where it
/// names one, checked to be a `T`.
fn chosen_field<T>(
    account: &Account,
    list: &[(String, String)],
    what: &str,
    of: fn(&Ty) -> Option<T>,
    kind: &str,
) -> Result<Option<FieldPath<T>>, String> {
    let Some((_, field)) = list.iter().find(|(a, _)| *a == account.name) else {
        return Ok(None);
    };
    let (indexes, ty) = path_of(&account.record, field)
        .map_err(|e| format!("{what}={}.{field}: {e}", account.name))?;
    match of(ty) {
        Some(ty) => Ok(Some(FieldPath { indexes, ty })),
        None => Err(format!("{what}={}.{field}: not {kind}", account.name)),
    }
}

pub(crate) fn account<'a>(program: &'a Program, name: &str) -> &'a Account {
    program
        .account(name)
        .expect("planned from the program's accounts")
}

/// A generated crate's package: the program's name too, since the built
/// `.so` lands in a target folder every IDL shares.
pub(crate) fn package(program: &Program, name: &str) -> String {
    format!(
        "idl-{}-{}",
        render::snake(&program.name).replace('_', "-"),
        name.replace('_', "-")
    )
}
