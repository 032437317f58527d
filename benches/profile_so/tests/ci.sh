#!/usr/bin/env bash
# The steps of docs/ci/compute-units.yml, the workflow docs/profile.md's
# "In your CI" gives a team's pipeline, run end to end here as a pipeline
# runs them (make test runs this after make all):
#   0. profile-so installed with cargo install into an empty folder (its
#      build reuses the workspace's target folder), and run from a folder
#      outside this repository, as in a team's own;
#   1. two builds, base and head, and the fixtures the tests write: here
#      make all's token programs on borsh (the base) and bytemuck (the
#      head), each with the .so.debug make all keeps beside it, and make
#      fixtures' calls of the borsh program (the family's programs share
#      one contract, so these are the head's calls too);
#   2. the workflow's comparison, whose exit code is the gate: it passes
#      under --max-increase and fails past it, naming each call, and its
#      summary.md is the pull request's comment.
set -euo pipefail
cd "$(dirname "$0")/../../.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "ci.sh: $*" >&2; exit 1; }

# 0. The command, installed into an empty folder; its flags are the
# workflow's.
workflow=docs/ci/compute-units.yml
grep -q -- '--so target/deploy/$PROGRAM.so --base ../base/target/deploy/$PROGRAM.so --fixtures fixtures --max-increase "$MAX_INCREASE"' "$workflow" \
	|| fail "$workflow compares with other flags than this script"
CARGO_TARGET_DIR=$PWD/target cargo --config 'build.rustc-workspace-wrapper="clippy-driver"' \
	install --quiet --locked --debug --path benches/profile_so --bin profile-so --root "$work/bin" \
	>"$work/install.log" 2>&1 || { cat "$work/install.log"; fail "cargo install of profile-so failed"; }
profile_so=$work/bin/bin/profile-so

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

# 2. The comparison, from a team's folder outside this repository: its
# exit code (0 or not) and what it says.
team=$work/team
mkdir -p "$team/target/deploy" "$work/base/target/deploy"
compare() {
	local so=$1 base=$2 limit=$3
	cp "$work/$so/my_program.so" "$work/$so/my_program.so.debug" "$team/target/deploy/"
	cp "$work/$base/my_program.so" "$work/$base/my_program.so.debug" "$work/base/target/deploy/"
	rm -rf "$team/fixtures" && cp -r "$work/fixtures" "$team/fixtures"
	(cd "$team" && "$profile_so" \
		--so target/deploy/my_program.so --base ../base/target/deploy/my_program.so \
		--fixtures fixtures --max-increase "$limit") >"$work/out" 2>&1
}
summary=$team/target/benches/profile/my_program/diff/summary.md

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
echo "ci.sh: the installed profile-so gated as docs/ci/compute-units.yml runs it (passes under --max-increase, fails past it naming each call)"
