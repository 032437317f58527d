#!/usr/bin/env bash
# The two steps docs/profile.md's "In your CI" gives a team's pipeline, run
# end to end through the Makefile as a pipeline runs them (make test runs
# this after make all):
#   1. two builds, base and head, and the fixtures the tests write: here
#      make all's token programs on borsh (the base) and bytemuck (the
#      head), each with the .so.debug make all keeps beside it, and make
#      fixtures' calls of the borsh program (the family's programs share
#      one contract, so these are the head's calls too);
#   2. the comparison, whose exit code is the gate: it passes under
#      MAX_INCREASE and fails past it, naming each call, and its
#      summary.md is the pull request's comment.
# Its output goes to a workspace of its own (BENCH_WORKSPACE), so the
# page and profiles make test checks are left alone.
set -euo pipefail
cd "$(dirname "$0")/../../.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "ci.sh: $*" >&2; exit 1; }

# 1. The builds and the fixtures.
for build in base:borsh head:bytemuck; do
	dir=$work/${build%%:*} program=${build#*:}
	mkdir -p "$dir"
	cp "target/deploy/token/exact/$program.so" "$dir/my_program.so" || fail "run make all first"
	cp "target/deploy/token/exact/$program.so.debug" "$dir/my_program.so.debug" || fail "run make all first"
done
make -s --no-print-directory fixtures >"$work/fixtures.log" 2>&1 || { cat "$work/fixtures.log"; fail "make fixtures failed"; }
mkdir -p "$work/fixtures"
cp target/benches/fixtures/borsh--*.json "$work/fixtures/"

# 2. The comparison: make profile SO= BASE= MAX_INCREASE=, its exit code
# (0 or not) and what it says.
compare() {
	local so=$1 base=$2 limit=$3
	BENCH_WORKSPACE=$work/ws make -s --no-print-directory profile \
		SO="$work/$so/my_program.so" BASE="$work/$base/my_program.so" \
		FIXTURES="$work/fixtures" MAX_INCREASE="$limit" >"$work/out" 2>&1
}
summary=$work/ws/target/benches/profile/my_program/diff/summary.md

# The head (bytemuck) spends less on every call: no increase, it passes.
compare head base 0 || { cat "$work/out"; fail "the head spends less on every call, yet MAX_INCREASE=0 failed"; }
grep -q '^- MAX_INCREASE=0 CUs: no call past it$' "$summary" || fail "$summary does not say no call is past MAX_INCREASE=0"
grep -q '^- `0x01`: -[0-9]* CUs (-[0-9.]*%): decode -' "$summary" || fail "$summary has no line for read_owner (0x01) led by decode"

# The other way round, every call spends more: past 15 CUs two calls
# fail, each named with its top frames; under 50 CUs none does.
if compare base head 15; then cat "$work/out"; fail "MAX_INCREASE=15 passed where full and update_amount cost 20 CUs and more"; fi
grep -q 'make profile SO= BASE=: 2 calls cost more than MAX_INCREASE=15 CUs allows' "$work/out" || { cat "$work/out"; fail "the failure does not count the calls past the gate"; }
grep -q '^  `0x00` (borsh--full.json): +[0-9]* CUs .*past MAX_INCREASE=15 CUs; top frames: `' "$work/out" || { cat "$work/out"; fail "the failure does not name full (0x00) with its top frames"; }
grep -q '^- \*\*MAX_INCREASE=15 CUs: 2 calls past it\*\*$' "$summary" || fail "$summary does not name the calls past the gate"
compare base head 50 || { cat "$work/out"; fail "MAX_INCREASE=50 failed where no call costs 50 CUs more"; }
echo "ci.sh: make profile SO= BASE= gated as docs/profile.md's \"In your CI\" says (passes under MAX_INCREASE, fails past it naming each call)"
