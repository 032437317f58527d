#!/usr/bin/env bash
# The linker every program is linked with (make setup installs it;
# .cargo/line-tables.toml names it): sbpf-linker, the version make setup
# also installs stock, with eight changes. The first (byteparser.patch): the
# stock linker copies the debug sections without applying their
# relocations, so each DWARF address is an offset into its own text
# section and functions from different sections overlap; the patched one
# resolves every address into a text section to its offset in the
# concatenated text, which it lays out anyway. Nothing else changes: a
# program's loadable bytes are the stock linker's (each .so.debug's are
# checked against its .so when profiled; docs/toolchain.md). The second
# (llvm-proxy.patch, to aya-rustc-llvm-proxy, through which the linker
# calls rustc's LLVM): each LLVM function is looked up in the library
# once, not at every call; those lookups (dlsym, and a C string made for
# each) were about a fifth of a link with line tables, most of them from
# bpf-linker's pass over the debug info. Calls reach the same functions,
# so every program is byte-identical. The third (frame-sizes.patch): with
# SBPF_LINKER_FRAME_SIZES set, LLVM remarks on every function's stack
# frame and the linker prints those remarks (make idl names a refused
# frame's size from them); remarks leave the code as it was. The fourth
# (without-btf.patch): `--without-btf` overrides `--btf`, so that a
# program whose line tables LLVM cannot write BTF for (it crashes) is
# linked again without BTF, and so without debug sections, from the same
# dependencies (`--btf` is one of every crate's rustflags; this argument is
# the program's alone). The fifth (export-env.patch): the symbols
# SBPF_LINKER_EXPORT names (comma separated) are exported as --export
# exports them, at every link of a build, a dependency's throwaway cdylib
# link included (benches/published/spl_token_2022 sets it in its [env]):
# in rustflags, the same arguments would give std and every dependency a
# build of their own. The sixth (exit.patch) leaves the LLVM context
# unfreed at the end of a link, and the seventh (di-hasher.patch, to
# bpf-linker) hashes the ids its pass over the debug info looks up (one
# per operand and instruction) with a multiply rather than SipHash:
# together 6 to 10% of a link's CPU time, and every program
# byte-identical (the context goes after the program is written; the ids
# only answer "seen before?", never an order). The eighth (nocall.patch,
# to bpf-linker) lets LLVM write the BTF of a program whose optimization
# dropped a function's return value (below); without it such a program
# (Anchor's, often) was linked without BTF, so without line tables. The
# stock one stays for
# the toolchain matrix and a plain cargo build.
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
stamp="$how, $(cat "$here"/*.patch | sha256sum | cut -c1-16)"
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
patch -p1 -d "$dest/src" <"$here/frame-sizes.patch"
patch -p1 -d "$dest/src" <"$here/without-btf.patch"
patch -p1 -d "$dest/src" <"$here/export-env.patch"
patch -p1 -d "$dest/src" <"$here/exit.patch"
# A package of its own, not a member of the workspace it sits in.
printf '\n[workspace]\n' >>"$dest/src/Cargo.toml"
# Dependencies patched beside it: each at the version sbpf-linker's lock
# names (fetched with that lock, so it is in the registry), copied into
# <destination>/<folder> and patched there, a package of its own (the
# proxy's build script asks cargo for its own metadata).
cargo fetch --locked --manifest-path "$dest/src/Cargo.toml"
patched_beside() {
	local crate=$1 folder=$2 patch=$3 locked source
	locked=$(sed -n "/^name = \"$crate\"\$/{n;s/^version = \"\(.*\)\"\$/\1/p;}" "$dest/src/Cargo.lock")
	[[ -n $locked ]] || { echo "sbpf-linker $version's Cargo.lock names no $crate" >&2; exit 1; }
	source=$(find "$registry" -mindepth 2 -maxdepth 2 -type d -name "$crate-$locked" 2>/dev/null | head -1)
	[[ -n $source ]] || { echo "$crate $locked's sources are not in $registry" >&2; exit 1; }
	rm -rf "${dest:?}/$folder"
	cp -r "$source" "$dest/$folder"
	patch -p1 -d "$dest/$folder" <"$here/$patch"
	printf '\n[workspace]\n' >>"$dest/$folder/Cargo.toml"
}
# The LLVM bindings, through which every call into LLVM goes.
patched_beside aya-rustc-llvm-proxy llvm-proxy llvm-proxy.patch
# bpf-linker, whose pass over the debug info the linker runs.
patched_beside bpf-linker bpf-linker di-hasher.patch
# After optimization, its subroutine types with no types made plain
# (nocall.patch): LLVM's dead argument elimination marks a function whose
# return value it removed DW_CC_nocall, and LLVM 23's BTF writer, given
# such a type with no types (line tables only), is handed a type pointer
# from past the end of the empty list (under gdb: one into libc's data)
# and stops (SIGILL in BTFDebug::visitTypeEntry). With no types, the
# convention is all the type says; only a debugger reads it, and no
# program's code changes.
patch -p1 -d "$dest/bpf-linker" <"$here/nocall.patch"
# The patched crates in place of crates.io's, and the lock told so (only
# their entries change: every other crate keeps its locked version).
printf '\n[patch.crates-io]\naya-rustc-llvm-proxy = { path = "../llvm-proxy" }\nbpf-linker = { path = "../bpf-linker" }\n' >>"$dest/src/Cargo.toml"
cargo update --offline --manifest-path "$dest/src/Cargo.toml" -p aya-rustc-llvm-proxy -p bpf-linker
CARGO_PROFILE_DEV_DEBUG=false cargo install --path "$dest/src" --locked --force --debug "$@" --root "$dest" --target-dir "$build"
echo "$stamp" >"$dest/.installed"
