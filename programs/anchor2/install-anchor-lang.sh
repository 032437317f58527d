#!/usr/bin/env bash
# Installs anchor-lang 2.0.0-rc.2 for this route into $1 (make setup passes
# programs/anchor2/.anchor-lang, inside the workspace: cargo hashes a path
# dependency's path into its crates' metadata, relative to the workspace
# root where it lies under it and absolute elsewhere, so a copy outside
# would give every checkout other program bytes): the crate exactly as
# crates.io publishes it (checksum pinned), then five edits that let it build for
# bpfel-unknown-none without std (../../docs/frameworks.md, "Anchor 2 on
# this route"). Each edit is checked; nothing of Anchor's is kept here.
#
#   programs/anchor2/install-anchor-lang.sh <install dir>
set -euo pipefail

version=2.0.0-rc.2
sha256=356811863224722c5eff648869b67ea8d769b0da8c4924cc38cc242ced617e38
dest=$1
url=https://static.crates.io/crates/anchor-lang/anchor-lang-$version.crate

fail() { echo "anchor-lang $version: $*" >&2; exit 1; }

# Already installed by this script, at this version: nothing to do.
[[ $(cat "$dest/.installed" 2>/dev/null) == "$version $sha256" ]] && exit 0

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
curl -sSfL -o "$work/crate.tar.gz" "$url" || fail "could not download $url; check the network"
echo "$sha256  $work/crate.tar.gz" | sha256sum -c --quiet - || fail "the download's sha256 is not $sha256"
tar -xzf "$work/crate.tar.gz" -C "$work"
src=$work/anchor-lang-$version
manifest=$src/Cargo.toml

# $1: what the edit is for; $2: a file; $3: a sed script; $4: a line that must be there after.
edit() {
	sed -i -e "$3" "$2"
	grep -qF -- "$4" "$2" || fail "edit '$1' did not apply to $(basename "$2")"
}
# solana-system-interface's `bincode` feature pulls serde with std; `alloc` is what Anchor uses.
edit "system-interface without bincode" "$manifest" \
	'/^\[dependencies.solana-system-interface\]/,/^$/s/^features = \["bincode"\]$/features = ["alloc"]\ndefault-features = false/' \
	'features = ["alloc"]'
# wincode's default features include std (thiserror with std).
edit "wincode without std" "$manifest" \
	'/^\[dependencies.wincode\]/,/^$/s/^features = \["derive"\]$/features = ["derive", "alloc"]\ndefault-features = false/' \
	'features = ["derive", "alloc"]'
# sha2 (used where target_os is not "solana", which holds for bpfel-unknown-none) defaults to std.
edit "sha2 without std" "$manifest" \
	'/^\[target.'"'"'cfg(not(target_os = "solana"))'"'"'.dependencies.sha2\]$/,/^$/s/^version = "0.10"$/version = "0.10"\ndefault-features = false/' \
	'default-features = false'
# solana-sysvar is a std crate; Anchor only re-exports its `rent`, which pinocchio has.
edit "no solana-sysvar" "$manifest" \
	'/^\[dependencies.solana-sysvar\]$/,/^$/d' \
	'[dependencies.wincode]'
grep -qF 'solana-sysvar' "$manifest" && fail "edit 'no solana-sysvar' left a reference in Cargo.toml"
edit "rent from pinocchio" "$src/src/lib.rs" \
	's/^\( *\)pub use solana_sysvar::rent::\*;$/\1pub use pinocchio::sysvars::rent::*;/' \
	'pub use pinocchio::sysvars::rent::*;'

rm -rf "$dest"
mkdir -p "$(dirname "$dest")"
mv "$src" "$dest"
echo "$version $sha256" >"$dest/.installed"
