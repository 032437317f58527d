#!/usr/bin/env bash
# Where a `make all` or a `make test` spent its time. Their steps append
# `<step>\t<start>\t<end>\t<CPU>` (seconds since the epoch; CPU seconds,
# user and system, of the step's processes) to a timings file:
# build-programs.sh for each program group (`note`), `run` here for a
# command, and `begin` for what make did before its first step.
#
#   benches/timings.sh begin <step> <timings file> <make's start> <make's pid>
#       starts the timings file with a row for what make did before its
#       first step: from its start to now, with the CPU seconds of make's
#       children so far
#   benches/timings.sh note <step> <timings file> <start> <pid>
#       appends a row for a step from its start to now, with the CPU
#       seconds of the process's children that have ended (and of theirs,
#       each waited for)
#   benches/timings.sh run <step> <timings file> <command>...
#       runs the command (a TERM stops it too) and notes its start, end
#       and CPU seconds
#   benches/timings.sh table <timings file> <make's start> [<target>]
#       prints the table, titled with the target (`make all` unless
#       given): a step's subfolders (token/exact, token/at_least, ...) are
#       one row, from its first start to its last end, with the seconds
#       its builds took, their CPU seconds and the cores those kept busy
#       on average; then the run's CPU seconds over this machine's cores,
#       the least time any order of these steps could take
set -uo pipefail
# Children's user and system time, fields 16 and 17 of /proc/<pid>/stat,
# counted after the command name (which may hold spaces) in clock ticks.
cpu() {
	local stat
	stat=$(cat "/proc/$1/stat") || return 1
	echo "${stat##*) }" | awk -v hz="$(getconf CLK_TCK)" '{printf "%.2f\n", ($14 + $15) / hz}'
}
# A timings row: <step> <start> <pid>, ended now.
row() {
	printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$(date +%s)" "$(cpu "$3")"
}
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
	row "$step" "$began" $$ >>"$timings"
	exit $status
	;;
begin)
	row "$2" "$4" "$5" >"$3"
	;;
note)
	row "$2" "$4" "$5" >>"$3"
	;;
table)
	timings=$2 start=$3 target=${4:-make all}
	[[ -s $timings ]] || exit 0
	echo "$target: where the time went (seconds since make started)"
	awk -F'\t' -v start="$start" -v cores="$(nproc)" '
		{
			step = $1; sub(/\/.*/, "", step)
			if (!(step in from)) { order[++steps] = step; from[step] = $2; to[step] = $3 }
			if ($2 < from[step]) from[step] = $2
			if ($3 > to[step]) to[step] = $3
			took[step] += $3 - $2
			if ($4 == "") { if (!(step in unknown)) unknowns++; unknown[step] = 1 }
			cpu[step] += $4; all += $4
			if ($3 > last) last = $3
		}
		END {
			printf "  %-32s %6s %6s %6s %6s %6s\n", "step", "from", "to", "took", "CPU", "cores"
			for (i = 1; i <= steps; i++) {
				s = order[i]
				printf "  %-32s %6d %6d %6d", s, from[s] - start, to[s] - start, took[s]
				if (s in unknown) printf " %6s %6s\n", "-", "-"
				else printf " %6d %6s\n", cpu[s], took[s] ? sprintf("%.1f", cpu[s] / took[s]) : "-"
			}
			printf "  %-32s %6s %6s %6d %6s\n", "total", "", "", last - start, unknowns ? "-" : sprintf("%d", all)
			if (!unknowns)
				printf "  (%d CPU seconds on %d cores: no order of these steps takes under %d s)\n", all, cores, all / cores
		}' "$timings"
	;;
*)
	echo "usage: benches/timings.sh begin <step> <timings file> <start> <pid> | note <step> <timings file> <start> <pid> | run <step> <timings file> <command>... | table <timings file> <start> [<target>]" >&2
	exit 2
	;;
esac
