//! Every built program is the same bytes from any checkout and any cargo
//! home: none holds an absolute path of the machine that built it
//! (`benches::reproducible`; the `trim-paths` of `.cargo/trim-paths.toml`,
//! which every SBF build passes to cargo, is what keeps them out).

use benches::{Workspace, reproducible};

#[test]
fn no_built_program_holds_an_absolute_path() {
    let root = Workspace::current().root;
    let programs = reproducible::built_programs(&root);
    assert!(
        programs.len() >= 83,
        "{} programs under target/deploy/; run `make all` first",
        programs.len()
    );
    let folders = reproducible::machine_folders(&root);
    let mut found = Vec::new();
    let mut holding = 0;
    for program in &programs {
        let bytes = std::fs::read(program).unwrap_or_else(|e| panic!("{}: {e}", program.display()));
        let paths = reproducible::absolute_paths(&bytes, &folders);
        holding += usize::from(!paths.is_empty());
        let name = program.strip_prefix(&root).unwrap_or(program);
        found.extend(paths.iter().map(|p| format!("{}: {p:?}", name.display())));
    }
    assert!(
        found.is_empty(),
        "{holding} of {} built programs hold an absolute path (their bytes and sizes then depend on \
         where they were built); every SBF build must run `cargo build --config .cargo/trim-paths.toml` (benches::reproducible::cargo_build):\n  {}",
        programs.len(),
        found.join("\n  ")
    );
}
