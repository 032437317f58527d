//! What a failed SBF build says, in the compiler's and LLVM's own words,
//! shortened: a program that does not build is a result with this reason
//! (the toolchain and release matrices, `make idl`'s generated programs).

/// The compiler's error lines from a build's stderr, shortened.
pub fn error_of(stderr: &str) -> String {
    // The compiler's and LLVM's own words: error lines, and where an LLVM
    // pass crashed (it prints the pass and function instead of an error).
    let lines: Vec<&str> = stderr
        .lines()
        .map(str::trim)
        .filter(|l| {
            (l.starts_with("error") && !l.starts_with("error: could not compile"))
                || l.starts_with("-->")
                || l.contains("LLVM ERROR")
                || l.contains("ERROR llvm")
                || l.contains("Running pass")
                || l.contains("Cannot select")
        })
        .take(6)
        .collect();
    let text = if lines.is_empty() {
        stderr.trim().to_string()
    } else {
        lines.join("\n")
    };
    text.chars().take(600).collect()
}
