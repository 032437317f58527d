//! The harness's tests, one binary: each module a file of `tests/`
//! (docs/tests.md says what each holds). Tests that run at once share
//! nothing they write: a run of this checkout writes its reports to a
//! scratch folder.

mod anchor1;
mod anchor2;
mod anchor_versions;
mod build;
mod cdp;
mod contract;
mod docs;
mod encodings;
mod framework_metadata;
mod framework_token;
mod harness;
mod hopper;
mod host_features;
mod layout;
mod message;
mod metadata;
mod page;
mod profile;
mod properties;
mod registry;
mod report;
mod reproducible;
mod star_frame;
mod steel;
mod sweep;
mod toolchains;
mod trace;
mod typhoon;

/// Every crate's row of `workspace`, run once and checked against its
/// contract: each family's programs in their own Mollusk, untraced (the
/// floor and the other frameworks left out).
pub fn measure(workspace: &benches::Workspace) -> Vec<benches::report::Measurement> {
    let programs = workspace.programs().unwrap_or_else(|e| panic!("{e}"));
    let mut measured = Vec::new();
    for family in benches::Family::ALL {
        if programs.iter().any(|p| p.family == family) {
            let (programs, mollusk) = workspace.load(family).unwrap_or_else(|e| panic!("{e}"));
            let cases = benches::families::cases(&programs).unwrap_or_else(|e| panic!("{e}"));
            let rows = benches::bench::pass::untraced(&cases, &mollusk);
            measured.extend(rows.unwrap_or_else(|e| panic!("{e}")));
        }
    }
    measured
}

/// Runs `case` on `mollusk` and accepts any one of `allowed` outcomes; the
/// error says why each one failed.
pub fn check_any(
    mut case: benches::Case,
    mollusk: &mollusk_svm::Mollusk,
    allowed: &[benches::Expected],
) -> Result<(), String> {
    let result = mollusk.process_instruction(&case.instruction, &case.accounts);
    let mut errors = Vec::new();
    for expected in allowed {
        case.expected = expected.clone();
        match case.check(&result) {
            Ok(()) => return Ok(()),
            Err(error) => errors.push(error.to_string()),
        }
    }
    Err(errors.join(" / or / "))
}
