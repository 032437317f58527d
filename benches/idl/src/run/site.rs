//! The programs of every site walk the same steps: written (a rendering
//! that panics takes its item out), built (a refusal traced to the items
//! that cause it, which are taken out, and the rest built again), then
//! measured. [`Items`] says what differs between the accounts' programs
//! (one account type in one format each), the instructions' (a handler
//! each item) and the events' (an emitter each item).

use std::{
    fs,
    path::{Path, PathBuf},
};

use super::{
    probe::{Probe, crate_dir, remove_crate},
    tally::Tally,
};
use crate::{
    generate::{self, Built, Crate, Refusal},
    guard,
    measure::{self, Instance},
    model::{Program, Site, Struct},
    plan::{Found, NoRow, Planned, PlannedArguments, PlannedEvents, PlannedItem, PlannedProgram},
    render::{
        self, AccountFormat, ArgumentFormat, EventFormat, RowFormat, anchor1::Release,
        arguments::Placement,
    },
    value::Lengths,
};

/// What differs between the accounts', the instructions' and the events'
/// programs.
pub(super) trait Items: Clone {
    /// The site's formats.
    type Format: Copy + Into<RowFormat>;
    /// What the site keeps beside each item ([`PlannedItem::detail`]).
    type Detail: Clone;
    const SITE: Site;
    /// What the rows are, in progress lines.
    const WHAT: &'static str;

    /// The program's crate (its name, the `.so`'s; package; format) and
    /// items.
    fn program(&self) -> &PlannedProgram<Self::Format, Self::Detail>;
    /// The same, to rename the crate (a bisection's probe) or take items
    /// out.
    fn program_mut(&mut self) -> &mut PlannedProgram<Self::Format, Self::Detail>;
    /// Writes the program's crate; `false` where nothing is left to write.
    fn write(
        &mut self,
        root: &Path,
        dir: &Path,
        program: &Program,
        skipped: &mut Vec<NoRow>,
    ) -> Result<bool, String>;
    /// The item a refusal's words name, where they name one.
    fn named_in(&self, _program: &Program, _reason: &str) -> Option<usize> {
        None
    }
    /// What a refusal found by bisection adds about item `i`.
    fn why(&self, _program: &Program, _i: usize) -> String {
        String::new()
    }
    /// The items whose own stack frames the linker refuses when each is
    /// built out of line (a probe of the program, never measured), where
    /// the program's linker names none of them (its items inlined into
    /// `entrypoint`).
    fn out_of_line(&self, _root: &Path, _dir: &Path, _program: &Program) -> Vec<usize> {
        Vec::new()
    }
    /// The items holding a float of one of these widths (in bytes): where
    /// the linker found no soft-float built-in for such floats, the items
    /// that may call one.
    fn holding_floats(&self, _program: &Program, _widths: &[u8]) -> Vec<usize> {
        Vec::new()
    }
    /// Runs every call of the built program (`elf`).
    fn check(&self, program: &Program, elf: &[u8], lengths: Lengths) -> measure::Checked;
    /// Where an item its build refused is listed: with the items that have
    /// no row in a format (`skipped`), or with the refused (`refused`).
    fn refusals<'a>(
        skipped: &'a mut Vec<NoRow>,
        _refused: &'a mut Vec<NoRow>,
    ) -> &'a mut Vec<NoRow> {
        skipped
    }

    fn name(&self) -> &str {
        &self.program().name
    }
    fn package(&self) -> &str {
        &self.program().package
    }
    fn format(&self) -> RowFormat {
        self.program().format.into()
    }
    fn items(&self) -> &[PlannedItem<Self::Detail>] {
        &self.program().items
    }
    fn items_mut(&mut self) -> &mut Vec<PlannedItem<Self::Detail>> {
        &mut self.program_mut().items
    }
    fn rename(&mut self, name: &str, package: &str) {
        let program = self.program_mut();
        (program.name, program.package) = (name.to_string(), package.to_string());
    }
}

/// One account type's program in one format: a program of one item, the
/// account. Its crate is written with the run's workspace
/// ([`generate::write`]), its cases are the account's instances, and a
/// refused build is the account's own, listed with the refused.
#[derive(Clone)]
pub(super) struct AccountProgram<'a> {
    planned: Planned,
    /// The crate as the driver sees it: `planned`'s name, package and
    /// format, and the account as its one item.
    program: PlannedProgram<AccountFormat>,
    release: &'a Release,
    instances: &'a [Instance],
}

impl<'a> AccountProgram<'a> {
    pub(super) fn new(planned: Planned, release: &'a Release, instances: &'a [Instance]) -> Self {
        let program = PlannedProgram {
            format: planned.format,
            package: planned.package.clone(),
            name: planned.name.clone(),
            items: vec![PlannedItem {
                name: planned.account.clone(),
                measured: true,
                detail: (),
            }],
        };
        Self {
            planned,
            program,
            release,
            instances,
        }
    }
}

impl Items for AccountProgram<'_> {
    type Format = AccountFormat;
    type Detail = ();
    const SITE: Site = Site::Account;
    const WHAT: &'static str = "rows";

    fn program(&self) -> &PlannedProgram<AccountFormat> {
        &self.program
    }
    fn program_mut(&mut self) -> &mut PlannedProgram<AccountFormat> {
        &mut self.program
    }
    /// Written with the run's workspace, which left out any account whose
    /// rendering failed: nothing is left to write once the account is out.
    fn write(
        &mut self,
        _: &Path,
        _: &Path,
        _: &Program,
        _: &mut Vec<NoRow>,
    ) -> Result<bool, String> {
        Ok(!self.program.items.is_empty())
    }
    /// A program of one item: a refusal is its account's.
    fn named_in(&self, _program: &Program, _reason: &str) -> Option<usize> {
        Some(0)
    }
    fn check(&self, program: &Program, elf: &[u8], _lengths: Lengths) -> measure::Checked {
        let account = program
            .account(&self.planned.account)
            .expect("planned from the program's accounts");
        // A borsh account moved to `AccountLoader<T>` holds its fields in
        // the zero-copy layout: its cases are that layout's bytes.
        let account = render::anchor1::held(self.planned.format, account);
        measure::check(&self.planned, &account, self.release, elf, self.instances)
    }
    fn refusals<'a>(
        _skipped: &'a mut Vec<NoRow>,
        refused: &'a mut Vec<NoRow>,
    ) -> &'a mut Vec<NoRow> {
        refused
    }
}

impl Items for PlannedArguments {
    type Format = ArgumentFormat;
    type Detail = Option<crate::value::FieldPath<crate::model::Scalar>>;
    const SITE: Site = Site::Instruction;
    const WHAT: &'static str = "instructions";

    fn program(&self) -> &Self {
        self
    }
    fn program_mut(&mut self) -> &mut Self {
        self
    }
    fn write(
        &mut self,
        root: &Path,
        dir: &Path,
        program: &Program,
        skipped: &mut Vec<NoRow>,
    ) -> Result<bool, String> {
        generate::write_arguments(root, dir, program, self, skipped)
    }
    fn named_in(&self, program: &Program, reason: &str) -> Option<usize> {
        self.handlers(program)
            .iter()
            .position(|h| render::arguments::named_in(h.instruction, reason))
    }
    fn why(&self, program: &Program, i: usize) -> String {
        by_value(&self.handlers(program)[i].instruction.args)
    }
    /// A pinocchio program's handlers each a function of its own
    /// ([`Placement::OutOfLine`]), built once: the handlers the linker
    /// names. (Anchor's linker already names a handler's wrapper.)
    fn out_of_line(&self, root: &Path, dir: &Path, program: &Program) -> Vec<usize> {
        let ArgumentFormat::Pinocchio(_) = self.format else {
            return Vec::new();
        };
        let mut probe = self.clone();
        let (name, package) = (
            format!("{}_frames", self.name),
            format!("{}-frames", self.package),
        );
        probe.rename(&name, &package);
        let placed = Placement::OutOfLine;
        let written = generate::write_arguments_placed(
            root,
            dir,
            program,
            &mut probe,
            &mut Vec::new(),
            placed,
        );
        let functions = match written {
            Ok(true) => generate::frames_refused(root, dir, &name, &package, self.format.into()),
            _ => Vec::new(),
        };
        remove_crate(dir, &name, self.format.into());
        let handlers = self.handlers(program);
        (0..handlers.len())
            .filter(|i| {
                let instruction = handlers[*i].instruction;
                let named = |f: &generate::Frame| {
                    render::arguments::named_in(instruction, &format!("`{}`", f.function))
                };
                functions.iter().any(named)
            })
            .collect()
    }
    fn holding_floats(&self, program: &Program, widths: &[u8]) -> Vec<usize> {
        let handlers = self.handlers(program);
        let holds = |i: &usize| handlers[*i].instruction.args.holds_float(widths);
        (0..handlers.len()).filter(holds).collect()
    }
    fn check(&self, program: &Program, elf: &[u8], lengths: Lengths) -> measure::Checked {
        measure::arguments::check(self.format, &self.handlers(program), elf, lengths)
    }
}

impl Items for PlannedEvents {
    type Format = EventFormat;
    type Detail = ();
    const SITE: Site = Site::Event;
    const WHAT: &'static str = "events";

    fn program(&self) -> &Self {
        self
    }
    fn program_mut(&mut self) -> &mut Self {
        self
    }
    fn write(
        &mut self,
        root: &Path,
        dir: &Path,
        program: &Program,
        skipped: &mut Vec<NoRow>,
    ) -> Result<bool, String> {
        generate::write_events(root, dir, program, self, skipped)
    }
    fn holding_floats(&self, program: &Program, widths: &[u8]) -> Vec<usize> {
        let emitters = self.emitters(program);
        let holds = |i: &usize| emitters[*i].event.record.holds_float(widths);
        (0..emitters.len()).filter(holds).collect()
    }
    fn check(&self, program: &Program, elf: &[u8], lengths: Lengths) -> measure::Checked {
        let emitters = self.emitters(program);
        measure::events::check(self.format, &emitters, elf, lengths, self.self_cpi())
    }
}

/// The crates `plans` build first, each written (on a copy: the driver
/// writes it again, the same files), to be built together
/// ([`generate::build_together`]) before the sites walk their steps.
pub(super) fn crates<P: Items>(
    (root, dir, program): (&Path, &Path, &Program),
    plans: &[P],
) -> Result<Vec<Crate>, String> {
    let mut crates = Vec::new();
    for planned in plans {
        let mut planned = planned.clone();
        if planned.write(root, dir, program, &mut Vec::new())? {
            crates.push(Crate {
                name: planned.name().to_string(),
                package: planned.package().to_string(),
                format: planned.format(),
            });
        }
    }
    Ok(crates)
}

/// Builds each planned program of items and measures what was built. A link
/// refused in one item's code (a stack frame past 4 KiB) takes that item
/// out, with the linker's words as its reason, and builds the rest again.
/// A refusal that names no item is traced to the items that cause it by
/// building parts of the program alone ([`generate::culprits`]): each is
/// taken out by name, the rest built.
pub(super) fn build_and_measure<P: Items>(
    (root, dir, program): (&Path, &Path, &Program),
    plans: Vec<P>,
    lengths: Lengths,
    (skipped, tally): &mut (&mut Vec<NoRow>, &mut Tally),
    progress: &mut dyn FnMut(&str),
) -> Result<(), String> {
    for planned in plans {
        let refusals = P::refusals(skipped, &mut tally.refused);
        let Some((planned, so)) = build(root, dir, program, planned, refusals, progress)? else {
            continue;
        };
        guard::stage("measuring", planned.name());
        let elf = fs::read(&so).map_err(|e| format!("{}: {e}", so.display()))?;
        match guard::caught(|| planned.check(program, &elf, lengths)) {
            Ok(checked) => {
                let built = (planned.name(), planned.package(), planned.format());
                tally.keep(built, P::WHAT, (root, &so), elf, checked, progress);
            }
            Err(reason) => {
                let format = planned.format();
                for item in planned.items().iter() {
                    tally.refuse(P::SITE, &item.name, format, &reason);
                }
            }
        }
    }
    Ok(())
}

/// The built program, or `None` where nothing is left to build.
fn build<P: Items>(
    root: &Path,
    dir: &Path,
    program: &Program,
    mut planned: P,
    skipped: &mut Vec<NoRow>,
    progress: &mut dyn FnMut(&str),
) -> Result<Option<(P, PathBuf)>, String> {
    loop {
        if !planned.write(root, dir, program, skipped)? {
            return Ok(None);
        }
        guard::stage("building", planned.name());
        let built = generate::build_format(
            root,
            dir,
            planned.name(),
            planned.package(),
            planned.format(),
        );
        let refused = match built {
            Built::Program(so) => return Ok(Some((planned, so))),
            Built::Refused(refused) => refused,
        };
        let named = named(dir, &planned, program, &refused);
        let reason = refused.reason;
        let (found, how) = if !named.is_empty() {
            if !refused.errors.is_empty() {
                progress(&format!(
                    "  {}: {reason}; the compiler's errors lie in {} of its {}",
                    planned.name(),
                    named.len(),
                    P::WHAT
                ));
            }
            (named, Found::Named)
        } else {
            traced((root, dir, program), &planned, reason, progress)
        };
        for (i, reason) in &found {
            progress(&format!(
                "  {}: `{}`: {reason}",
                planned.name(),
                planned.items()[*i].name
            ));
        }
        let format = planned.format();
        generate::take_out(
            planned.items_mut(),
            found,
            |item, reason| NoRow {
                site: P::SITE,
                name: item.name.clone(),
                format,
                reason,
                found: Some(how),
            },
            skipped,
        );
        if !planned.items().iter().any(|item| item.measured) {
            return Ok(None);
        }
    }
}

/// The items that cause a refusal whose words name none, each with its
/// reason, and how they were found: the items whose own frames the linker
/// names with the handlers out of line (or, where it found no soft-float
/// built-in, the items holding such floats), each confirmed by building
/// it alone; else by halves.
fn traced<P: Items>(
    (root, dir, program): (&Path, &Path, &Program),
    planned: &P,
    reason: String,
    progress: &mut dyn FnMut(&str),
) -> (Vec<(usize, String)>, Found) {
    let probe = Probe::new(planned.name(), planned.package(), planned.format());
    let mut write = |some: &[usize], name: &str, package: &str| {
        let mut part = planned.clone();
        *part.items_mut() = some.iter().map(|i| planned.items()[*i].clone()).collect();
        part.rename(name, package);
        part.write(root, dir, program, &mut Vec::new())
    };
    let floats = generate::missing_floats(&reason);
    let (named, how) = if floats.is_empty() {
        (planned.out_of_line(root, dir, program), Found::OutOfLine)
    } else {
        (planned.holding_floats(program, &floats), Found::Float)
    };
    let mut found = probe.alone(root, dir, &named, &mut write);
    let (name, what) = (planned.name(), P::WHAT);
    let how = if found.is_empty() {
        progress(&format!(
            "  {name}: {reason}; building parts of it alone to find the {what} that cause it"
        ));
        let count = planned.items().len();
        found = probe.culprits(root, dir, count, reason, &mut write);
        Found::Halves
    } else {
        let (n, of) = (found.len(), named.len());
        progress(&match how {
            Found::Float => {
                format!(
                    "  {name}: {reason}; {n} of the {of} {what} holding such floats refused alone"
                )
            }
            _ => format!(
                "  {name}: {reason}; the linker named {n} of its {what} built out of line, each refused alone"
            ),
        });
        how
    };
    let found = found
        .into_iter()
        .map(|(i, reason)| (i, format!("{reason}{}", planned.why(program, i))))
        .collect();
    (found, how)
}

/// The items a refusal's words name, each with its reason: every item
/// whose frame the linker refused (each refused frame's words, as a build
/// without the items named before it would have them); else every item
/// whose function in the crate's source holds one of the compiler's
/// errors (the first error's words in it); else the one the compiler's
/// words name.
fn named<P: Items>(
    dir: &Path,
    planned: &P,
    program: &Program,
    refused: &Refusal,
) -> Vec<(usize, String)> {
    fn add(named: &mut Vec<(usize, String)>, item: Option<usize>, reason: &str) {
        match item {
            Some(i) if !named.iter().any(|(j, _)| *j == i) => named.push((i, reason.to_string())),
            _ => {}
        }
    }
    let mut named: Vec<(usize, String)> = Vec::new();
    for frame in &refused.frames {
        let reason = generate::frame_refusal(frame);
        add(&mut named, planned.named_in(program, &reason), &reason);
    }
    if refused.frames.is_empty() && !refused.errors.is_empty() {
        let source = crate_dir(dir, planned.name(), planned.format()).join("src/lib.rs");
        let source = fs::read_to_string(source).unwrap_or_default();
        for error in &refused.errors {
            let function = error.function(&source);
            let item = function.and_then(|f| planned.named_in(program, &format!("`{f}`")));
            add(&mut named, item, &error.words);
        }
    }
    if named.is_empty() {
        let item = planned.named_in(program, &refused.reason);
        add(&mut named, item, &refused.reason);
    }
    named
}

/// What a refused frame likely holds: the arguments, decoded by value,
/// where they are 4 KiB or more.
fn by_value(args: &Struct) -> String {
    match crate::layout::struct_layout(args, false) {
        Ok(layout) if layout.layout.size >= 4096 => format!(
            ", where its handler was inlined: its arguments are {} bytes decoded, on the stack (a `Box` or zero-copy account would move them off it)",
            benches::numbers::thousands(layout.layout.size as u64)
        ),
        _ => String::new(),
    }
}
