#!/usr/bin/env bash
# The steps of docs/ci/compute-units.yml, the workflow docs/profile.md's
# "In your CI" gives a team's pipeline, run end to end here as a pipeline
# runs them (make test runs this after make all and make litesvm):
#   0. profile-so installed with cargo install into an empty folder (its
#      build reuses the workspace's target folder), and run from a folder
#      outside this repository, as in a team's own, outside make;
#   1. a team on LiteSVM (benches/profile_so/example/counter: a program
#      and its LiteSVM tests, with litesvm-recorder's one line): its base
#      (the tree as it is) and head (../head.patch applied) built, the
#      head's tests run with LITESVM_FIXTURES set, and the workflow's
#      comparison gating the head against the base on those fixtures;
#   2. a team on Mollusk: make all's token programs on borsh (the base)
#      and bytemuck (the head), each with the .so.debug make all keeps
#      beside it, on make fixtures' calls of the borsh program (the
#      family's programs share one contract, so these are the head's calls
#      too).
# Each comparison's exit code is the gate: it passes under --max-increase
# and fails past it, naming each call, and its summary.md is the pull
# request's comment.
set -euo pipefail
cd "$(dirname "$0")/../../.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "ci.sh: $*" >&2; exit 1; }

# 0. The command, installed into an empty folder; its flags are the
# workflow's.
workflow=docs/ci/compute-units.yml
grep -q -- '--so target/deploy/$PROGRAM.so --base ../base/target/deploy/$PROGRAM.so --fixtures fixtures/$PROGRAM_ID --max-increase "$MAX_INCREASE"' "$workflow" \
	|| fail "$workflow compares with other flags than this script"
CARGO_TARGET_DIR=$PWD/target cargo --config 'build.rustc-workspace-wrapper="clippy-driver"' \
	install --quiet --locked --debug --path benches/profile_so --bin profile-so --root "$work/bin" \
	>"$work/install.log" 2>&1 || { cat "$work/install.log"; fail "cargo install of profile-so failed"; }
profile_so=$work/bin/bin/profile-so
# The workflow's comparison, as its step runs it.
gate=$(sed -n 's/^ *run: \(profile-so .*\)$/\1/p' "$workflow")
[[ -n $gate ]] || fail "$workflow has no step running profile-so"

# The comparison, from a team's folder outside this repository (the
# head's build in its target/deploy/, the base's in ../base/target/deploy/,
# the tests' fixtures in fixtures/<program id>/), outside make: its exit
# code (0 or not) and what it says into $work/out.
team=$work/team
compare() {
	local so=$1 base=$2 program=$3 id=$4 fixtures=$5 limit=$6
	rm -rf "$team" "$work/base/target"
	mkdir -p "$team/target/deploy" "$team/fixtures" "$work/base/target/deploy"
	cp "$so.so" "$so.so.debug" "$team/target/deploy/"
	cp "$base.so" "$base.so.debug" "$work/base/target/deploy/"
	cp -r "$fixtures" "$team/fixtures/$id"
	(cd "$team" && env -u MAKELEVEL -u MAKEFLAGS -u RUST_LOG PATH="$(dirname "$profile_so"):$PATH" \
		PROGRAM="$program" PROGRAM_ID="$id" MAX_INCREASE="$limit" sh -c "$gate") >"$work/out" 2>&1
}

# 1. A team on LiteSVM. Its repository: the example, its dependency on
# litesvm-recorder a path to this one (a git URL in a team's). The
# upstream SBF route builds under this repository (its .cargo/config.toml
# and rust-toolchain.toml), into target/deploy/team/<build>/.
example=benches/profile_so/example
for build in base head; do
	tree=$work/trees/$build/counter
	mkdir -p "$(dirname "$tree")"
	cp -r "$example/counter" "$tree"
	sed -i "s|path = \"../../../litesvm/recorder\"|path = \"$PWD/benches/litesvm/recorder\"|" "$tree/Cargo.toml"
	if [[ $build == head ]]; then
		(cd "$tree" && git apply "$OLDPWD/$example/head.patch") || fail "$example/head.patch does not apply to $example/counter"
	fi
	rm -rf "target/team/$build" && mkdir -p "target/team/$build" && cp -r "$tree" "target/team/$build/"
	benches/build-programs.sh "team/$build" "" "target/team/$build/counter" >"$work/build.log" 2>&1 \
		|| { cat "$work/build.log"; fail "the example's $build build failed"; }
done
# The head's tests, the recorder on (their dependencies are make
# litesvm's, in its target folder).
LITESVM_FIXTURES=$work/recorded COUNTER_SO=$PWD/target/deploy/team/head/counter.so \
	cargo test --quiet --manifest-path target/team/head/counter/Cargo.toml --target-dir target/litesvm >"$work/tests.log" 2>&1 \
	|| { cat "$work/tests.log"; fail "the example's LiteSVM tests failed on the head"; }
grep -q '^test result: ok. 5 passed' "$work/tests.log" || { cat "$work/tests.log"; fail "the example's 5 tests did not all run"; }
counter_id=Counter111111111111111111111111111111111111
[[ ! -e $work/recorded/not-recorded.txt ]] || { cat "$work/recorded/not-recorded.txt"; fail "the recorder named calls it did not record"; }
recorded=$(ls "$work/recorded/$counter_id" | wc -l)
[[ $recorded == 9 ]] || fail "the recorder wrote $recorded fixtures for the example's 9 calls (5 tests, one transaction of three)"
head=target/deploy/team/head/counter base=target/deploy/team/base/counter
# The same tests with no recorder, register traces on (SBF_TRACE_DIR):
# they load the head as linked (its .so.debug, with the section names a
# tracing loader needs, as cargo build-sbf's .so has them), and
# profile-so --traces gives every call exact, with the recorded CUs.
SBF_TRACE_DIR=$work/traces COUNTER_SO=$PWD/$head.so.debug \
	cargo test --quiet --manifest-path target/team/head/counter/Cargo.toml --target-dir target/litesvm >"$work/tests.log" 2>&1 \
	|| { cat "$work/tests.log"; fail "the example's LiteSVM tests failed traced"; }
rm -rf "$team" && mkdir -p "$team"
(cd "$team" && env -u MAKELEVEL -u RUST_LOG "$profile_so" --so "$OLDPWD/$head.so" --traces "$work/traces") >"$work/out" 2>&1 \
	|| { cat "$work/out"; fail "profile-so --traces failed on the example's traces"; }
grep -q '^- exact: 9 of 9 invocations' "$team/target/benches/profile/counter/summary.md" || { cat "$work/out"; fail "the example's 9 traced calls are not all exact"; }
traced=$(sed -n 's/^| `[0-9a-f]*\.regs` | `[^`]*` | \([0-9]*\) | yes |.*/\1/p' "$team/target/benches/profile/counter/summary.md" | sort -n | paste -sd' ')
recorded=$(cat "$work/recorded/$counter_id"/*.json | grep -o '"compute_units_consumed":[0-9]*' | cut -d: -f2 | sort -n | paste -sd' ')
[[ -n $traced && $traced == "$recorded" ]] || fail "the traced calls' CUs ($traced) are not the recorded ones ($recorded)"
summary=$team/target/benches/profile/counter/diff/summary.md
# The head refuses adding zero: one more check on every add (0x01), the
# same on every other call; past 0 CUs it fails naming both adds.
if compare "$head" "$base" counter "$counter_id" "$work/recorded/$counter_id" 0; then cat "$work/out"; fail "MAX_INCREASE=0 passed where the head's adds cost more"; fi
grep -q '^profile-so --base: 2 calls cost more than MAX_INCREASE=0 CUs allows' "$work/out" || { cat "$work/out"; fail "the failure does not count the example's two adds past the gate"; }
grep -q '^  `0x01` (adds_in_one_transaction-1-0.json): +[0-9]* CUs .*past MAX_INCREASE=0 CUs; top frames: `entrypoint → process` (checks)' "$work/out" || { cat "$work/out"; fail "the failure does not name the first add with its top frame"; }
grep -q '^- 0 behaviour changes' "$summary" || fail "$summary names a behaviour change the patch does not make"
grep -q '^- `0x00`: 0 CUs (0.0%)$' "$summary" || fail "$summary does not say the increment (0x00) costs the same"
compare "$head" "$base" counter "$counter_id" "$work/recorded/$counter_id" 10 || { cat "$work/out"; fail "MAX_INCREASE=10 failed where the adds cost a few CUs more"; }
grep -q '^- MAX_INCREASE=10 CUs: no call past it$' "$summary" || fail "$summary does not say no call is past MAX_INCREASE=10"

# 2. A team on Mollusk: the builds and make fixtures' fixtures.
for build in base:borsh head:bytemuck; do
	dir=$work/mollusk/${build%%:*} program=${build#*:}
	mkdir -p "$dir"
	cp "target/deploy/token/exact/$program.so" "$dir/my_program.so" || fail "run make all first"
	cp "target/deploy/token/exact/$program.so.debug" "$dir/my_program.so.debug" || fail "run make all first"
done
make -s --no-print-directory fixtures >"$work/fixtures.log" 2>&1 || { cat "$work/fixtures.log"; fail "make fixtures failed"; }
mkdir -p "$work/fixtures"
cp target/benches/fixtures/borsh--*.json "$work/fixtures/"
mollusk=$work/mollusk
summary=$team/target/benches/profile/my_program/diff/summary.md

# The head (bytemuck) spends less on every call: no increase, it passes.
compare "$mollusk/head/my_program" "$mollusk/base/my_program" my_program any "$work/fixtures" 0 || { cat "$work/out"; fail "the head spends less on every call, yet MAX_INCREASE=0 failed"; }
grep -q '^- MAX_INCREASE=0 CUs: no call past it$' "$summary" || fail "$summary does not say no call is past MAX_INCREASE=0"
grep -q '^- `0x01`: -[0-9]* CUs (-[0-9.]*%): decode -' "$summary" || fail "$summary has no line for read_owner (0x01) led by decode"

# The other way round, every call spends more: past 15 CUs two calls
# fail, each named with its top frames; under 50 CUs none does.
if compare "$mollusk/base/my_program" "$mollusk/head/my_program" my_program any "$work/fixtures" 15; then cat "$work/out"; fail "MAX_INCREASE=15 passed where full and update_amount cost 20 CUs and more"; fi
grep -q 'profile-so --base: 2 calls cost more than MAX_INCREASE=15 CUs allows' "$work/out" || { cat "$work/out"; fail "the failure does not count the calls past the gate"; }
grep -q '^  `0x00` (borsh--full.json): +[0-9]* CUs .*past MAX_INCREASE=15 CUs; top frames: `' "$work/out" || { cat "$work/out"; fail "the failure does not name full (0x00) with its top frames"; }
grep -q '^- \*\*MAX_INCREASE=15 CUs: 2 calls past it\*\*$' "$summary" || fail "$summary does not name the calls past the gate"
compare "$mollusk/base/my_program" "$mollusk/head/my_program" my_program any "$work/fixtures" 50 || { cat "$work/out"; fail "MAX_INCREASE=50 failed where no call costs 50 CUs more"; }
echo "ci.sh: the installed profile-so gated as docs/ci/compute-units.yml runs it, on a LiteSVM team's recorded tests and a Mollusk team's fixtures (passes under --max-increase, fails past it naming each call)"
