#!/usr/bin/env bash
# The project's own benchmark: how long a newcomer's first commands take.
# A fresh clone of this checkout's HEAD, with an empty cargo home (every
# crate downloaded and built again; the installed rustup toolchains are
# reused), runs `make all`, `make bench` and `make test` in turn, each
# timed; RUNS=n repeats it (the median is taken). It writes
# target/project-bench/summary.md: the times, their medians, and each
# run's own `make all` and `make test` breakdowns; each step's log sits
# beside it. Not a test: its times are the machine's, to be quoted with
# the machine.
#
#   benches/project-bench.sh            (make project-bench)
#   RUNS=2 benches/project-bench.sh
#   STEPS="all bench" benches/project-bench.sh   (fewer steps)
set -euo pipefail
root=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)
out=$root/target/project-bench
runs=${RUNS:-1}
read -ra steps <<<"${STEPS:-all bench test}"
mkdir -p "$out"
rm -f "$out"/*.log "$out"/summary.md
# The clone and its cargo home are big (a full target/ is several GB):
# they go when the script ends, however it ends.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

commit=$(git -C "$root" rev-parse --short HEAD)
declare -A took
for run in $(seq 1 "$runs"); do
	git clone -q "$root" "$work/tree"
	mkdir -p "$work/cargo-home"
	for step in "${steps[@]}"; do
		log=$out/run$run-make-$step.log
		echo "project-bench: run $run of $runs, make $step (log: $log)..."
		began=$(date +%s)
		# As a newcomer's make: none of the outer make's variables (its
		# START would count each step's table from the benchmark's start).
		if ! (cd "$work/tree" && env -u START -u MAKELEVEL -u MAKEFLAGS -u MFLAGS CARGO_HOME="$work/cargo-home" make "$step") >"$log" 2>&1; then
			tail -n 20 "$log" >&2
			echo "project-bench: make $step failed in a fresh clone of $commit (run $run; whole output: $log). Fix it, commit, and run the benchmark again." >&2
			exit 1
		fi
		took[$run,$step]=$(($(date +%s) - began))
	done
	rm -rf "$work/tree" "$work/cargo-home"
done

median() { printf '%s\n' "$@" | sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : int((v[NR / 2] + v[NR / 2 + 1]) / 2)}'; }
{
	echo "# The project's own benchmark"
	echo
	echo "A fresh clone of \`$commit\` with an empty cargo home, on $(nproc) cores ($(uname -m)), $(date -u +%Y-%m-%d); seconds, wall clock. \`make test\` runs after \`make all\`, as a newcomer's would."
	echo
	header="| step |" rule="|---|"
	for run in $(seq 1 "$runs"); do header+=" run $run |" rule+="---:|"; done
	echo "$header median |"
	echo "$rule---:|"
	for step in "${steps[@]}"; do
		line="| \`make $step\` |" values=()
		for run in $(seq 1 "$runs"); do
			line+=" ${took[$run,$step]} |"
			values+=("${took[$run,$step]}")
		done
		echo "$line $(median "${values[@]}") |"
	done
	for run in $(seq 1 "$runs"); do
		for step in all test; do
			[[ -f $out/run$run-make-$step.log ]] || continue
			echo
			echo "Run $run, \`make $step\`'s own table:"
			echo
			echo '```'
			# The table, through its total and the line under it (the least time).
			awk -v title="make $step: where the time went" \
				'index($0, title) == 1 { on = 1 } on { print } on && /^  total/ { if ((getline) > 0 && /^  \(/) print; on = 0 }' \
				"$out/run$run-make-$step.log"
			echo '```'
		done
	done
} >"$out/summary.md"
cat "$out/summary.md"
