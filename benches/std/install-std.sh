#!/usr/bin/env bash
# Installs the sources of `std` for Solana programs into $1 (make setup
# passes .tools/std): the pinned nightly's own library/ (rust-src), copied,
# with library.patch applied (patch(1), installed with apt-get where it is
# missing). Cargo's -Zbuild-std reads them through
# __CARGO_TESTS_ONLY_SRC_ROOT (benches/build-programs.sh sets it).
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

# Already installed from this rustc with this patch: nothing to do.
[[ $(cat "$dest/.installed" 2>/dev/null) == "$stamp" ]] && exit 0

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
echo "std sources for SBF installed into $dest ($stamp)"
