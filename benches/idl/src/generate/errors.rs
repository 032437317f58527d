//! The compiler's errors in a generated crate's own source: where each
//! is (the line of `src/lib.rs` it points at) and which function of the
//! source holds that line, so a refusal can name the handler at fault
//! from the compiler's words, without building any part of the program.

/// One of the compiler's errors in a generated crate's `src/lib.rs`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceError {
    /// The line (from 1) the error points at.
    pub line: usize,
    /// The error's first line (`error[E0599]: no associated function …`).
    pub words: String,
}

/// Every error the compiler's `words` place in the generated crate's own
/// `src/lib.rs` (`--> programs/<crate>/src/lib.rs:<line>:<column>`, the
/// first place each error names), in order; warnings are passed over.
pub(super) fn source_errors(words: &str) -> Vec<SourceError> {
    let mut errors = Vec::new();
    let mut open: Option<&str> = None;
    for line in words.lines() {
        if line.starts_with("error") {
            open = Some(line);
        } else if line.starts_with("warning") {
            open = None;
        } else if let Some(first) = open
            && let Some(at) = line.trim_start().strip_prefix("--> ")
        {
            open = None;
            let own = at.starts_with("programs/") && at.contains("/src/lib.rs:");
            let number = at.split(':').nth(1).and_then(|n| n.parse().ok());
            if let (true, Some(line)) = (own, number) {
                let words = first.trim().to_string();
                errors.push(SourceError { line, words });
            }
        }
    }
    errors
}

impl SourceError {
    /// The name of the function of `source` (the crate's `src/lib.rs`)
    /// whose definition, from its `fn` line to its closing brace, holds
    /// the error's line.
    pub fn function(&self, source: &str) -> Option<String> {
        let lines: Vec<&str> = source.lines().collect();
        let at = self.line.checked_sub(1).filter(|at| *at < lines.len())?;
        let indent = |line: &str| line.len() - line.trim_start().len();
        let (start, name) = lines[..=at]
            .iter()
            .enumerate()
            .rev()
            .find_map(|(i, line)| {
                let (_, rest) = line.split_once("fn ")?;
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                let opens = rest[name.len()..].starts_with(['(', '<']);
                (!name.is_empty() && opens).then_some((i, name))
            })?;
        let closes = |line: &&str| line.trim() == "}" && indent(line) == indent(lines[start]);
        let end = start + lines[start..].iter().position(closes)?;
        (at <= end).then_some(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each error's place in the crate's own source and its first line,
    /// in order; a warning's place, and a place in another file, are not
    /// the crate's errors. A record reads them back.
    #[test]
    fn a_refusal_keeps_where_each_error_is_in_the_crate_s_source() {
        let words = [
            "warning: unused variable: `ctx`",
            "   --> programs/demo/src/lib.rs:7:5",
            "error[E0599]: no associated function or constant named `__anchor_validate_ix_arg_type_32` found",
            "    --> programs/demo/src/lib.rs:259:45",
            "     |",
            "    --> programs/demo/src/lib.rs:1140:1",
            "error[E0599]: no associated function or constant named `__anchor_validate_ix_arg_type_33` found",
            "    --> programs/demo/src/lib.rs:260:35",
            "error[E0308]: mismatched types",
            "   --> /cargo/registry/src/anchor-lang-1.2.2/src/lib.rs:12:1",
            "error: could not compile `demo` (lib) due to 3 previous errors",
        ]
        .join("\n");
        let errors = source_errors(&words);
        let at = |line: usize, n: u32| SourceError {
            line,
            words: format!(
                "error[E0599]: no associated function or constant named \
                 `__anchor_validate_ix_arg_type_{n}` found"
            ),
        };
        assert_eq!(errors, vec![at(259, 32), at(260, 33)]);
    }

    /// The function whose definition holds an error's line; none where
    /// the line is between functions.
    #[test]
    fn an_error_s_function_is_the_one_whose_definition_holds_its_line() {
        let source = [
            "pub mod program {",                                            // 1
            "    pub fn open(ctx: Context<StoreArgument>) -> Result<()> {", // 2
            "        Ok(())",                                               // 3
            "    }",                                                        // 4
            "    pub fn token_edit(",                                       // 5
            "        ctx: Context<StoreArgument>,",                         // 6
            "        weight: Option<f32>,",                                 // 7
            "    ) -> Result<()> {",                                        // 8
            "        Ok(())",                                               // 9
            "    }",                                                        // 10
            "}",                                                            // 11
            "pub struct StoreArgument {}",                                  // 12
        ]
        .join("\n");
        let at = |line| {
            SourceError {
                line,
                words: String::new(),
            }
            .function(&source)
        };
        assert_eq!(at(7), Some("token_edit".to_string()));
        assert_eq!(at(3), Some("open".to_string()));
        assert_eq!(at(12), None);
        assert_eq!(at(11), None);
        assert_eq!(at(99), None);
    }
}
