//! What the page's words mean, said once: the length shapes (which the
//! token summary states with the same words), the floor, the ratios and
//! the baseline's change. The page shows it above its charts.

/// The token family's length shapes: what the program checks before the
/// crate sees the account, and what the crate gets.
pub const SHAPES: [(&str, &str); 3] = [
    (
        "exact",
        "the program checks `len == 160` (a varint format: its account bytes) and the crate gets a `[u8; 160]`",
    ),
    (
        "at_least",
        "the program checks `len >= 160` and the crate gets the whole slice",
    ),
    (
        "unchecked",
        "no length check; the crate's own API refuses short data",
    ),
];

/// The legend as markdown: one item a term.
pub fn markdown() -> String {
    let shapes: Vec<String> = SHAPES
        .iter()
        .map(|(shape, meaning)| format!("`{shape}`: {meaning}"))
        .collect();
    [
        "**Lower is better.** Every figure is what one call costs on-chain, in compute units \
         (CUs), unless its column or title says bytes; the same inputs give the same CUs on \
         every run."
            .to_string(),
        format!("**Shapes** (the token family): {}.", shapes.join("; ")),
        "**Floor**, **CUs above the floor**: a program with the same entrypoint, dispatch and \
         account checks that decodes nothing (pinocchio's `at_least` floor, each framework's \
         no-op, `make idl`'s `floor`); what a row costs above it is what its crate and its code \
         add."
            .to_string(),
        "**x the cheapest**: a row's CUs divided by the cheapest entry's for the same \
         operation (1.0x is the cheapest)."
            .to_string(),
        "**change vs baseline**: this run's CUs minus the same row's in the committed \
         `benches/baseline.json` (`make bench-check` fails on any); empty where the baseline \
         has no such row."
            .to_string(),
        "**Compare** (the records table): pick two crates or formats and each row shows the \
         first's CUs divided by the second's, on the same data."
            .to_string(),
    ]
    .iter()
    .map(|item| format!("- {item}\n"))
    .collect()
}
