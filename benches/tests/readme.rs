//! The README's first screen: its answer is this tree's numbers.

use std::fs;

use benches::{Workspace, bench, mainnet::Mainnet, report::answer};

#[test]
fn readme_answer_is_this_trees_numbers_on_the_first_screen() {
    let workspace = Workspace::current();
    let measured = bench::measure(&workspace).unwrap_or_else(|e| panic!("{e}"));
    let frameworks = bench::measure_frameworks(&workspace).unwrap_or_else(|e| panic!("{e}"));
    let mainnet = Mainnet::read(&workspace).unwrap();
    let answer = answer::markdown(&measured, &frameworks, &mainnet);
    let readme = fs::read_to_string(workspace.root.join("README.md")).unwrap();
    let Some(at) = readme.find(&answer) else {
        panic!(
            "README.md's answer is not this tree's: run `make bench` and paste target/benches/answer.md over it:\n{answer}"
        );
    };
    // The block ends on the first screen (about 60 lines).
    let end_line = readme[..at + answer.len()].lines().count();
    assert!(end_line <= 60, "the answer ends on line {end_line}");
}
