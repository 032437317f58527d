//! Where a row's CUs go in words a reader uses: each stack's CUs belong to
//! the category of its innermost frame that a rule names, but beneath a
//! sealing frame (the entrypoint's input parser, the codec's decode and
//! encode) everything is that frame's: a copy inside a decode is the
//! decode's, unless it is a `sol_memcpy_` syscall, which is a copy. The
//! rules match a frame's function name (its last path segment, generics
//! dropped) and live here, and for a framework's own code in its entry of
//! `programs/frameworks.toml`.

use std::{
    collections::{BTreeMap, HashMap},
    sync::LazyLock,
};

use serde::Serialize;

use super::attribute::Profile;
use crate::Framework;

/// What a CU was spent on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    /// The framework's entrypoint: the input's parsing, the VM's heap frame.
    Entrypoint,
    /// Dispatch on the instruction, and the accounts' checks and borrows.
    Checks,
    /// The account's (or argument's) decoding.
    Decode,
    /// Encoding and writing back.
    Encode,
    /// `sol_memcpy_` and friends, and the copies LLVM leaves in line.
    Copies,
    Allocation,
    Logging,
    Cpi,
    /// The operation itself: its comparisons and field updates.
    Operation,
    /// What no rule names; the tests keep it small.
    Other,
}

impl Category {
    pub const ALL: [Category; 10] = [
        Category::Entrypoint,
        Category::Checks,
        Category::Decode,
        Category::Encode,
        Category::Copies,
        Category::Allocation,
        Category::Logging,
        Category::Cpi,
        Category::Operation,
        Category::Other,
    ];

    /// The category of that name.
    pub fn named(name: &str) -> Option<Category> {
        Self::ALL.into_iter().find(|c| c.name() == name)
    }

    pub fn name(self) -> &'static str {
        match self {
            Category::Entrypoint => "entrypoint",
            Category::Checks => "checks",
            Category::Decode => "decode",
            Category::Encode => "encode",
            Category::Copies => "copies",
            Category::Allocation => "allocation",
            Category::Logging => "logging",
            Category::Cpi => "cpi",
            Category::Operation => "operation",
            Category::Other => "other",
        }
    }
}

/// A frame's function name: the last path segment outside angle
/// brackets, generics dropped. DW_AT_name gives `write<T>`; a demangled
/// linkage name (full debug info) `<Config as Trait>::try_serialize::<W>`
/// or `<Account<T>>::exit`: both give the method. A name cut short (`…`)
/// may leave a bracket open; a closure's `->` closes none.
fn base(frame: &str) -> &str {
    let bytes = frame.as_bytes();
    let (mut depth, mut start, mut name) = (0usize, 0, None);
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'<' => depth += 1,
            b'>' if i == 0 || bytes[i - 1] != b'-' => depth = depth.saturating_sub(1),
            b':' if depth == 0 && bytes.get(i + 1) == Some(&b':') => {
                // A segment that is all generics (`<T as Trait>`, `::<W>`)
                // names no function.
                if !frame[start..i].starts_with('<') && start < i {
                    name = Some(&frame[start..i]);
                }
                start = i + 2;
                i += 1;
            }
            _ => {}
        }
        i += 1;
    }
    if !frame[start..].starts_with('<') && start < frame.len() {
        name = Some(&frame[start..]);
    }
    let name = name.unwrap_or("");
    let name = name.split('<').next().unwrap_or(name);
    name.trim_end_matches('…')
}

/// A frame's function name, as two builds' frames are matched by
/// `make profile SO= BASE=`: generics and paths dropped (a build's
/// instantiation `dispatch<RoundTrip<Borsh>, 160>` and another's
/// `dispatch<InPlace<Bytemuck>, 160>` are one `dispatch`); the frame as
/// it is where nothing names a function.
pub fn function_name(frame: &str) -> &str {
    match base(frame) {
        "" => frame,
        name => name,
    }
}

/// The category a frame names, if a rule does. A run profiles the same
/// frames in stack after stack: each frame's answer is kept (per thread)
/// once found.
pub fn of_frame(frame: &str) -> Option<Category> {
    thread_local! {
        static KNOWN: std::cell::RefCell<HashMap<String, Option<Category>>> =
            std::cell::RefCell::new(HashMap::new());
    }
    if let Some(known) = KNOWN.with_borrow(|known| known.get(frame).copied()) {
        return known;
    }
    let category = rule_of(frame);
    KNOWN.with_borrow_mut(|known| known.insert(frame.to_string(), category));
    category
}

/// The rule that names `frame`'s category, if one does.
fn rule_of(frame: &str) -> Option<Category> {
    use Category::*;
    if let Some(syscall) = frame.strip_prefix("syscall:") {
        return Some(match syscall {
            "sol_memcpy_" | "sol_memmove_" | "sol_memset_" | "sol_memcmp_" => Copies,
            "sol_invoke_signed_c" | "sol_invoke_signed_rust" => Cpi,
            "sol_alloc_free_" => Allocation,
            s if s.starts_with("sol_log") => Logging,
            _ => Other,
        });
    }
    // A framework's own code, as the registry names it.
    if let Some(category) = declared(frame) {
        return Some(category);
    }
    if frame.starts_with("vm:heap frame") {
        return Some(Entrypoint);
    }
    // solana-program's input parser, `entrypoint::deserialize` (its only
    // parameter is a lifetime, which DWARF does not name; a codec's
    // `deserialize` has a type parameter).
    if frame == "deserialize" {
        return Some(Entrypoint);
    }
    // pinocchio's input parser: `deserialize<N>` for N accounts.
    if let Some(generic) = frame.strip_prefix("deserialize<")
        && generic
            .trim_end_matches('>')
            .bytes()
            .all(|b| b.is_ascii_digit())
    {
        return Some(Entrypoint);
    }
    // A `Vec<u8>` built from an iterator (an event's tag and bytes chained
    // into a CPI's data): a copy, a byte at a time.
    if ["from_iter<u8,", "spec_extend<u8,", "extend_trusted<u8,"]
        .iter()
        .any(|p| frame.starts_with(p))
    {
        return Some(Copies);
    }
    let name = base(frame);
    let starts = |prefixes: &[&str]| prefixes.iter().any(|p| name.starts_with(p));
    Some(match name {
        "entrypoint"
        | "process_entrypoint"
        | "entry"
        | "lazy_entrypoint"
        | "deserialize_account_info"
        | "deserialize_instruction_data" => Entrypoint,
        "memcpy"
        | "memmove"
        | "memset"
        | "memcmp"
        | "bcmp"
        | "write_bytes"
        | "copy_nonoverlapping"
        | "copy_from_slice"
        | "copy_from_slice_impl"
        | "clone_from_slice"
        | "to_vec" => Copies,
        "alloc"
        | "drop_in_place"
        | "drop_glue"
        | "dealloc"
        | "realloc"
        | "alloc_zeroed"
        | "allocate"
        | "grow"
        | "reserve"
        | "finish_grow"
        | "do_reserve_and_handle"
        | "with_capacity"
        | "try_allocate_in" => Allocation,
        "log" | "msg" | "sol_log" | "log_data" | "emit" => Logging,
        "invoke" | "invoke_signed" | "invoke_signed_unchecked" => Cpi,
        "full" | "read_owner" | "update_amount" | "update" | "set_amount" | "set_state"
        | "read_blockhash" | "sanitize" | "read_instruction" | "push_key" | "read_collection"
        | "verify_creator" | "read_royalty" | "set_uri" => Operation,
        _ if starts(&[
            "decode",
            "deserialize",
            "try_deserialize",
            "from_bytes",
            // bytemuck's checked cast.
            "try_from_bytes",
            "try_from_slice",
            "visit_",
            "next_element",
            "view",
            "ref_from",
            "try_ref_from",
            "access",
            "parse",
            "load",
            "pop",
            "try_take",
            "read_",
            // solana-program-pack's `Pack::unpack` and its helpers (SPL's
            // programs).
            "unpack",
        ]) =>
        {
            Decode
        }
        _ if starts(&[
            "encode",
            "serialize",
            "try_serialize",
            "write_back",
            "exit",
            "encoded_len",
            // `Pack::pack` and its helpers.
            "pack",
        ]) =>
        {
            Encode
        }
        // Arithmetic (`checked_add`) is the operation's, not a check.
        _ if name.starts_with("checked_") => return None,
        _ if starts(&[
            "dispatch",
            "process_instruction",
            "from_instruction_data",
            "check",
            "try_borrow",
            "borrow",
            "is_writable",
            "is_signer",
            "owned_by",
            "owner",
            "try_accounts",
            "validate",
            "constraint",
            "discriminator",
            "key",
        ]) =>
        {
            Checks
        }
        // A native program's instruction handlers (`process_transfer`,
        // `_process_initialize_mint`),
        // beneath its processor's dispatch (`process`).
        "process" => Checks,
        _ if name.trim_start_matches('_').starts_with("process_") => Operation,
        _ => return None,
    })
}

/// Frames whose category holds for everything beneath them: the
/// entrypoints' input parsers (pinocchio's `deserialize<N>`, whose
/// helpers have names such as `write`; solana-program's account and data
/// parsers, which allocate), and the codec's own decode and encode (a copy or a
/// field read inside them is theirs).
fn seals(frame: &str) -> bool {
    matches!(
        base(frame),
        "decode"
            | "decode_borrowed"
            | "encode"
            | "write_back"
            | "try_deserialize"
            | "try_deserialize_unchecked"
            | "try_serialize"
            | "try_from_slice"
            | "deserialize_account_info"
            | "deserialize_instruction_data"
            | "unpack"
            | "pack"
    ) || ((frame == "deserialize" || frame.starts_with("deserialize<"))
        && of_frame(frame) == Some(Category::Entrypoint))
}

/// A stack's category: a syscall's own; else its outermost sealing
/// frame's ([`seals`]); else its innermost frame that a rule names, the
/// frames that wrap every call ([`wraps_the_call`]) only for their own
/// instructions. Its first frame, the program's label (`pack`,
/// `spl_token`), is no function and names nothing.
pub fn of_stack(stack: &[String]) -> Category {
    let stack = match stack {
        [_label, frames @ ..] if !frames.is_empty() => frames,
        _ => stack,
    };
    if let Some(last) = stack.last().filter(|f| f.starts_with("syscall:")) {
        return of_frame(last).unwrap_or(Category::Other);
    }
    if let Some(sealing) = stack.iter().find(|f| seals(f)) {
        return of_frame(sealing).unwrap_or(Category::Other);
    }
    // A frame that wraps the whole call names only its own instructions:
    // code beneath it that no rule names is `other`, not the wrapper's.
    let wrapper = instruction_wrapper(stack);
    let category_at =
        |i: usize| of_frame(&stack[i]).or((Some(i) == wrapper).then_some(Category::Operation));
    let last = stack.len().checked_sub(1).expect("a stack has a frame");
    category_at(last)
        .or_else(|| {
            (0..last)
                .rev()
                .filter(|&i| !wraps_the_call(&stack[i]))
                .find_map(category_at)
        })
        .unwrap_or(Category::Other)
}

/// Where a framework's generated entry calls an instruction's own
/// function (beneath the frames the registry names as its
/// `handler_beneath`: an instruction's wrapper, which line tables alone
/// name by its bare name), the operation, and so is the handler beneath
/// it: that function's place in `stack`.
fn instruction_wrapper(stack: &[String]) -> Option<usize> {
    DECLARED.handler_beneath.iter().find_map(|beneath| {
        stack
            .windows(beneath.len())
            .position(|frames| frames.iter().zip(beneath).all(|(f, b)| base(f) == b))
            .map(|at| at + beneath.len())
            // The wrapper is a plain function; what the dispatch inlines
            // beside the calls (its discriminators' `starts_with<u8>`,
            // `index<u8>`) are generic.
            .filter(|&wrapper| stack.get(wrapper).is_some_and(|f| !f.contains('<')))
    })
}

/// The frames every stack of a framework passes through: the entrypoint
/// and the dispatch (and those the registry names as a framework's
/// `passes_through`).
fn wraps_the_call(frame: &str) -> bool {
    let name = base(frame);
    matches!(
        name,
        "entrypoint"
            | "process_entrypoint"
            | "entry"
            | "lazy_entrypoint"
            | "process_instruction"
            | "process"
            | "dispatch"
    ) || DECLARED.passes_through.iter().any(|p| p == name)
}

/// A pattern of the registry's `symbols`.
enum Pattern {
    /// `name`: that function.
    Name(String),
    /// `name*`: every function whose name starts so.
    Prefix(String),
    /// `name<N>`: that function with a number as its generic.
    Numbered(String),
    /// `*text*`: any frame that holds the text.
    Holds(String),
}

impl Pattern {
    fn parse(pattern: &str) -> Pattern {
        if let Some(text) = pattern.strip_prefix('*').and_then(|p| p.strip_suffix('*')) {
            Pattern::Holds(text.into())
        } else if let Some(prefix) = pattern.strip_suffix('*') {
            Pattern::Prefix(prefix.into())
        } else if let Some(name) = pattern.strip_suffix("<N>") {
            Pattern::Numbered(name.into())
        } else {
            Pattern::Name(pattern.into())
        }
    }

    /// Whether it matches `frame`, whose function name is `name`.
    fn matches(&self, frame: &str, name: &str) -> bool {
        match self {
            Pattern::Name(function) => name == function,
            Pattern::Prefix(prefix) => name.starts_with(prefix.as_str()),
            Pattern::Numbered(name) => frame
                .strip_prefix(name.as_str())
                .and_then(|rest| rest.strip_prefix('<'))
                .and_then(|rest| rest.strip_suffix('>'))
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())),
            Pattern::Holds(text) => frame.contains(text.as_str()),
        }
    }
}

/// What `programs/frameworks.toml` says of the frameworks' code.
struct Declared {
    symbols: Vec<(Pattern, Category)>,
    handler_beneath: Vec<Vec<String>>,
    passes_through: Vec<String>,
}

static DECLARED: LazyLock<Declared> = LazyLock::new(|| {
    let mut declared = Declared {
        symbols: Vec::new(),
        handler_beneath: Vec::new(),
        passes_through: Vec::new(),
    };
    for framework in Framework::registered() {
        let entry = framework.entry();
        for (category, patterns) in &entry.symbols {
            let category = Category::named(category).unwrap_or_else(|| {
                panic!(
                    "programs/frameworks.toml: {}'s symbols name no category `{category}`",
                    framework.name()
                )
            });
            declared
                .symbols
                .extend(patterns.iter().map(|p| (Pattern::parse(p), category)));
        }
        if !entry.handler_beneath.is_empty() {
            declared.handler_beneath.push(entry.handler_beneath.clone());
        }
        declared
            .passes_through
            .extend(entry.passes_through.iter().cloned());
    }
    declared
});

/// The category the registry gives a frame, if it names it.
fn declared(frame: &str) -> Option<Category> {
    let name = base(frame);
    DECLARED
        .symbols
        .iter()
        .find(|(pattern, _)| pattern.matches(frame, name))
        .map(|&(_, category)| category)
}

/// A profile's CUs by category (every category with CUs; the sum is the
/// profile's total).
pub fn of_profile(profile: &Profile) -> BTreeMap<Category, u64> {
    let mut out = BTreeMap::new();
    for (stack, &cus) in &profile.stacks {
        *out.entry(of_stack(stack)).or_default() += cus;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stack(frames: &[&str]) -> Vec<String> {
        frames.iter().map(|f| f.to_string()).collect()
    }

    /// A function's name from DW_AT_name and from a demangled linkage name
    /// alike: generics, impl headers and turbofish dropped.
    #[test]
    fn a_frame_names_its_function_however_it_is_written() {
        for (frame, name) in [
            ("write<solana_account_info::AccountInfo>", "write"),
            (
                "jito_tip_distribution::jito_tip_distribution::claim",
                "claim",
            ),
            (
                "<jito_tip_distribution::state::Config as anchor_lang::AccountSerialize>::try_serialize::<anchor_lang::bpf_writer::BpfWriter<&mut [u8]>>",
                "try_serialize",
            ),
            (
                "<anchor_lang::accounts::account::Account<jito_tip_distribution::state::Config>>::exit_with_expected_owner",
                "exit_with_expected_owner",
            ),
            (
                "core::ptr::drop_glue::<[solana_account_info::AccountInfo]>",
                "drop_glue",
            ),
            (
                "call_once<fn(usize) -> alloc::vec::Vec<common::message::record…",
                "call_once",
            ),
            ("fn@0x2a9f", "fn@0x2a9f"),
        ] {
            assert_eq!(base(frame), name, "{frame}");
        }
        assert_eq!(
            of_frame(
                "<jito_tip_distribution::state::Config as anchor_lang::AccountDeserialize>::try_deserialize"
            ),
            Some(Category::Decode)
        );
        // Hopper's input parser is the entrypoint's.
        for frame in ["deserialize_accounts<254>", "materialize<254>"] {
            assert_eq!(of_frame(frame), Some(Category::Entrypoint), "{frame}");
        }
        // Steel's tag and account checks, and its cast a decode.
        for frame in [
            "parse_instruction<steel_noop::TokenInstruction>",
            "has_owner",
        ] {
            assert_eq!(of_frame(frame), Some(Category::Checks), "{frame}");
        }
        assert_eq!(
            of_frame(
                "<steel_token_account::TokenRecord as steel::AccountDeserialize>::try_from_bytes"
            ),
            Some(Category::Decode)
        );
        // star_frame's unsized record laid over the bytes: a decode.
        for frame in [
            "get_ptr<star_frame_metadata_account::Creator, u32>",
            "get_ptr",
            "try_advance",
        ] {
            assert_eq!(of_frame(frame), Some(Category::Decode), "{frame}");
        }
    }

    /// A copy inside a decode is the decode's; a syscall is its own; the
    /// entrypoint's parser holds its helpers; the innermost named frame
    /// decides elsewhere.
    #[test]
    fn stacks_fall_where_a_reader_expects() {
        let op = [
            "entrypoint",
            "process_instruction",
            "dispatch<X, 160>",
            "read_owner<160, X>",
        ];
        let with = |tail: &[&str]| stack(&[&op[..], tail].concat());
        assert_eq!(
            of_stack(&with(&[
                "decode",
                "deserialize<Account>",
                "copy_nonoverlapping<u8>"
            ])),
            Category::Decode
        );
        // A `Vec<u8>` collected from an iterator, a byte at a time, is a
        // copy; a collect of anything else names nothing.
        assert_eq!(
            of_stack(&with(&[
                "collect<core::iter::adapters::chain::Chain<X>>",
                "from_iter<u8, core::iter::adapters::chain::Chain<X>>",
                "fold<u8, alloc::alloc::Global>",
                "write<u8>"
            ])),
            Category::Copies
        );
        assert_eq!(
            of_stack(&with(&["from_iter<solana_account_info::AccountInfo, X>"])),
            Category::Operation
        );
        assert_eq!(
            of_stack(&with(&["decode", "syscall:sol_memcpy_"])),
            Category::Copies
        );
        assert_eq!(
            of_stack(&with(&["check_owner<Account>", "eq<[u8; 32]>"])),
            Category::Checks
        );
        assert_eq!(of_stack(&with(&[])), Category::Operation);
        assert_eq!(
            of_stack(&stack(&[
                "entrypoint",
                "process_entrypoint<2>",
                "deserialize<2>",
                "write<AccountView>"
            ])),
            Category::Entrypoint
        );
        assert_eq!(
            of_stack(&stack(&["p", "vm:heap frame (64 KiB)"])),
            Category::Entrypoint
        );
        assert_eq!(of_stack(&stack(&["p", "fn@0x40"])), Category::Other);
        assert_eq!(
            of_stack(&stack(&["p", "entrypoint", "dispatch<X>", "fn@0x40"])),
            Category::Other
        );
        assert_eq!(
            of_stack(&stack(&["p", "entrypoint", "dispatch<X>"])),
            Category::Checks
        );
        assert_eq!(of_stack(&stack(&["p", "entrypoint"])), Category::Entrypoint);
        // A program labelled as a rule's word (`pack`) is not that rule's.
        assert_eq!(
            of_stack(&stack(&["pack", "entrypoint", "dispatch<X>"])),
            Category::Checks
        );
        // SPL's Pack: `unpack` and `pack` hold what they call; a native
        // program's handler is the operation, its processor the dispatch.
        let spl = ["spl_token", "entrypoint", "process_instruction", "process"];
        let in_spl = |tail: &[&str]| stack(&[&spl[..], tail].concat());
        assert_eq!(
            of_stack(&in_spl(&[
                "process_transfer",
                "unpack<Account>",
                "unpack_coption_key"
            ])),
            Category::Decode
        );
        assert_eq!(
            of_stack(&in_spl(&[
                "process_transfer",
                "pack<Account>",
                "copy_from_slice<u8>"
            ])),
            Category::Encode
        );
        assert_eq!(
            of_stack(&in_spl(&["process_transfer", "checked_sub<u64>"])),
            Category::Operation
        );
        assert_eq!(of_stack(&in_spl(&[])), Category::Checks);
        assert_eq!(of_stack(&in_spl(&["fn@0x40"])), Category::Other);
    }

    /// An Anchor 1.x program's instruction wrapper as line tables alone
    /// name it (`claim`, not `__private::__global::claim`): beneath
    /// Anchor's `try_entry` and `dispatch`, it and its handler are the
    /// operation; a `dispatch` of another framework's names nothing.
    #[test]
    fn anchors_instruction_wrapper_by_its_place() {
        let anchor = [
            "tip",
            "entrypoint",
            "entry",
            "try_entry",
            "dispatch",
            "claim",
        ];
        let with = |tail: &[&str]| stack(&[&anchor[..], tail].concat());
        assert_eq!(of_stack(&with(&[])), Category::Operation);
        assert_eq!(
            of_stack(&with(&[
                "claim",
                "claim",
                "transfer_lamports",
                "checked_add"
            ])),
            Category::Operation
        );
        // What `dispatch` inlines to find the instruction is not it.
        let dispatch = &anchor[..5];
        assert_eq!(
            of_stack(&stack(&[dispatch, &["starts_with<u8>"]].concat())),
            Category::Other
        );
        // A rule that names a frame beneath it still wins.
        assert_eq!(
            of_stack(&with(&["claim", "syscall:sol_memcpy_"])),
            Category::Copies
        );
        assert_eq!(
            of_stack(&stack(&["p", "entrypoint", "dispatch", "claim"])),
            Category::Other
        );
    }
}
