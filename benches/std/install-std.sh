#!/usr/bin/env bash
# Installs the sources of `std` for Solana programs into $1 (make setup
# passes .tools/std): the pinned nightly's own library/ (rust-src), copied,
# with library.patch applied (patch(1), installed with apt-get where it is
# missing), and a copy of them at a path that is the same on every machine
# (below), named in $1/source-root. Cargo's -Zbuild-std reads that copy
# through __CARGO_TESTS_ONLY_SRC_ROOT (benches/build-programs.sh sets it).
# Cargo does not notice a change to these sources, so when it installs anew
# it removes the std programs' build folders given after $1.
#
#   benches/std/install-std.sh <install dir> [<target folder to clear>...]
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
dest=$1
shift

fail() { echo "std for SBF: $*" >&2; exit 1; }

command -v patch >/dev/null || {
	# Debian's `patch` package, where the machine lacks it and apt-get can install it.
	if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
		{ apt-get update -qq && apt-get install -y -qq patch; } || fail "could not install patch(1) with apt-get"
	else
		fail "patch(1) is missing; install it (Debian: apt-get install patch), then run make setup again"
	fi
}
sysroot=$(rustc --print sysroot) || fail "rustc not found; run make setup"
src=$sysroot/lib/rustlib/src/rust/library
[[ -d $src/std ]] || fail "$src has no std; the rust-src component is missing (rustup component add rust-src)"
stamp="$(rustc --version) $(sha256sum "$here/library.patch" | cut -d' ' -f1)"

# Where the builds read the sources: cargo hashes their absolute path into
# every std crate's metadata, and a program that holds a `TypeId` (the
# Anchor 1.x programs do) holds a hash of it, so a path of this checkout
# would give each checkout other bytes. The builds read a copy at a path
# that is the same on every machine instead, named after the rustc and the
# patch (so checkouts that share it share its contents); it is written into
# $dest/source-root, which the builds read.
fixed=/tmp/sbf-std-$(echo "$stamp" | sha256sum | cut -c1-16)
share() {
	if [[ $(cat "$fixed/.installed" 2>/dev/null) != "$stamp" ]]; then
		local staging
		staging=$(mktemp -d "$fixed.XXXXXX")
		cp -r "$dest/library" "$staging/library"
		echo "$stamp" >"$staging/.installed"
		rm -rf "$fixed"
		# Another checkout may have put it there meanwhile: the same bytes.
		mv -T "$staging" "$fixed" 2>/dev/null || rm -rf "$staging"
	fi
	# Rewritten only when it changes, and whole (a rename): make test runs
	# steps side by side, each checking the set-up while another's builds
	# read this file.
	if [[ $(cat "$dest/source-root" 2>/dev/null) != "$fixed/library" ]]; then
		echo "$fixed/library" >"$dest/source-root.$$"
		mv -f "$dest/source-root.$$" "$dest/source-root"
	fi
}

# Already installed from this rustc with this patch: only the shared copy.
if [[ $(cat "$dest/.installed" 2>/dev/null) == "$stamp" ]]; then
	share
	exit 0
fi

rm -rf "$dest"
mkdir -p "$dest"
cp -r "$src" "$dest/library"
# patch(1), not git apply: inside a git checkout (.tools/ is in one) git
# apply would take the paths as the checkout's and skip them.
patch -d "$dest/library" -p1 --dry-run --quiet <"$here/library.patch" >/dev/null ||
	fail "library.patch does not apply to $(rustc --version)'s library/; the patch is written for the nightly in rust-toolchain.toml"
patch -d "$dest/library" -p1 --quiet <"$here/library.patch"
for folder in "$@"; do rm -rf "$folder"; done
echo "$stamp" >"$dest/.installed"
share
echo "std sources for SBF installed into $dest, read by the builds from $fixed/library ($stamp)"
