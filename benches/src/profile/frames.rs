//! A profile's frames as two profiles are set side by side: how a profile
//! names its code ([`NamedBy`]), and each frame's name (`caller → frame`,
//! generics dropped) with its self CUs, the key the comparison
//! ([`crate::compare`]) and the page's compare mode both use.

use std::collections::BTreeMap;

use super::{Profile, categories::function_name};

/// How a profile names its code, as far as setting two profiles' frames
/// side by side goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NamedBy {
    /// By inlined frame, from DWARF.
    Dwarf,
    /// By function, from a symbol table.
    Symbols,
    /// By address (`fn@0x…`), which moves from build to build.
    Addresses,
}

impl NamedBy {
    /// Its name in a `results.json`: `dwarf`, `symbols` or `addresses`.
    pub fn kind(self) -> &'static str {
        match self {
            NamedBy::Dwarf => "dwarf",
            NamedBy::Symbols => "symbols",
            NamedBy::Addresses => "addresses",
        }
    }
}

/// A stack's innermost frame as a comparison names it: `caller → frame`,
/// generics dropped.
pub fn frame_name(stack: &[String]) -> String {
    match stack {
        [] => String::new(),
        [only] => function_name(only).to_string(),
        [.., caller, leaf] => format!("{} → {}", function_name(caller), function_name(leaf)),
    }
}

/// A profile's self CUs by frame as a comparison keys them (`caller →
/// frame`, generics dropped), each frame's summed over its categories:
/// what `results.json` gives each record, so that the page sets two
/// records' frames side by side as `make profile BASE=` and `make
/// bench-diff` set two builds'.
pub fn self_cus_by_frame(profile: &Profile) -> BTreeMap<String, u64> {
    let mut frames = BTreeMap::new();
    for (stack, &cus) in &profile.stacks {
        if cus > 0 {
            *frames.entry(frame_name(stack)).or_default() += cus;
        }
    }
    frames
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A record's frames are keyed as two builds' are: `caller → frame`,
    /// generics dropped, so two instantiations are one frame.
    #[test]
    fn a_records_frames_are_keyed_as_a_comparison_keys_them() {
        let stacks: [(&[&str], u64); 4] = [
            (&["p", "decode", "read<u8>"], 3),
            (&["p", "decode", "read<u16>"], 1),
            (&["p", "decode", "check"], 2),
            (&["p", "entrypoint"], 5),
        ];
        let p = Profile {
            stacks: stacks
                .iter()
                .map(|(frames, cus)| (frames.iter().map(|f| f.to_string()).collect(), *cus))
                .collect(),
        };
        let frames = self_cus_by_frame(&p);
        assert_eq!(
            frames,
            BTreeMap::from([
                ("decode → read".to_string(), 4),
                ("decode → check".to_string(), 2),
                ("p → entrypoint".to_string(), 5),
            ])
        );
        assert_eq!(frames.values().sum::<u64>(), p.total());
    }
}
