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
/// traced test runs it, then each program profiled from its traces and
/// from its fixtures: every invocation that says it is exact has the
/// profile of a fixture, frame by frame, and CUs; one that is not names
/// the syscall whose charge the trace cannot show. How many are exact is
/// printed (the closing note quotes it).
#[test]
#[ignore = "every row: run by make test after make all"]
fn every_rows_traces_profile_as_its_fixture() {
    let workspace = Workspace::current();
    let scratch = tempfile::tempdir().unwrap();
    let (mut exact, mut inexact, mut reasons) = (0, 0, std::collections::BTreeMap::new());
    for group in benches::bench::plan::of(&workspace).unwrap_or_else(|e| panic!("{e}")) {
        let loaded = group.load(&workspace).unwrap_or_else(|e| panic!("{e}"));
        for program in &loaded.programs {
            let cases: Vec<_> = group
                .cases
                .iter()
                .filter(|c| c.instruction.program_id == program.id)
                .cloned()
                .collect();
            if cases.is_empty() {
                continue;
            }
            let label = program.so_path.display().to_string();
            let dir = scratch.path().join(label.replace('/', "_"));
            let (fixtures, traces) = (dir.join("fixtures"), dir.join("traces"));
            fs::create_dir_all(&fixtures).unwrap();
            fixtures::write_cases(&fixtures, &loaded.mollusk, &cases)
                .unwrap_or_else(|e| panic!("{label}: {e}"));
            trace_fixtures(&program.so_path, &fixtures, &traces);
            let replayed = so::run(&options(&program.so_path, &fixtures, 1))
                .unwrap_or_else(|e| panic!("{label}: {e}"));
            let heap = loaded.mollusk.compute_budget.heap_size;
            let traced = so::run(&traces_options(&program.so_path, &traces, heap))
                .unwrap_or_else(|e| panic!("{label}: {e}"));
            for p in &traced.profiled {
                match &p.replayed {
                    Ok(()) => {
                        exact += 1;
                        // A CPI's callee (a program calling itself, as
                        // `emit_cpi!` does) is an invocation of its own,
                        // nested in its caller's fixture under the CPI.
                        assert!(
                            replayed.profiled.iter().any(|f| {
                                (f.cus == p.cus && f.profile == p.profile)
                                    || callee_profiles(&f.profile).contains(&p.profile.stacks)
                            }),
                            "{label} {}: {} CUs, exact, is no fixture's profile",
                            p.fixture,
                            p.cus
                        );
                    }
                    Err(why) => {
                        inexact += 1;
                        let syscall = why.split('`').nth(1).unwrap_or(why).to_string();
                        *reasons.entry(syscall).or_insert(0) += 1;
                    }
                }
            }
        }
    }
    eprintln!(
        "traced invocations: {exact} exact, {inexact} not; not exact, by syscall: {reasons:?}"
    );
    assert!(exact > 0);
}
