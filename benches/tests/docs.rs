//! What the README and the docs say is this tree's: every marked figure and
//! block is the run's (`report::docs`), the README's answer is on its first
//! screen, every link resolves, and no product text tells the project's
//! history (that is git log's).

use std::fs;

use benches::{Workspace, bench, report::docs};

#[test]
fn every_marked_figure_and_block_is_this_runs() {
    // The run's reports go to a scratch folder: this checkout's stay the
    // user's.
    let scratch = tempfile::tempdir().unwrap();
    let workspace = Workspace::current().with_benches_dir(scratch.path());
    let run = bench::run(&workspace).unwrap_or_else(|e| panic!("{e}"));
    let differs = benches::committed::doc_blocks(&workspace.root)
        .and_then(|committed| docs::update(&workspace.root, &run, committed, false))
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        differs.is_empty(),
        "figures in the docs differ from this tree's run; run `make docs` and commit the result:\n  {}",
        differs.join("\n  ")
    );
}

#[test]
fn the_readme_answers_on_its_first_screen() {
    let root = Workspace::current().root;
    let readme = fs::read_to_string(root.join("README.md")).unwrap();
    let blocks = docs::find_blocks(&readme).unwrap();
    let answer = blocks
        .iter()
        .find(|b| b.key == "answer")
        .expect("README.md has the `answer` block");
    // The block ends on the first screen (about 60 lines).
    let end_line = readme[..answer.body.end].lines().count();
    assert!(end_line <= 60, "the answer ends on line {end_line}");
    let lines = readme.lines().count();
    assert!(
        lines <= 130,
        "README.md is {lines} lines; the front door is about 120"
    );
}

#[test]
fn every_relative_link_resolves() {
    let root = Workspace::current().root;
    let mut broken = Vec::new();
    for path in docs::files(&root).unwrap() {
        let text = fs::read_to_string(&path).unwrap();
        let dir = path.parent().unwrap();
        for (at, _) in text.match_indices("](") {
            let rest = &text[at + 2..];
            let Some(end) = rest.find(')') else { continue };
            let target = rest[..end].split('#').next().unwrap();
            if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            if !dir.join(target).exists() {
                broken.push(format!("{}: {target}", path.display()));
            }
        }
    }
    assert!(
        broken.is_empty(),
        "links to nothing:\n  {}",
        broken.join("\n  ")
    );
}

/// `issue 28`, `since issue`, `until issue`, in any case.
fn tells_history(line: &str) -> bool {
    let line = line.to_ascii_lowercase();
    line.contains("since issue")
        || line.contains("until issue")
        || line
            .match_indices("issue ")
            .any(|(at, m)| line[at + m.len()..].starts_with(|c: char| c.is_ascii_digit()))
}

/// A path outside the repository: the specs the project was built from
/// (the docs are its contract now) and the files beside the checkout.
fn names_outside_file(line: &str) -> bool {
    let line = line.to_ascii_lowercase();
    ["../shared/", "shared/specs/", "shared/toolchain.md"]
        .iter()
        .any(|outside| line.contains(outside))
}

/// The code's comments, like the docs, tell no history and name no file
/// outside the repository (the specs it was built from are the docs).
#[test]
fn code_tells_no_history_and_names_no_outside_file() {
    let root = Workspace::current().root;
    let files = std::process::Command::new("git")
        .args([
            "ls-files", "*.rs", "*.sh", "*.js", "*.toml", "*.patch", "Makefile",
        ])
        .current_dir(&root)
        .output()
        .unwrap();
    let mut found = Vec::new();
    for file in String::from_utf8(files.stdout).unwrap().lines() {
        // This file spells the patterns out.
        if file == "benches/tests/docs.rs" {
            continue;
        }
        let text = fs::read_to_string(root.join(file)).unwrap();
        for (n, line) in text.lines().enumerate() {
            if tells_history(line) || names_outside_file(line) {
                found.push(format!("{file}:{}: {line}", n + 1));
            }
        }
    }
    assert!(
        found.is_empty(),
        "history or files outside the repository in the code:\n  {}",
        found.join("\n  ")
    );
}

#[test]
fn product_text_tells_no_history_and_names_no_outside_file() {
    let root = Workspace::current().root;
    let mut found = Vec::new();
    for path in docs::files(&root).unwrap() {
        let text = fs::read_to_string(&path).unwrap();
        for (n, line) in text.lines().enumerate() {
            if tells_history(line) || names_outside_file(line) {
                found.push(format!("{}:{}: {line}", path.display(), n + 1));
            }
        }
    }
    assert!(
        found.is_empty(),
        "history (git log has it) or a file outside the repository in product text:\n  {}",
        found.join("\n  ")
    );
}

/// `docs/architecture.md`'s tree: every folder it lists exists, and every
/// folder git tracks to three levels is listed (the families' program
/// folders, `programs/<family>/<crate>/`, by their family's line).
#[test]
fn the_architecture_tree_is_the_repositorys() {
    let root = Workspace::current().root;
    let doc = fs::read_to_string(root.join("docs/architecture.md")).unwrap();
    let tree = doc
        .split("```text\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("docs/architecture.md has a ```text tree");
    let listed: Vec<&str> = tree
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    let missing: Vec<&&str> = listed.iter().filter(|p| !root.join(p).is_dir()).collect();
    assert!(missing.is_empty(), "listed but not folders: {missing:?}");
    let files = std::process::Command::new("git")
        .args(["ls-files"])
        .current_dir(&root)
        .output()
        .unwrap();
    let files = String::from_utf8(files.stdout).unwrap();
    let mut unlisted = std::collections::BTreeSet::new();
    for file in files.lines() {
        let parts: Vec<&str> = file.split('/').collect();
        for depth in 1..parts.len().min(4) {
            let dir = parts[..depth].join("/") + "/";
            let family_program = parts[0] == "programs"
                && depth == 3
                && ["token", "message", "metadata", "stack"].contains(&parts[1]);
            if !family_program && !listed.contains(&dir.as_str()) {
                unlisted.insert(dir);
            }
        }
    }
    assert!(
        unlisted.is_empty(),
        "folders docs/architecture.md does not list: {unlisted:?}"
    );
}

/// The numbers the documents state that are not the run's: per
/// document, each number as written and words of its line.
const FACTS: &[(&str, &[(&str, &str)])] = &[
    // The families' own sizes: the token record's 160 bytes and the
    // message family's largest instance, what the programs are built for.
    (
        "README.md",
        &[
            ("160", "a fixed 160-byte account"),
            ("160", "checks the length is 160"),
            ("10", "message up to 10 KB"),
        ],
    ),
    (
        "docs/adding-a-crate.md",
        &[("160", "not the 160 raw bytes")],
    ),
    // What a fresh machine needs: the disk, as cargo leaves it.
    ("README.md", &[("10", "about 10 GB of disk")]),
    (
        "docs/usage.md",
        &[
            ("10", "packages, and about 10"),
            ("8", "holds about 8 after"),
        ],
    ),
    // Limits the tests set: the page's size and the browser's window.
    (
        "docs/report.md",
        &[
            ("3", "3 MB)."),
            ("3", "the page is under 3 MB"),
            ("1,400", "1,400-pixel window"),
        ],
    ),
    (
        "docs/profile.md",
        &[("10%", "within 10% of what 1.0 added")],
    ),
    // `make profile SO=`'s exit status, and `BASE=`'s (make's own on a
    // failed recipe); the known answer's margin against the release matrix.
    (
        "docs/profile.md",
        &[
            ("1", "the command exits 1"),
            // The installed command's first build, measured once with
            // cargo install from an empty target folder (no run writes it).
            ("6", "took 6 min 38 s here"),
            ("38", "took 6 min 38 s here"),
            ("2", "(2 cores, other work running"),
            ("7", "7 min 38 s of CPU"),
            ("38", "7 min 38 s of CPU"),
            ("10%", "change within 10% of the release matrix"),
        ],
    ),
    // The runtime's and the programs' memory: the default heap frame, the
    // message family's, and two copies' sizes told apart.
    (
        "docs/profile.md",
        &[
            ("32", "heap frame past 32 KiB"),
            ("64", "the message family's 64 KiB"),
            ("1", "of 1 KiB and"),
            ("8", "one of 8 bytes"),
        ],
    ),
    // The Anchor programs' layout: the 8-byte discriminator before the
    // 160-byte record (168 bytes; a read accepts one short of it), and the
    // metadata instance whose uri the test shortens by 17 bytes.
    (
        "docs/framework-contracts.md",
        &[
            ("8", "under 8 bytes"),
            ("167", "167-byte record"),
            ("8", "back from byte 8"),
            ("17", "17 bytes, leaves the old last 17"),
            ("17", "leaves the old last 17 bytes"),
            ("8", "instruction's first 8"),
            ("168", "the record (168"),
            ("8", "discriminator's 8 bytes"),
            ("8", "an 8-byte account discriminator"),
            ("8", "an 8-byte discriminator, then the arguments"),
            ("168", "than 168 bytes"),
            ("160", "160 bytes where"),
            ("5", "is 5, aborts"),
        ],
    ),
    // What the tests run and require: hostile calls a program, no fault,
    // the allocation's margin, the offsets' doubling.
    (
        "docs/framework-contracts.md",
        &[
            ("1,000", "some of the 1,000"),
            ("1,000", "and 1,000 hostile"),
            ("0", "byte for byte): 0 faults"),
            ("2,000", "2,000 hostile inputs"),
            ("0", "with 0 faults"),
            ("2", "Within 2 KiB under the heap"),
            ("2", "about 2^*n* times"),
            ("32", "solana-program's 32 KiB heap"),
            // borsh's preallocation for a `String` (its source) and the heap.
            ("1", "preallocate up to 1 MiB before it reads"),
            ("32", "the 32 KiB heap aborts the program"),
        ],
    ),
    // The runtime's budget and the compute budget program's cost, the
    // message family's sizes, borsh's and the backend's constants, a slot.
    (
        "docs/replay.md",
        &[
            ("1,400,000", "of 1,400,000 first"),
            ("1,400,000", "a of 1,400,000. The"),
            ("200,000", "the default 200,000"),
            ("0", "0 CUs for a one-instruction"),
            ("300", "300 with the two"),
            ("150", "(150 each"),
            ("5400", "every operation at 5400 bytes"),
            ("5400", "every operation at 5400"),
            ("3232", "the 3232-byte instance"),
            ("8", "a store 8 bytes above"),
            ("4", "at most 4 KiB per"),
            ("4", "4 KiB). The other"),
            ("428,976,000", "slot 428,976,000"),
        ],
    ),
    // anchor-lang's buffers for an event.
    (
        "docs/anchor-releases.md",
        &[
            ("1,024", "(1,024 bytes"),
            ("256", "room for 256 bytes"),
            ("256", "outgrows 256 bytes"),
        ],
    ),
    // The compiler's and the builtins' own facts: where a copy becomes a
    // syscall, the alignments of `u128`, the integer width, the size of
    // the std patch.
    (
        "docs/toolchain.md",
        &[
            ("40", "inline below ~40 bytes"),
            ("40", "about 40 lines"),
            ("16", "align to 16 here"),
            ("8", "and to 8 there"),
            ("8", "offset that is 8 mod 16"),
            ("16", "8 mod 16 has"),
            ("128", "its 128-bit builtins"),
        ],
    ),
    // The frameworks: the runtime's charges (a log syscall, a CPI), the
    // heap frame, Anchor's and typhoon's layouts and constants, the
    // tests' hostile calls and tolerances, a claim quoted from Anchor 2.
    (
        "docs/frameworks.md",
        &[
            ("32", "bump allocator (32 KiB"),
            // star_frame's `set` per byte of a uri, and Hopper's: held by
            // `star_frame::metadata_set_uri_costs_16_cus_a_byte`.
            ("16", "about 16 CUs a byte of the uri"),
            ("1", "against under 1 CU a"),
            // borsh's preallocation for a `String` (its source) and the heap.
            ("1", "up to 1 MiB, which past the 32 KiB heap"),
            ("32", "up to 1 MiB, which past the 32 KiB heap"),
            ("10%", "within 10%"),
            ("1,000", "and 1,000 hostile calls a program"),
            ("32", "the whole 32 KiB frame"),
            ("160", "the family's 160 bytes"),
            ("2", "x 2 | none: Anchor 1.x's floor"),
            ("100", "a syscall, about 100 CUs"),
            ("32", "each 32-byte key"),
            ("10%", "within 10% of what 1.0 added"),
            ("160", "the family's 160-byte layout"),
            ("160", "the same 160 bytes"),
            ("2", "x 2 | none: the token family's"),
            ("100", "syscall: 100 CUs and the rest"),
            ("256", "a lookup array of 256"),
            ("2", "2 KiB of the frame"),
            ("8", "the 8-byte account discriminator on every load"),
            ("32", "compares 32 bytes"),
            ("256", "with room for 256 bytes"),
            ("3", "\"3-10x cheaper"),
            ("10x", "3-10x cheaper than borsh"),
            ("160", "160 bytes copied"),
            ("100", "the instruction-name log's 100"),
            ("100", "the event's log 100"),
            ("1,000", "the CPI's 1,000"),
            ("20", "within 20 CUs"),
            ("40", "within 40 CUs"),
            ("1,000", "and on 1,000"),
            ("0", "with 0 faults"),
            ("8", "typhoon's 8-byte account discriminator"),
            // Hopper's own published table (hopper-lang 0.5.0's
            // bench/framework-comparison/results/RESULTS.txt), quoted.
            ("111", "pinocchio costs 111 CUs"),
            ("127", "macro framework 127, so the"),
            ("16", "framework adds 16; here"),
            ("127", "(rc.1) at 127 too"),
            ("4", "(the first 4"),
            ("1", "the layout version 1"),
            // typhoon's published benchmark (exotic-markets-labs/typhoon's
            // benches/BENCHMARK.md at 007e80d), quoted.
            ("007", "commit 007e80d: each program built"),
            ("11", "costs 11 CUs"),
            ("99", "costs 99, 101 and 104"),
            ("101", "costs 99, 101 and 104"),
            ("104", "costs 99, 101 and 104"),
            ("323", "323 CUs in pinocchio, 292"),
            ("292", "323 CUs in pinocchio, 292"),
            ("356", "in typhoon and 356 in star_frame"),
        ],
    ),
    // The metadata record's bounds and instances, its operations' bytes,
    // the layouts' widths, a quoted claim, UTF-8's block.
    (
        "docs/metadata.md",
        &[
            ("32", "at most 32 bytes of UTF-8"),
            ("10", "(10),"),
            ("200", "(200),"),
            ("0", "| 0 |"),
            ("1", "| 1 |"),
            ("2", "| 2 |"),
            ("3", "| 3 |"),
            ("4", "| 4 |"),
            ("200", "at most 200 bytes"),
            ("22", "a 22-byte name"),
            ("4", "a 4-byte symbol"),
            ("88", "88-byte https uri"),
            ("17", "a uri 17 bytes longer"),
            ("17", "17 bytes shorter"),
            ("2", "bincode 2, fixed-width"),
            ("8", "length first (8 bytes"),
            ("8", "8-byte aligned"),
            ("1", "alignment 1"),
            ("0", "a count of 0"),
            ("3", "\"3-10x\" for its wincode"),
            ("10x", "3-10x\" for its wincode"),
            ("4", "4-byte lengths"),
            ("1", "where it spends 1"),
            ("114", "114 to 242 bytes of strings"),
            ("242", "to 242 bytes of strings"),
            ("16", "a 16-byte block"),
            ("77", "77-byte new uri"),
            ("105", "105 bytes"),
            ("128", "128-bit builtins"),
        ],
    ),
    // The token record's layout and its encodings' bounds (the varint
    // encodings' largest and smallest), serde's byte arrays as postcard's
    // disassembly shows them.
    (
        "docs/token.md",
        &[
            ("2", "fewer than 2"),
            ("160", "length is 160 bytes"),
            ("166", "the encoding's largest (166"),
            ("163", "163 for bincode's tagged varints"),
            ("136", "136 bytes of"),
            ("160", "archived is the same 160 bytes"),
            ("160", "here the same 160 bytes"),
            ("160", "exactly 160 bytes"),
            ("32", "a tuple of 32"),
            ("6", "6 instructions a byte"),
            ("136", "the 136 bytes of byte fields"),
            ("2", "above 2^32"),
            ("139", "139 bytes at the least"),
            ("160", "zero-copy over the same 160 bytes"),
            ("2", "bincode 2"),
            ("128", "128-bit builtins"),
            ("160", "160-byte account"),
            ("139", "encodings 139-166"),
            ("166", "139-166 bytes"),
        ],
    ),
    // The message family: its operations' bytes, its nominal sizes (the
    // instances are named by them: empty words, any line), the generator's
    // bounds, the heap frames the runtime and the harness set, the crates'
    // limits, a view's size, a varint's width.
    (
        "docs/message.md",
        &[
            ("160", ""),
            ("904", ""),
            ("3232", ""),
            ("5400", ""),
            ("7448", ""),
            ("10136", ""),
            ("0", "| 0 |"),
            ("1", "| 1 |"),
            ("2", "| 2 |"),
            ("3", "| 3 |"),
            ("4", "| 4 |"),
            ("255", "255 keys already"),
            ("2", "fewer than 2"),
            ("3%", "within 3% of each"),
            ("32", "random 32-byte values"),
            ("2", "hold 2-8"),
            ("8", "hold 2-8"),
            ("8", "8-64 bytes of data"),
            ("64", "8-64 bytes of data"),
            ("8", "an 8-byte discriminator"),
            ("10", "below 10^9"),
            ("32", "claims limited to 32 KiB"),
            ("16", "capped at 16 KiB"),
            ("8", "a table of 8-byte entries"),
            ("64", "a 64 KiB heap frame"),
            ("8", "fixed 8-byte prefixes"),
            ("4", "default limit (4 MiB)"),
            ("64", "bounded by the 64 KiB frame"),
            ("64", "between 64 and 256"),
            ("256", "between 64 and 256"),
            ("56", "a view is 56 bytes"),
            ("3", "a 3 KB account"),
            ("2,000", "2,000 instructions asks"),
            ("112", "asks for 112 KB"),
            ("64", "of the 64 KiB frame and"),
            ("10", "the 10 KB instance"),
            ("9", "at 9 bytes an"),
            ("127", "(127 -> 128)"),
            ("128", "(127 -> 128)"),
            ("128", "128-bit builtins"),
            ("32", "32 KiB heap (its"),
            ("64", "runs with a 64 KiB heap frame, set as"),
            ("8", "8 CUs in every message"),
            ("8", "would move by 8 otherwise"),
            ("32", "32 KiB;"),
            ("64", "64 KiB; the harness"),
            ("256", "(256 KiB)"),
        ],
    ),
    // What the tests feed the programs and require of them, set in their
    // code: lengths, op bytes, counts, offsets and the known answers' sizes
    // (the published layouts' among them), and the README's length limit.
    (
        "docs/tests.md",
        &[
            ("0", "data lengths 0, 1"),
            ("1", "data lengths 0, 1"),
            ("1", "and 1, 40 and 864"),
            ("40", "1, 40 and 864"),
            ("864", "40 and 864 bytes"),
            ("3", "from 3 to 255"),
            ("255", "from 3 to 255"),
            ("2,000", "2,000 random and hostile inputs"),
            (
                "2,000",
                "and 2,000 hostile inputs, every write read back with",
            ),
            ("1", "1 MiB aborts the program, as the oracle says"),
            ("0", "length 0..=512"),
            ("512", "length 0..=512"),
            ("40", "up to 40 more"),
            ("0", "account count 0..=3"),
            ("3", "account count 0..=3"),
            ("160", "the same 160 bytes"),
            ("255", "a 255-key"),
            ("128", "at 128 keys"),
            ("2,000", "2,000 hostile encodings per program (above)"),
            ("2,000", "2,000 hostile encodings per program with"),
            ("1,000", "1,000 hostile calls a program, the"),
            ("100", "a store 100 bytes"),
            ("1,050", "spanning 1,050"),
            ("8", "exactly 8 + 16 x 160"),
            ("16", "8 + 16 x 160"),
            ("160", "16 x 160 heap bytes"),
            ("8", "8 + 104"),
            ("104", "8 + 104"),
            ("8", "at 8 + 64"),
            ("64", "at 8 + 64"),
            ("7", "7 bytes of data"),
            ("2,000", "2,000 hostile inputs per program (the floor"),
            ("1,000", "1,000 hostile calls per program"),
            ("7", "one account, 7 bytes, another"),
            ("31", "a 31-byte"),
            ("1,000", "and 1,000 hostile calls a program,"),
            ("7", "one account, 7 bytes, another"),
            ("2,000", "program); 2,000"),
            ("20", "within 20 (token)"),
            ("10%", "and 10% (metadata)"),
            ("33", "a 33-byte array"),
            ("10", "over 10 MiB"),
            ("82", "(82, 165 and"),
            ("165", "(82, 165 and"),
            ("355", "355 bytes, both instances"),
            ("80", "account (80 bytes)"),
            ("1", "is bincode 1 of"),
            ("2,000", "runs 2,000 hostile cases"),
            ("1", "(1 to 8 bytes wide)"),
            ("8", "(1 to 8 bytes wide)"),
            ("256", "past the 256 KiB"),
            ("1", "at 1 to 16 bytes an"),
            ("16", "at 1 to 16 bytes an"),
            ("64", "claims of 64-256 KiB"),
            ("256", "claims of 64-256 KiB"),
            ("130", "passes 130 lines"),
        ],
    ),
    // The runtime's limits (the stack frame, the call depth, the heap
    // frame, the compute budget, an account's size), the message family's
    // nominal sizes and bound, borsh's capacity hint, the sweep's sizes N
    // (its columns) and the heap its test requires.
    (
        "docs/stack-and-heap.md",
        &[
            ("4,096", "4,096-byte stack frame"),
            ("64", "(64 frames deep)"),
            ("32", "(32 KiB by"),
            ("1", "1 for the entrypoint alone"),
            ("10136", "(10136 bytes), :"),
            ("10136", "the 10136-byte message"),
            ("32", "past the default 32 KiB"),
            ("64", "a 64 KiB heap frame"),
            ("4", "at most 4 KiB of elements"),
            ("32", "passes 32 KiB from 7448"),
            ("7448", "from 7448 bytes"),
            ("10136", "at 10136)."),
            ("32", "Every case over 32 KiB"),
            ("4,096", "of a 4,096-byte frame"),
            ("64", "most of 64"),
            ("160", "(160 bytes each"),
            ("1", "N = 1, 8, 16, 24, 32"),
            ("8", "N = 1, 8, 16, 24, 32"),
            ("16", "N = 1, 8, 16, 24, 32"),
            ("24", "N = 1, 8, 16, 24, 32"),
            ("32", "N = 1, 8, 16, 24, 32"),
            ("160", "32 (160 bytes"),
            ("5", "to 5 KB)"),
            ("1", "add 1 to the last"),
            ("4,096", "passes 4,096 bytes"),
            ("16", "at N = 16"),
            ("8", "at N = 8"),
            ("16", "refused at 16 accounts"),
            ("8", "needs**: 8 + 160 x"),
            ("160", "needs**: 8 + 160 x"),
            ("8", "the heap's first 8 bytes"),
            ("200,000", "default 200,000"),
            ("1,400,000", "maximum 1,400,000"),
            ("32", "the default 32 KiB frame"),
            ("10136", "measured size (10136 bytes)"),
            ("255", "at most 255 keys"),
            ("10", "past 10 MiB"),
        ],
    ),
    // The token record's size, zstd's levels, the report's constants (its
    // messages per bucket, its link speeds), rkyv's pointer width.
    (
        "docs/wire.md",
        &[
            ("160", "160-byte"),
            ("0", "level 0, which"),
            ("3", "default 3, then"),
            ("100", "size, 100 seeded"),
            ("100", "and 100 of random"),
            ("10", "at 10, 100"),
            ("100", "at 10, 100"),
            ("1000", "or 1000 Mbit/s"),
            ("4", "4-byte relative"),
            ("1", "at 1 Gbit/s not"),
            ("100", "at 100 Mbit/s it is"),
            ("1", "at 1 Gbit/s it"),
        ],
    ),
    // What `make idl` reads and writes: the formats' widths and tags,
    // Anchor's discriminators and error codes, the layouts' alignments,
    // the generated instances' shapes, the tests' tolerances and counts,
    // the limits it refuses past (the runtime's stack and heap, its own
    // size bound), an example message, the published accounts' deployed
    // sizes its layouts must give, and its exit statuses.
    (
        "docs/idl-reference.md",
        &[
            ("8", "the first 8 bytes of sha256"),
            ("0", "starts at byte 0"),
            ("8", "aligned to 8), or no padding"),
            ("16", "to 16, so a naive"),
            ("904", "904, 10,136, 8,120"),
            ("10,136", "904, 10,136, 8,120"),
            ("8,120", "904, 10,136, 8,120"),
            ("1,544", "1,544, 10,240, 4,483"),
            ("10,240", "1,544, 10,240, 4,483"),
            ("4,483", "1,544, 10,240, 4,483"),
            ("117", "117 (borsh)"),
            ("24", "strings of 24 bytes"),
            ("4", "lists of 4"),
            ("2", "a bool that is 2"),
            ("1", "1 to 3 bytes"),
            ("3", "1 to 3 bytes"),
            ("7", "7 bits each"),
            ("1", "1 byte, 0 or 1"),
            ("0", "1 byte, 0 or 1"),
            ("1", "1 byte, 0 or 1"),
            ("32", "| 32 bytes |"),
            ("0", "A at offset 0 takes"),
            ("1", "address lookup table's 1"),
            ("0", "A at offset 0"),
            ("82", "(82 bytes)"),
            ("165", "(165) and (355)"),
            ("355", "(165) and (355)"),
            ("32", "32 bytes after it"),
            ("80", "nonce account (80 bytes)"),
            ("1", "what bincode 1 writes"),
            ("300", "300 = "),
            ("4,096", "past 4,096 bytes) or"),
            ("32", "the 32 KiB heap"),
            ("1", "1 KiB of stack"),
            ("3005", "(3005), data no handler"),
            ("101", "(101), a short argument"),
            ("102", "a short argument (102)"),
            ("2000", "read-only account (2000)"),
            ("3007", "(3007), data shorter"),
            ("3001", "(3001), another"),
            ("3002", "(3002), a record"),
            ("3003", "(3003). The hostile"),
            ("16", "but for 16-byte ones"),
            ("16", "aligns to 16 where"),
            ("8", "aligns them to 8"),
            ("12%", "within 12% of"),
            ("3005", "no account (3005)"),
            ("101", "(101), arguments"),
            ("102", "invalid byte (102)"),
            ("2000", "account (2000), the event"),
            ("2002", "(2002). The hostile"),
            ("3003", "(3003); the checks"),
            ("8", "(Anchor's 8 bytes"),
            ("200", "runs 200 cases"),
            ("4", "4 KiB, the linker"),
            ("256", "and 256 bytes"),
            ("200", "200 hostile cases per program"),
            ("200", "and 200 cases of the project's"),
            ("20", "20 (token) and 10%"),
            ("10%", "and 10% (metadata)"),
            ("10", "more than 10 MiB"),
            ("2", "2^40 items"),
            ("4", "arguments of 4 KiB"),
            ("4,096", "past 4,096 (in"),
            ("8,200", "arguments are 8,200"),
            ("2", "exits 2, as"),
            ("1", "exits 1."),
            ("3,000", "draws 3,000 IDLs"),
            ("4", "4 KiB scratch buffer"),
            ("4,096", "past 4,096 (in"),
            ("0", "offsets 0 and 1"),
            ("1", "offsets 0 and 1"),
        ],
    ),
    // Exit statuses; and `ACCOUNTS=`'s definitions: the percentile it
    // gives, and the largest count a one-byte length holds (`u8::MAX`).
    (
        "docs/idl.md",
        &[
            ("1", "exits 1;"),
            ("0", "exits 0."),
            ("2", "exits 2."),
            ("99", "the 99th percentile"),
            ("255", "one byte up to 255"),
        ],
    ),
];

/// Figures of `make idl` runs, which no mark holds, are the findings'
/// alone: every other document's figures are `make bench`'s.
#[test]
fn idl_run_figures_are_only_in_the_findings() {
    let root = Workspace::current().root;
    let (open, _) = benches::report::prose::IDL_RUNS;
    let elsewhere: Vec<_> = docs::files(&root)
        .unwrap()
        .into_iter()
        .filter(|path| !path.ends_with("docs/idl-findings.md"))
        .filter(|path| fs::read_to_string(path).unwrap().contains(open))
        .collect();
    assert!(
        elsewhere.is_empty(),
        "`{open}` outside docs/idl-findings.md: {elsewhere:?}"
    );
    let findings = fs::read_to_string(root.join("docs/idl-findings.md")).unwrap();
    assert!(
        findings.contains(open),
        "docs/idl-findings.md holds its figures in `{open}`"
    );
}

/// No figure in the prose of the README and the docs comes from a run unless the
/// run writes it: a number that is neither a mark, nor in a block, nor a
/// fact listed above fails here, and so does a fact no longer stated.
#[test]
fn prose_numbers_are_marks_or_known_facts() {
    let root = Workspace::current().root;
    let mut unknown = Vec::new();
    let facts: Vec<(&str, &str, &str)> = FACTS
        .iter()
        .flat_map(|(file, facts)| facts.iter().map(move |(n, words)| (*file, *n, *words)))
        .collect();
    let mut used = vec![false; facts.len()];
    // Every document: the README and each of docs/.
    for path in docs::files(&root).unwrap() {
        let name = path.strip_prefix(&root).unwrap().display().to_string();
        let file = name.as_str();
        let text = fs::read_to_string(&path).unwrap();
        for number in benches::report::prose::numbers(&text) {
            let states = |(f, written, words): &(&str, &str, &str)| {
                *f == file && *written == number.written && number.context.contains(words)
            };
            // A fact stated twice on a line is listed twice: an unused
            // entry first.
            let fact = (0..facts.len())
                .find(|&i| !used[i] && states(&facts[i]))
                .or_else(|| facts.iter().position(states));
            match fact {
                Some(i) => used[i] = true,
                None => unknown.push(format!(
                    "{file}:{}: {} in \"{}\"",
                    number.line, number.written, number.context
                )),
            }
        }
    }
    assert!(
        unknown.is_empty(),
        "numbers in prose that no run writes: make each a mark (docs/tests.md), take it out, \
         or list it in FACTS with why it is no run's:\n  {}",
        unknown.join("\n  ")
    );
    let stale: Vec<_> = facts
        .iter()
        .zip(used)
        .filter(|(_, used)| !used)
        .map(|(fact, _)| fact)
        .collect();
    assert!(stale.is_empty(), "facts no held document states: {stale:?}");
}
