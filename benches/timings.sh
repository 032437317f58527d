#!/usr/bin/env bash
# Where a `make all` or a `make test` spent its time. Their steps append
# `<step>\t<start>\t<end>` (seconds since the epoch) to a timings file:
# build-programs.sh for each program group, and `run` here for a command.
#
#   benches/timings.sh run <step> <timings file> <command>...
#       runs the command (a TERM stops it too) and notes its start and end
#   benches/timings.sh table <timings file> <make's start> [<target>]
#       prints the table, titled with the target (`make all` unless
#       given): a step's subfolders (token/exact, token/at_least, ...) are
#       one row, from its first start to its last end, with the seconds
#       its builds took
set -uo pipefail
case ${1:-} in
run)
	step=$2 timings=$3
	shift 3
	began=$(date +%s)
	"$@" &
	child=$!
	trap 'kill $child 2>/dev/null' TERM INT
	wait $child
	status=$?
	printf '%s\t%s\t%s\n' "$step" "$began" "$(date +%s)" >>"$timings"
	exit $status
	;;
table)
	timings=$2 start=$3 target=${4:-make all}
	[[ -s $timings ]] || exit 0
	echo "$target: where the time went (seconds since make started)"
	awk -F'\t' -v start="$start" '
		{
			step = $1; sub(/\/.*/, "", step)
			if (!(step in from)) { order[++steps] = step; from[step] = $2; to[step] = $3 }
			if ($2 < from[step]) from[step] = $2
			if ($3 > to[step]) to[step] = $3
			took[step] += $3 - $2
			if ($3 > last) last = $3
		}
		END {
			printf "  %-32s %6s %6s %6s\n", "step", "from", "to", "took"
			for (i = 1; i <= steps; i++) {
				s = order[i]
				printf "  %-32s %6d %6d %6d\n", s, from[s] - start, to[s] - start, took[s]
			}
			printf "  %-32s %6s %6s %6d\n", "total", "", "", last - start
		}' "$timings"
	;;
*)
	echo "usage: benches/timings.sh run <step> <timings file> <command>... | table <timings file> <start> [<target>]" >&2
	exit 2
	;;
esac
