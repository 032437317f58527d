//! A refusal: why the compiler or the linker would not build a crate, in
//! a line of its own words, with every function whose stack frame the
//! linker refused (and that frame's size, where the linker reported it)
//! and every error the compiler placed in the crate's own source.

use super::errors::{SourceError, source_errors};

/// Why a crate was not built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The compiler's or the linker's words, in a line ([`refusal`]).
    pub reason: String,
    /// Every function whose stack frame the linker refused (4,096 bytes
    /// or more), in the order it named them: the reason names the first.
    pub frames: Vec<Frame>,
    /// Every error the compiler placed in the crate's own source, in its
    /// order: where (`src/lib.rs`'s line) and its words.
    pub errors: Vec<SourceError>,
}

/// A function whose stack frame the linker refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    /// As Rust names it ([`short_symbol`]).
    pub function: String,
    /// The frame's size, where the linker reported it: the profile
    /// linker does when `make idl` asks ([`FRAME_SIZES`]), as every one
    /// of its builds does.
    pub bytes: Option<u64>,
}

/// The environment variable that has the profile linker report every
/// function's stack frame (benches/profile-linker/frame-sizes.patch: LLVM's
/// prologue/epilogue remarks, which leave the code as it was).
pub const FRAME_SIZES: &str = "SBPF_LINKER_FRAME_SIZES";

/// How a record writes a [`SourceError`]'s line: no function's name (a
/// frame's line) starts so.
const ERROR_AT: &str = "@";

/// How a record's frame line sets the function's name from its size: no
/// name holds it.
const FRAME_BYTES: char = '\t';

impl Refusal {
    /// A refusal in `reason`'s words, naming no frame and no line.
    pub fn new(reason: impl Into<String>) -> Self {
        Self {
            reason: reason.into(),
            frames: Vec::new(),
            errors: Vec::new(),
        }
    }

    /// The refusal the compiler's and linker's `words` make.
    pub(super) fn of(words: &str) -> Self {
        let sizes = frame_sizes(words);
        let mut frames: Vec<Frame> = Vec::new();
        for function in words.lines().filter_map(refused_frame) {
            if !frames.iter().any(|f| f.function == function) {
                let bytes = sizes.iter().find(|(f, _)| *f == function).map(|(_, b)| *b);
                frames.push(Frame { function, bytes });
            }
        }
        let reason = match frames.first() {
            Some(frame) => frame_refusal(frame),
            None => refusal(words),
        };
        Self {
            reason,
            frames,
            errors: source_errors(words),
        }
    }

    /// As a record holds it: the reason's line, then a line a frame (its
    /// function, then a tab and its size where known), then a line an
    /// error (`@<line> <words>`).
    pub(super) fn text(&self) -> String {
        let frames = self.frames.iter().map(|f| match f.bytes {
            Some(bytes) => format!("{}{FRAME_BYTES}{bytes}", f.function),
            None => f.function.clone(),
        });
        let errors = self
            .errors
            .iter()
            .map(|e| format!("{ERROR_AT}{} {}", e.line, e.words));
        std::iter::once(self.reason.clone())
            .chain(frames)
            .chain(errors)
            .collect::<Vec<_>>()
            .join("\n")
    }

    pub(super) fn read(text: &str) -> Self {
        let mut lines = text.lines();
        let mut refusal = Self::new(lines.next().unwrap_or_default());
        for line in lines {
            let error = line.strip_prefix(ERROR_AT).and_then(|rest| {
                let (at, words) = rest.split_once(' ')?;
                let line = at.parse().ok()?;
                let words = words.to_string();
                Some(SourceError { line, words })
            });
            if let Some(error) = error {
                refusal.errors.push(error);
                continue;
            }
            let frame = match line.split_once(FRAME_BYTES) {
                Some((function, bytes)) => Frame {
                    function: function.to_string(),
                    bytes: bytes.parse().ok(),
                },
                None => Frame {
                    function: line.to_string(),
                    bytes: None,
                },
            };
            refusal.frames.push(frame);
        }
        refusal
    }
}

/// The refusal of `frame`, 4,096 bytes or more (the BPF backend refuses a
/// frame slot at 4,096 bytes below the frame pointer): its size where the
/// linker reported it.
pub fn frame_refusal(frame: &Frame) -> String {
    let Frame { function, bytes } = frame;
    match bytes {
        Some(bytes) => format!(
            "link refused: a stack frame of {} bytes, at or past 4,096 (in `{function}`)",
            benches::numbers::thousands(*bytes)
        ),
        None => format!("link refused: a stack frame at or past 4,096 bytes (in `{function}`)"),
    }
}

/// The function a linker's line refuses the stack frame of, as Rust names
/// it (`None` where the line refuses none).
fn refused_frame(line: &str) -> Option<String> {
    if !line.contains("BPF stack limit is exceeded") {
        return None;
    }
    let function = line
        .split("in function ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or("?");
    Some(short_symbol(function))
}

/// Every function's stack frame the linker reported ([`FRAME_SIZES`]:
/// `N stack bytes in function 'f'`), each as Rust names it, in its order.
fn frame_sizes(words: &str) -> Vec<(String, u64)> {
    words
        .lines()
        .filter_map(|line| {
            let (before, after) = line.split_once(" stack bytes in function '")?;
            let bytes = before.rsplit(' ').next()?.parse().ok()?;
            let function = after.strip_suffix('\'')?;
            Some((short_symbol(function), bytes))
        })
        .collect()
}

/// The linker's words without what it logs when asked for frame sizes
/// ([`FRAME_SIZES`]: LLVM's remarks on every function, and the linker's
/// progress), but the frames' sizes where `sizes` (a refused link's).
pub(super) fn without_remarks(text: &str, sizes: bool) -> String {
    let logged = |line: &str| {
        let line = line.trim_start();
        ["DEBUG ", "INFO ", "WARN ", "TRACE "]
            .iter()
            .any(|level| line.starts_with(level))
            && !(sizes && line.contains(" stack bytes in function '"))
    };
    let kept: Vec<&str> = text.lines().filter(|line| !logged(line)).collect();
    let mut kept = kept.join("\n");
    if text.ends_with('\n') {
        kept.push('\n');
    }
    kept
}

/// Why a build failed, in a line, where no stack frame decides: the
/// symbols the linker found no definition of, else the compiler's errors
/// as the toolchain matrix records them.
fn refusal(stderr: &str) -> String {
    let missing = missing_symbols(stderr);
    if !missing.is_empty() {
        let named: Vec<String> = missing.iter().map(|s| format!("`{s}`")).collect();
        return format!("{MISSING}{}", named.join(", "));
    }
    // On one line: the report's tables hold it in a cell.
    benches::build_error::error_of(stderr).replace('\n', " / ")
}

/// The widths (in bytes) of the floats whose soft-float built-ins a
/// refusal's `reason` says the linker found no definition of: compiler-rt
/// names each for its operands, `sf` for `f32` and `df` for `f64`
/// (`__unorddf2`, the check for an `f64` NaN; `__addsf3`, an `f32` sum).
/// None where the reason is another.
pub fn missing_floats(reason: &str) -> Vec<u8> {
    let Some(named) = reason.strip_prefix(MISSING) else {
        return Vec::new();
    };
    let symbols: Vec<&str> = named.split(", ").map(|s| s.trim_matches('`')).collect();
    let mut widths = Vec::new();
    for (mode, bytes) in [("sf", 4), ("df", 8)] {
        if symbols
            .iter()
            .any(|s| s.starts_with("__") && s.contains(mode))
        {
            widths.push(bytes);
        }
    }
    widths
}

/// How a refusal for missing symbols starts.
const MISSING: &str = "link refused: the linker found no ";

/// Every symbol the linker says is missing (`Symbol __unorddf2 is
/// missing.`: called, and defined nowhere it links), once each, sorted
/// (the linker's order is not the same from one link to the next).
fn missing_symbols(stderr: &str) -> Vec<String> {
    let mut missing: Vec<String> = stderr
        .lines()
        .filter_map(|line| {
            let (_, rest) = line.split_once("Symbol ")?;
            let (symbol, _) = rest.split_once(" is missing")?;
            (!symbol.contains(' ')).then(|| symbol.to_string())
        })
        .collect();
    missing.sort();
    missing.dedup();
    missing
}

/// A mangled symbol as Rust names it, without hashes or the generated
/// crate's path (`<Type as borsh::de::BorshDeserialize>::deserialize_reader`),
/// and a function's long generic arguments shortened
/// (`core::slice::sort::stable::driftsort_main::<(String, PayloadType), …>`).
fn short_symbol(symbol: &str) -> String {
    let name = crate_free_symbol(symbol);
    if name.len() <= 160 {
        return name;
    }
    // Keep the path and the first generic argument's text, up to a point.
    let cut = name
        .char_indices()
        .filter(|(i, _)| name[*i..].starts_with("::<"))
        .map(|(i, _)| i)
        .next();
    match cut {
        Some(at) => {
            let args = &name[at + 3..];
            let first: String = args
                .chars()
                .scan(0i32, |depth, c| {
                    match c {
                        '<' | '(' | '[' => *depth += 1,
                        '>' | ')' | ']' => *depth -= 1,
                        ',' if *depth == 0 => return None,
                        _ => {}
                    }
                    (*depth >= 0).then_some(c)
                })
                .collect();
            let first = first
                .replace("alloc::string::", "")
                .replace("alloc::vec::", "")
                .replace("alloc::collections::btree::map::", "");
            format!("{}::<{first}, …>", &name[..at])
        }
        None => name,
    }
}

fn crate_free_symbol(symbol: &str) -> String {
    let name = format!("{:#}", rustc_demangle::demangle(symbol));
    let mut out = String::new();
    for part in name.split("idl_") {
        match part.split_once("::") {
            Some((_crate, rest)) if !out.is_empty() || name.starts_with("idl_") => {
                out.push_str(rest)
            }
            _ => out.push_str(part),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every frame the linker refused, each once, in its order, with the
    /// size it reported (none where it reported none); the reason names
    /// the first, and a record reads back the same.
    #[test]
    fn a_refusal_names_every_refused_frame_once_with_its_size() {
        let line = |function: &str| {
            format!(
                "ERROR llvm: src/lib.rs:1:1: in function {function} i64 (ptr): Looks like the \
                 BPF stack limit is exceeded. Please move large on stack variables"
            )
        };
        let size = |bytes: u64, function: &str| {
            format!(
                "          DEBUG remark: src/lib.rs:9:0: {bytes} stack bytes in function '{function}'"
            )
        };
        let words = [
            "error: linking with `sbpf-linker` failed: exit status: 1",
            &size(0, "_RNvCs1_8idl_demo4noop"),
            &line("entrypoint"),
            &line("_RNvCs1_8idl_demo10load_table"),
            &size(5016, "_RNvCs1_8idl_demo10load_table"),
            &line("entrypoint"),
            &line("_RNvCs1_8idl_demo6unsure"),
            &size(6048, "entrypoint"),
        ]
        .join("\n");
        let refused = Refusal::of(&words);
        let frame = |function: &str, bytes: Option<u64>| Frame {
            function: function.to_string(),
            bytes,
        };
        assert_eq!(
            refused.frames,
            vec![
                frame("entrypoint", Some(6048)),
                frame("load_table", Some(5016)),
                frame("unsure", None),
            ]
        );
        assert_eq!(
            refused.reason,
            "link refused: a stack frame of 6,048 bytes, at or past 4,096 (in `entrypoint`)"
        );
        assert_eq!(
            frame_refusal(&frame("unsure", None)),
            "link refused: a stack frame at or past 4,096 bytes (in `unsure`)"
        );
        assert_eq!(Refusal::read(&refused.text()), refused);
        // A record written before sizes were known reads back without.
        assert_eq!(
            Refusal::read("link refused: a stack frame past 4,096 bytes (in `decode`)\ndecode")
                .frames,
            vec![frame("decode", None)]
        );
        // A compiler's error names no frame.
        let compiled = Refusal::of("error[E0599]: no associated function");
        assert_eq!(
            (compiled.reason.as_str(), compiled.frames.len()),
            ("error[E0599]: no associated function", 0)
        );
    }

    /// What the linker logs when asked for frame sizes is left out, but
    /// its errors and, where a link is refused, the sizes.
    #[test]
    fn the_linker_log_keeps_its_errors_and_the_frame_sizes() {
        let text = [
            "error: linking with `sbpf-linker` failed: exit status: 1",
            "  = note: unable to open LLVM shared lib",
            "          INFO linking file a.o type Bitcode",
            "          WARN ignoring archive item lib.rmeta: no embedded bitcode",
            "          DEBUG remark: src/lib.rs:1:1: loop not vectorized",
            "          DEBUG remark: src/lib.rs:9:0: 6048 stack bytes in function 'entrypoint'",
            "          ERROR llvm: src/lib.rs:1:1: in function entrypoint i64 (ptr): Looks like",
            "",
        ]
        .join("\n");
        assert_eq!(
            without_remarks(&text, false),
            [
                "error: linking with `sbpf-linker` failed: exit status: 1",
                "  = note: unable to open LLVM shared lib",
                "          ERROR llvm: src/lib.rs:1:1: in function entrypoint i64 (ptr): Looks like",
                "",
            ]
            .join("\n")
        );
        assert_eq!(
            without_remarks(&text, true),
            [
                "error: linking with `sbpf-linker` failed: exit status: 1",
                "  = note: unable to open LLVM shared lib",
                "          DEBUG remark: src/lib.rs:9:0: 6048 stack bytes in function 'entrypoint'",
                "          ERROR llvm: src/lib.rs:1:1: in function entrypoint i64 (ptr): Looks like",
                "",
            ]
            .join("\n")
        );
    }

    /// A link refused for symbols defined nowhere names each, once, in
    /// order.
    #[test]
    fn a_missing_symbol_is_named() {
        let words = [
            "error: linking with `sbpf-linker` failed: exit status: 1",
            "  = note: Error: Symbol __unordsf2 is missing. Export it with the `--export=__unordsf2` flag.",
            "          Symbol __unorddf2 is missing. Export it with the `--export=__unorddf2` flag.",
            "          Symbol __unordsf2 is missing. Export it with the `--export=__unordsf2` flag.",
        ]
        .join("\n");
        let reason = Refusal::of(&words).reason;
        assert_eq!(
            reason,
            "link refused: the linker found no `__unorddf2`, `__unordsf2`"
        );
        assert_eq!(missing_floats(&reason), vec![4, 8]);
        assert_eq!(
            missing_floats("link refused: the linker found no `__adddf3`"),
            vec![8]
        );
        assert_eq!(
            missing_floats("link refused: the linker found no `memfrob`"),
            Vec::<u8>::new()
        );
        let decode = Frame {
            function: "decode".to_string(),
            bytes: Some(5000),
        };
        assert_eq!(missing_floats(&frame_refusal(&decode)), Vec::<u8>::new());
    }
}
