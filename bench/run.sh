#!/bin/sh
# The benchmarks of doc/benchmarks.md: monitored vs raw PVM, measured side by side in
# one run, interleaved, CPUs pinned, repeated, medians. Usage: bench/run.sh [REPEATS]
set -eu
cd "$(dirname "$0")/.."
BIN=${PVMMON_BUILD:-build}/bin
REPS=${1:-5}
CPUS=${BENCH_CPUS:-0-$(($(nproc) - 1))}
PIN="taskset -c $CPUS"
work=$(mktemp -d "${TMPDIR:-/tmp}/pvmmon-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

median() { sort -g | awk '{a[NR]=$1} END {if (NR==0) print "nan"; else if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }

echo "pvmmon benchmarks: $REPS repetitions, CPUs $CPUS, $(date -u +%Y-%m-%dT%H:%MZ)"
echo

# 1. Ping-pong round trip, 8 B .. 1 MiB.
SIZES="8 1024 65536 1048576"
for rep in $(seq "$REPS"); do
	for mode in raw mon; do
		if [ $mode = raw ]; then flag=--raw; else flag="-o $work/pp.xml"; fi
		$PIN "$BIN/pvmmon" run -q $flag -- "$BIN/pingpong" -n 2000 -w 200 --timing \
			--sizes "$(echo $SIZES | tr ' ' ,)" >"$work/pp.$mode.$rep" 2>/dev/null
	done
done
echo "Ping-pong round trip (median of per-run medians, microseconds)"
printf '%10s %10s %10s %8s\n' size raw monitored ratio
for s in $SIZES; do
	r=$(cat "$work"/pp.raw.* | awk -v s="size=$s" '$1==s {sub("median_us=","",$3); print $3}' | median)
	m=$(cat "$work"/pp.mon.* | awk -v s="size=$s" '$1==s {sub("median_us=","",$3); print $3}' | median)
	printf '%10s %10s %10s %8.3f\n' "$s" "$r" "$m" "$(echo "$m $r" | awk '{print $1/$2}')"
done
echo

# 2. Application wall time (the program's own, measured by the shell inside the run).
app_time() { # mode program args...
	mode=$1; shift
	if [ "$mode" = raw ]; then flag=--raw; else flag="-o $work/app.xml"; fi
	$PIN "$BIN/pvmmon" run -q $flag -- /bin/bash -c \
		'TIMEFORMAT=%R; time "$@" >/dev/null' bash "$@" 2>&1 >/dev/null | tail -n 1
}
for app in "matmul -n 300 -w 4 -i 4" "mcpi -w 4 -c 256 -s 200000"; do
	: >"$work/t.raw"; : >"$work/t.mon"
	for rep in $(seq "$REPS"); do
		# shellcheck disable=SC2086
		app_time raw "$BIN/"$app >>"$work/t.raw"
		# shellcheck disable=SC2086
		app_time mon "$BIN/"$app >>"$work/t.mon"
	done
	r=$(median <"$work/t.raw"); m=$(median <"$work/t.mon")
	printf '%-32s raw %6ss  monitored %6ss  ratio %.3f\n' "$app" "$r" "$m" \
		"$(echo "$m $r" | awk '{print $1/$2}')"
done
echo

# 3. Log size against the number of messages (PVM's full trace: ~236 B a message).
echo "Log size by messages (pingpong, 8 B)"
for n in 5000 50000; do
	"$BIN/pvmmon" run -q -o "$work/size.xml" -- "$BIN/pingpong" -n "$n" -w 0 >/dev/null 2>&1
	bytes=$(stat -c %s "$work/size.xml")
	printf '%8d messages: log %7d bytes (%.4f B/message); a full PVM trace ~%d bytes\n' \
		$((2 * n)) "$bytes" "$(echo "$bytes $n" | awk '{print $1/(2*$2)}')" $((2 * n * 236))
done
