//! `TRACES=`: a team's tests run with `SBF_TRACE_DIR` set, profiled from
//! the register traces they leave, with no VM: each invocation's profile
//! is the one its fixture's replay gives, frame by frame, where it says
//! it is exact.

use mollusk_svm::register_tracing::DefaultRegisterTracingCallback;

use super::*;

/// Each fixture in `fixtures` run as a team's traced test runs it: in a
/// Mollusk with register tracing and mollusk-svm's own callback writing
/// `SBF_TRACE_DIR`'s files into `traces`.
fn trace_fixtures(so: &Path, fixtures: &Path, traces: &Path) {
    let elf = fs::read(so).unwrap();
    let (loaded, refused) = so::replay::load_dir(fixtures).unwrap();
    assert!(refused.is_empty(), "{refused:?}");
    for fixture in loaded {
        let program_id = fixture.fixture.input.program_id;
        let mut mollusk = benches::trace::traced_mollusk(&program_id, &elf).unwrap();
        // The programs its CPIs reach, as its fixture carries them.
        for callee in so::replay::callees(&fixture.fixture, &program_id).0 {
            so::replay::load_callee(&mut mollusk, &callee).unwrap();
        }
        mollusk.invocation_inspect_callback = Box::new(DefaultRegisterTracingCallback {
            sbf_trace_dir: traces.display().to_string(),
            sbf_trace_disassemble: false,
        });
        mollusk.process_fixture(&fixture.fixture);
    }
}

fn traces_options(so: &Path, traces: &Path, heap: u32) -> Options {
    Options {
        traces: Some(traces.to_path_buf()),
        heap: Some(heap),
        ..options(so, Path::new(""), 1)
    }
}

/// The solana-program token program on borsh (its memcpy and memcmp
/// syscalls charged from their registers): every traced invocation is
/// exact, and the traces' profiles are the fixtures' profiles, frame by
/// frame (an invocation traced twice alike is one file).
#[test]
fn traces_profile_as_the_fixtures_replay() {
    let dir = tempfile::tempdir().unwrap();
    let (so_path, _) = borsh_fixtures(dir.path());
    let fixtures = so::run(&options(&so_path, dir.path(), 1)).unwrap_or_else(|e| panic!("{e}"));
    let traces = tempfile::tempdir().unwrap();
    trace_fixtures(&so_path, dir.path(), traces.path());
    let traced = so::run(&traces_options(&so_path, traces.path(), 32 * 1024))
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(traced.traces);
    assert!(traced.refused.is_empty(), "{:?}", traced.refused);
    let profiles = |run: &so::Run| {
        let mut all: Vec<(u64, Stacks)> = run
            .profiled
            .iter()
            .map(|p| (p.cus, p.profile.stacks.clone()))
            .collect();
        all.sort();
        all.dedup();
        all
    };
    for p in &traced.profiled {
        assert_eq!(p.replayed, Ok(()), "{}: not exact", p.fixture);
        assert_eq!(p.profile.total(), p.cus, "{}", p.fixture);
        assert_eq!(p.error, None, "{}", p.fixture);
    }
    assert!(!fixtures.profiled.is_empty());
    assert_eq!(profiles(&traced), profiles(&fixtures));
    eprintln!(
        "{} fixtures, {} traces, {} distinct profiles",
        fixtures.profiled.len(),
        traced.profiled.len(),
        profiles(&traced).len()
    );
    // Named as the fixtures name them: by the instruction data's first
    // byte, which the program read.
    let mut names: Vec<String> = so::report::instructions(&traced)
        .into_iter()
        .map(|i| i.name)
        .collect();
    names.sort();
    assert_eq!(names, ["0x00", "0x01", "0x02"]);

    // Written out as a fixtures run is, each trace marked exact.
    let scratch = tempfile::tempdir().unwrap();
    let out = scratch.path().join("borsh");
    so::report::write(&out, &traced).unwrap();
    let summary = fs::read_to_string(out.join("summary.md")).unwrap();
    assert!(
        summary.contains("3 traced invocations (`TRACES=`")
            && summary.contains("\n- exact: 3 of 3 invocations (")
            && summary.contains("| trace | instruction | CUs | exact | flamegraph |"),
        "{summary}"
    );
    for p in &traced.profiled {
        let line = format!(
            "| `{}` | `{}` | {} | yes |",
            p.fixture, p.instruction, p.cus
        );
        assert!(summary.contains(&line), "{line}\n{summary}");
    }
    let results: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    assert_eq!(results["records"].as_array().unwrap().len(), 3);
}

/// `IDL=` with `TRACES=`: each traced invocation of Anchor 1.x's
/// `Account<T>` token program named by the IDL's instruction whose
/// discriminator the bytes it read start with, as its fixtures are; an
/// IDL of another address, or naming no invocation, refused by name.
#[test]
fn traces_are_named_by_the_idl() {
    let dir = tempfile::tempdir().unwrap();
    let (so_path, rows) = super::idl::account_program_fixtures(dir.path());
    let traces = tempfile::tempdir().unwrap();
    trace_fixtures(&so_path, dir.path(), traces.path());
    let idls = tempfile::tempdir().unwrap();
    let with_idl = |text| {
        let options = traces_options(&so_path, traces.path(), 32 * 1024);
        super::idl::run_with_idl(idls.path(), options, text)
    };
    let (_, run) = with_idl(super::idl::token_idl(None));
    let run = run.unwrap_or_else(|e| panic!("{e}"));
    assert!(run.traces && run.idl.is_some());
    let mut named: Vec<&str> = run
        .profiled
        .iter()
        .map(|p| p.instruction.as_str())
        .collect();
    named.sort();
    named.dedup();
    assert_eq!(
        named,
        ["full", "readOwner", "updateAmount"],
        "{} rows",
        rows.len()
    );

    let other = Pubkey::new_from_array([9; 32]).to_string();
    let (path, run) = with_idl(super::idl::token_idl(Some(&other)));
    let error = run.err().unwrap();
    assert!(
        error.starts_with(&format!(
            "IDL={}: its address is {other}, the traces ran program ",
            path.display()
        )) && error.ends_with("give the IDL of the program the traces ran"),
        "{error}"
    );
    let (path, run) = with_idl(
        super::idl::token_idl(None)
            .replace("readOwner", "x")
            .replace("updateAmount", "y")
            .replace("full", "z"),
    );
    assert_eq!(
        run.err().unwrap(),
        format!(
            "IDL={}: no traced invocation read instruction data starting with one of its 3 instructions' discriminators: an IDL for another program? give the IDL of the program the traces ran",
            path.display()
        )
    );
}

/// A profile's stacks and their CUs.
type Stacks = std::collections::BTreeMap<Vec<String>, u64>;

/// The CPI callees nested in `profile`: for each CPI frame, the stacks
/// under it, rooted at the callee's label as its own profile roots them.
fn callee_profiles(profile: &benches::profile::Profile) -> Vec<Stacks> {
    let mut by_site: std::collections::BTreeMap<Vec<String>, Stacks> = Default::default();
    for (stack, cus) in &profile.stacks {
        if let Some(at) = stack
            .iter()
            .position(|f| f.starts_with("syscall:sol_invoke"))
            && stack.len() > at + 1
        {
            *by_site
                .entry(stack[..=at].to_vec())
                .or_default()
                .entry(stack[at + 1..].to_vec())
                .or_default() += cus;
        }
    }
    by_site.into_values().collect()
}

/// Every row of the benchmark (each family's crates and every framework's
/// programs, as `make bench` plans them), its fixture run as a team's
/// traced test runs it in Mollusk, and as `make litesvm` traced it in
/// LiteSVM (`target/benches/litesvm-traces/`), then each program profiled
/// from both folders of traces and from its fixtures: every invocation
/// that says it is exact has the profile of a fixture, frame by frame, and
/// its CUs; one that is not names the syscall whose charge the trace
/// cannot show. How many are exact is printed (the closing note quotes
/// it).
#[test]
#[ignore = "every row: run by make test after make all and make litesvm"]
fn every_rows_traces_profile_as_its_fixture() {
    let workspace = Workspace::current();
    let lite = workspace.benches_dir().join("litesvm-traces");
    assert!(
        lite.is_dir(),
        "{}: no LiteSVM traces; run make litesvm",
        lite.display()
    );
    let scratch = tempfile::tempdir().unwrap();
    let mut tally: std::collections::BTreeMap<&str, (usize, usize)> = Default::default();
    let mut reasons = std::collections::BTreeMap::new();
    for program in rows_programs(&workspace, scratch.path()) {
        let (label, replayed) = (&program.label, &program.replayed);
        let traces = program.fixtures.with_file_name("traces");
        trace_fixtures(&program.so, &program.fixtures, &traces);
        let lite = lite.join(&program.litesvm_folder);
        for (svm, dir) in [("Mollusk", &traces), ("LiteSVM", &lite)] {
            let traced = so::run(&traces_options(&program.so, dir, program.heap))
                .unwrap_or_else(|e| panic!("{label} ({svm}): {e}"));
            let (exact, inexact) = tally.entry(svm).or_default();
            for p in &traced.profiled {
                match &p.replayed {
                    Ok(()) => {
                        *exact += 1;
                        // A CPI's callee (a program calling itself, as
                        // `emit_cpi!` does) is an invocation of its own,
                        // nested in its caller's fixture under the CPI.
                        assert!(
                            replayed.profiled.iter().any(|f| {
                                (f.cus == p.cus && f.profile == p.profile)
                                    || callee_profiles(&f.profile).contains(&p.profile.stacks)
                            }),
                            "{label} ({svm}) {}: {} CUs, exact, is no fixture's profile",
                            p.fixture,
                            p.cus
                        );
                    }
                    Err(why) => {
                        *inexact += 1;
                        let syscall = why.split('`').nth(1).unwrap_or(why).to_string();
                        *reasons.entry((svm, syscall)).or_insert(0) += 1;
                    }
                }
            }
        }
    }
    eprintln!("traced invocations (exact, not): {tally:?}; not exact, by syscall: {reasons:?}");
    for svm in ["Mollusk", "LiteSVM"] {
        assert!(
            tally.get(svm).is_some_and(|(exact, _)| *exact > 0),
            "{svm}: {tally:?}"
        );
    }
}

/// Bad input, each named with what to do, the rest profiled: a folder
/// with no trace, one holding only another program's, a `.regs` cut
/// short, `.insns` of another build, a trace with no `.exec.sha256`, and
/// `BASE=`-style pairing asked of traces by the command (its own test).
#[test]
fn bad_traces_are_named_and_the_rest_profiled() {
    let dir = tempfile::tempdir().unwrap();
    let (so_path, _) = borsh_fixtures(dir.path());
    let traces = tempfile::tempdir().unwrap();
    trace_fixtures(&so_path, dir.path(), traces.path());
    let heap = 32 * 1024;
    let run = |path: &Path| so::run(&traces_options(&so_path, path, heap));

    let empty = tempfile::tempdir().unwrap();
    let error = run(empty.path()).err().unwrap();
    assert!(
        error.contains(
            "no register trace (`<digest>.regs`) in it; run your tests with SBF_TRACE_DIR="
        ),
        "{error}"
    );

    // Every trace of another program: named by its ELF's hash.
    let others = tempfile::tempdir().unwrap();
    let stems: Vec<String> = fs::read_dir(traces.path())
        .unwrap()
        .flatten()
        .filter_map(|e| {
            e.file_name()
                .to_string_lossy()
                .strip_suffix(".regs")
                .map(str::to_string)
        })
        .collect();
    assert_eq!(stems.len(), 3);
    let copy = |to: &Path, stem: &str| {
        for ext in ["regs", "insns", "program_id", "exec.sha256"] {
            let from = traces.path().join(format!("{stem}.{ext}"));
            fs::copy(&from, to.join(format!("{stem}.{ext}"))).unwrap();
        }
    };
    copy(others.path(), &stems[0]);
    fs::write(
        others.path().join(format!("{}.exec.sha256", stems[0])),
        "ab".repeat(32),
    )
    .unwrap();
    let error = run(others.path()).err().unwrap();
    assert!(
        error.contains(&format!("1 of an ELF with sha256 {}", "ab".repeat(32)))
            && error.ends_with("give the .so your tests loaded"),
        "{error}"
    );

    // One cut short, one of another build, one with no hash; the rest
    // (one good trace) profiled.
    let mixed = tempfile::tempdir().unwrap();
    for stem in &stems {
        copy(mixed.path(), stem);
    }
    let regs = mixed.path().join(format!("{}.regs", stems[0]));
    let bytes = fs::read(&regs).unwrap();
    fs::write(&regs, &bytes[..bytes.len() - 5]).unwrap();
    let insns = mixed.path().join(format!("{}.insns", stems[1]));
    let mut ran = fs::read(&insns).unwrap();
    ran[1] ^= 0x11; // the first instruction's registers
    fs::write(&insns, ran).unwrap();
    let extra = "0123456789abcdef";
    fs::copy(
        mixed.path().join(format!("{}.regs", stems[2])),
        mixed.path().join(format!("{extra}.regs")),
    )
    .unwrap();
    let traced = run(mixed.path()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(traced.profiled.len(), 1);
    assert_eq!(traced.profiled[0].fixture, format!("{}.regs", stems[2]));
    let reasons: Vec<(String, String)> = traced
        .refused
        .iter()
        .map(|r| (r.fixture.clone(), r.reason.clone()))
        .collect();
    assert_eq!(reasons.len(), 3, "{reasons:?}");
    assert!(
        reasons.iter().any(|(f, r)| *f == format!("{extra}.regs")
            && r.starts_with(&format!("no `{extra}.exec.sha256` beside it"))),
        "{reasons:?}"
    );
    assert!(
        reasons
            .iter()
            .any(|(f, r)| *f == format!("{}.regs", stems[0])
                && r.starts_with(&format!(
                    "cut short: {} bytes, not a whole number of instructions",
                    bytes.len() - 5
                ))),
        "{reasons:?}"
    );
    assert!(
        reasons
            .iter()
            .any(|(f, r)| *f == format!("{}.regs", stems[1])
                && r.starts_with("a trace of another build: at step 0")
                && r.ends_with("give the .so the test loaded")),
        "{reasons:?}"
    );
}
