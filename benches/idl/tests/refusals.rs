//! A program that cannot be built loses only the items that cause it:
//! `idls/huge_argument.json` has one instruction whose argument is 8 KiB
//! by value, past SBF's 4 KiB stack frame once borsh decodes it. The
//! linker names `entrypoint` (the handler is inlined), not the
//! instruction, so the run builds the program once more with its
//! handlers out of line, where the linker names it, and confirms it by
//! building it alone; that instruction is refused by name with the
//! reason, and every other handler of the format is measured. The IDL is Anchor's, so its Anchor
//! 1.x program is refused it too: there the linker names the handler's
//! wrapper, and it is taken out at once. Two instructions take a float,
//! which borsh checks for NaN with a soft-float built-in the linker finds
//! nowhere: the instructions holding such floats are each built alone and
//! refused. One has 33 arguments, past Anchor 1.x's limit: the compiler's
//! error points into its handler, which is refused at once. No half of a
//! program is built.

use crate::support;

use idl::{measure::Measured, model::Site, render::RowFormat, run::Options};
use support::{run_idl, run_idl_heard};

/// Whether `run` has a row of instruction `name` in `format` that ran.
fn ran(run: &idl::run::Run, name: &str, format: RowFormat) -> bool {
    run.rows.iter().any(|r| {
        r.site == Site::Instruction
            && r.name == name
            && r.format == format
            && matches!(r.outcome, Measured::Ran { .. })
    })
}

#[test]
fn the_handler_that_cannot_link_is_refused_by_name_and_the_rest_measured() {
    let mut heard = Vec::new();
    let run = run_idl_heard("huge_argument.json", &Options::default(), &mut heard);
    let ran = |name: &str, format: RowFormat| ran(&run, name, format);
    // Found by the linker's words on the handlers built out of line, not
    // by building halves.
    let found = "  instructions_borsh: link refused: a stack frame of 8,984 bytes, at or past \
                 4,096 (in `entrypoint`); the linker named 1 of its instructions built out of \
                 line, each refused alone";
    assert!(heard.iter().any(|l| l == found), "{heard:#?}");
    let floats = "  instructions_borsh: link refused: the linker found no `__unorddf2`, \
                  `__unordsf2`; 2 of the 2 instructions holding such floats refused alone";
    assert!(heard.iter().any(|l| l == floats), "{heard:#?}");
    let limit = "  instructions_anchor1: error[E0599]: no associated function or constant named \
                 `__anchor_validate_ix_arg_type_32`";
    let errors = "; the compiler's errors lie in 1 of its instructions";
    assert!(
        heard
            .iter()
            .any(|l| l.starts_with(limit) && l.ends_with(errors)),
        "{heard:#?}"
    );
    assert!(
        !heard.iter().any(|l| l.contains("building parts")),
        "{heard:#?}"
    );
    let reason = |name: &str, format: RowFormat| {
        let found = run
            .skipped
            .iter()
            .find(|s| s.name == name && s.format == format);
        found.map(|s| s.reason.as_str()).unwrap_or_default()
    };
    let no = "link refused: the linker found no ";
    for format in [RowFormat::Borsh, RowFormat::Anchor1Instruction] {
        assert_eq!(reason("set_price", format), format!("{no}`__unorddf2`"));
        assert_eq!(reason("set_weight", format), format!("{no}`__unordsf2`"));
    }
    assert_eq!(
        reason("configure", RowFormat::Anchor1Instruction),
        "error[E0599]: no associated function or constant named \
         `__anchor_validate_ix_arg_type_32` found for struct `StoreArgument<'info>` in the \
         current scope"
    );
    for name in ["set_price", "set_weight", "configure"] {
        for format in [RowFormat::Wincode, RowFormat::Walk] {
            assert!(
                ran(name, format),
                "{name} not measured in {}",
                format.name()
            );
        }
    }
    assert!(ran("configure", RowFormat::Borsh));
    for name in ["deposit", "withdraw"] {
        assert!(ran(name, RowFormat::Borsh), "{name} not measured in borsh");
    }
    for format in [RowFormat::Wincode, RowFormat::Walk, RowFormat::Bytemuck] {
        assert!(
            ran("load_table", format),
            "load_table not measured in {}",
            format.name()
        );
    }
    assert!(!ran("load_table", RowFormat::Borsh));
    assert!(!ran("load_table", RowFormat::Anchor1Instruction));
    for name in ["deposit", "withdraw"] {
        assert!(
            ran(name, RowFormat::Anchor1Instruction),
            "{name} not measured in Anchor 1.x"
        );
    }
    let refusals: Vec<_> = run
        .skipped
        .iter()
        .filter(|s| s.name == "load_table")
        .collect();
    assert_eq!(refusals.len(), 2, "{refusals:?}");
    assert_eq!(refusals[0].format, RowFormat::Borsh);
    assert_eq!(refusals[1].format, RowFormat::Anchor1Instruction);
    assert_eq!(
        refusals[1].reason,
        "link refused: a stack frame of 8,232 bytes, at or past 4,096 (in \
         `__private::__global::load_table`)"
    );
    assert_eq!(
        refusals[0].reason,
        "link refused: a stack frame of 8,344 bytes, at or past 4,096 (in `entrypoint`), where its \
         handler was inlined: its arguments are 8,200 bytes decoded, on the stack (a `Box` or \
         zero-copy account would move them off it)"
    );
    // No program is refused whole, and no probe is left behind.
    assert!(run.refused.is_empty(), "{:?}", run.refused);
    let programs: Vec<String> = [run.dir.join("programs"), run.dir.join("anchor1/programs")]
        .iter()
        .flat_map(|dir| std::fs::read_dir(dir).unwrap())
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        programs.iter().all(|p| !p.contains("_probe")),
        "{programs:?}"
    );
    // The summary says how each refusal was found.
    for line in [
        "No `borsh` row for `load_table`: link refused: a stack frame of 8,344 bytes, at or past \
         4,096 (in `entrypoint`), where its handler was inlined: its arguments are 8,200 bytes \
         decoded, on the stack (a `Box` or zero-copy account would move them off it) (the linker \
         named its handler built out of line, and it is refused alone).",
        "No `borsh` row for `set_price`: link refused: the linker found no `__unorddf2` (it \
         holds such a float, and it is refused alone).",
        "No `anchor1_instruction` row for `configure`: error[E0599]: no associated function or constant \
         named `__anchor_validate_ix_arg_type_32` found for struct `StoreArgument<'info>` in the \
         current scope (named in the compiler's or linker's words).",
    ] {
        assert!(run.summary.contains(line), "{line}\n{}", run.summary);
    }
}

/// `idls/maps.json` (Shank): a `hashMap` and a `bTreeSet` argument, both
/// measured in wincode and the walk against the oracle. borsh's program
/// holds each as the IDL declares it: the `hashMap` as a `hashbrown`
/// map, which it decodes without sorting, measured; the `bTreeSet` as a
/// `BTreeSet`, whose build from the decoded items sorts them with the
/// standard library's stable sort and its 4 KiB stack buffer: that frame
/// cannot link on SBF, and that instruction alone is refused by name.
#[test]
fn maps_and_sets_are_measured_where_the_format_can_link_them() {
    let run = run_idl("maps.json", &Options::default());
    let ran = |name: &str, format: RowFormat| ran(&run, name, format);
    for name in ["SetLimits", "SetMembers"] {
        for format in [RowFormat::Wincode, RowFormat::Walk] {
            assert!(
                ran(name, format),
                "{name} not measured in {}",
                format.name()
            );
        }
    }
    assert!(ran("SetLimits", RowFormat::Borsh), "{:?}", run.skipped);
    let borsh = run
        .skipped
        .iter()
        .find(|s| s.name == "SetMembers" && s.format == RowFormat::Borsh)
        .unwrap_or_else(|| panic!("SetMembers: {:?}", run.skipped));
    // The frame's size as the linker reported it (the sort's 4 KiB
    // scratch buffer: the BPF backend refuses a frame of 4,096 bytes).
    let (size, function) = borsh
        .reason
        .strip_prefix("link refused: a stack frame of ")
        .and_then(|rest| rest.split_once(" bytes, at or past 4,096 (in "))
        .unwrap_or_else(|| panic!("{}", borsh.reason));
    assert!(
        size.replace(',', "").parse::<u64>().unwrap() >= 4096,
        "{}",
        borsh.reason
    );
    assert!(
        function.starts_with("`core::slice::sort::stable::driftsort_main::<"),
        "{}",
        borsh.reason
    );
    assert!(ran("Close", RowFormat::Borsh));
}
