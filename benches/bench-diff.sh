#!/usr/bin/env bash
# make bench-diff's build: the programs of REV (any git revision), each
# with its .so.debug, built in a git worktree of this repository,
# <dir>/tree, with that revision's own Makefile (<dir> outside this
# checkout: cargo reads every .cargo/config.toml above the folder it
# runs in). It shares this tree's
# .tools/ (the pinned linker, std's sources) and the cargo home, and keeps
# a build folder of its own, <dir>/build, between runs, so a second run
# (or one after a change to one program) relinks only what changed.
#
#   benches/bench-diff.sh <REV> <dir>
set -euo pipefail
rev=$1 dir=$2
fail() { echo "make bench-diff: $*" >&2; exit 1; }
sha=$(git rev-parse --verify --quiet "$rev^{commit}") ||
	fail "REV=$rev is not a commit of this repository; give a revision git knows (HEAD~1, a tag, a branch, a sha)"
root=$PWD tree=$(realpath -m "$dir/tree") build=$(realpath -m "$dir/build") log=$(realpath -m "$dir/build.log")
case $tree/ in "$root"/*) fail "its folder ($dir) is inside this checkout, where cargo would read this checkout's .cargo/config.toml too; give BENCH_DIFF=<a folder outside it>" ;; esac
mkdir -p "$dir"
if [[ -e $tree/.git ]]; then
	git -C "$tree" checkout -q --force --detach "$sha"
else
	git worktree prune
	git worktree add -q --force --detach "$tree" "$sha"
fi
ln -sfn "$root/.tools" "$tree/.tools"
echo "make bench-diff: building REV=$rev ($(git rev-parse --short "$sha"))'s programs in $tree (its output: $log)"
: >"$log"
(
	cd "$tree"
	CARGO_TARGET_DIR=$build make --no-print-directory programs BUILD_LOG="$log"
	# A revision from before one build per program kept its line tables
	# in profile copies, built a second time: each placed beside its
	# program as the <name>.so.debug the profile reads.
	if grep -q '^profile-copies:' Makefile; then
		CARGO_TARGET_DIR=$build make --no-print-directory profile-copies
		(cd target/profile/deploy && find . -name '*.so' -exec cp {} ../../deploy/{}.debug \;)
	fi
) >>"$log" 2>&1 || {
	tail -n 30 "$log" >&2
	fail "REV=$rev's programs did not build (whole output: $log); a revision from before make profile-copies cannot be compared"
}
