#!/usr/bin/env bash
# The linker every program is linked with (make setup installs it;
# .cargo/line-tables.toml names it): sbpf-linker, the version make setup
# also installs stock, with one change (byteparser.patch). The
# stock linker copies the debug sections without applying their
# relocations, so each DWARF address is an offset into its own text
# section and functions from different sections overlap; the patched one
# resolves every address into a text section to its offset in the
# concatenated text, which it lays out anyway. Nothing else changes: a
# program's loadable bytes are the stock linker's (each .so.debug's are
# checked against its .so when profiled; docs/toolchain.md). The stock
# one stays for the toolchain matrix and a plain cargo build.
#
# Built in <build folder>, make setup's build of the stock linker (the
# Makefile's LINKER_BUILD), with the same cargo arguments (the Makefile's
# LINKER_CONFIG: which of its crates are optimized): every dependency is
# reused, only sbpf-linker itself is compiled again. <how> names that
# build (the Makefile's LINKER_STAMP); with the patch's hash it is the
# stamp in <destination>/.installed, so a change to either installs anew.
#
#   benches/profile-linker/install.sh <version> <destination> <build folder> <how> [<cargo argument>...]
set -euo pipefail

version=$1 dest=$2 build=$3 how=$4
shift 4
here=$(cd "$(dirname "$0")" && pwd)
stamp="$how, $(sha256sum "$here/byteparser.patch" | cut -c1-16)"
if [[ -x $dest/bin/sbpf-linker && -f $dest/.installed && $(cat "$dest/.installed") == "$stamp" ]]; then
	exit 0
fi
registry=${CARGO_HOME:-$HOME/.cargo}/registry/src
find_source() { find "$registry" -mindepth 2 -maxdepth 2 -type d -name "sbpf-linker-$version" 2>/dev/null | head -1; }
source=$(find_source)
if [[ -z $source ]]; then
	# Not unpacked yet (make setup's cargo install may have been elsewhere):
	# fetch it as a dependency of a scratch crate.
	scratch=$(mktemp -d)
	mkdir -p "$scratch/src" && : >"$scratch/src/lib.rs"
	printf '[package]\nname = "fetch"\nversion = "0.0.0"\nedition = "2021"\n[dependencies]\nsbpf-linker = "=%s"\n' "$version" >"$scratch/Cargo.toml"
	cargo fetch --manifest-path "$scratch/Cargo.toml"
	rm -rf "$scratch"
	source=$(find_source)
fi
[[ -n $source ]] || { echo "sbpf-linker $version's sources are not in $registry" >&2; exit 1; }
rm -rf "$dest/src"
mkdir -p "$dest"
cp -r "$source" "$dest/src"
# Built with the project's pinned nightly, as make setup builds the stock one.
rm -f "$dest/src/rust-toolchain.toml"
patch -p1 -d "$dest/src" <"$here/byteparser.patch"
# A package of its own, not a member of the workspace it sits in.
printf '\n[workspace]\n' >>"$dest/src/Cargo.toml"
CARGO_PROFILE_DEV_DEBUG=false cargo install --path "$dest/src" --locked --force --debug "$@" --root "$dest" --target-dir "$build"
echo "$stamp" >"$dest/.installed"
