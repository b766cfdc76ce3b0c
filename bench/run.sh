#!/bin/sh
# The benchmarks of doc/benchmarks.md: monitored vs raw PVM, measured side by side in
# one run, interleaved, CPUs pinned, repeated, medians.
# Usage: bench/run.sh [REPEATS]   (BENCH_ONLY="1 16" runs only the sections named)
#        bench/run.sh --compare OLD [--sections pingpong,probe,mcpi,nrecv,poll] [REPEATS]
# --compare measures the sections named (pingpong, probe and mcpi by default; nrecv is
# ping-pong polling with pvm_nrecv, poll an empty poll's cost, export section 23's read
# and export of the 100,800-event log) for OLD (another built
# clone, or its build folder) and for this build, interleaved in each repetition, and
# prints both and the ratio of this build's figure to OLD's: before and after a change
# in one run (see compare_builds below).
# A run's figures go into the summary table at the top of doc/benchmarks.md
# (bench/results.tsv, through bench/summary.sh) when it ends normally;
# BENCH_NO_SUMMARY=1 leaves the table alone. Any exit halts the VMs the script started.
# Ctrl-C (SIGINT), SIGTERM or SIGHUP stops it at once, whatever it is running: its VMs
# halted, its processes ended, its folder removed, exit status 130, 143 or 129.
set -eu
cd "$(dirname "$0")/.."

# The script runs as two processes. This one, the supervisor, creates the work folder,
# starts the benchmarks (this script again, with BENCH_WORK set) in a session of their
# own and waits for them. A signal is the supervisor's to act on: the `wait` builtin
# returns at once for a trapped signal, while a shell running a command takes its trap
# only when that command has ended, and `pvmmon run` from a terminal hands the terminal
# to the program it runs, so Ctrl-C would reach only that program and the loop went on
# to the next run. The supervisor then sends SIGTERM to the benchmarks' session (every
# shell, subshell and helper of theirs: the session is theirs alone), halts every
# process whose PVM_TMP lies in the work folder (every run's VM is made there: TMPDIR
# points into it), and removes the folder.
if [ -z "${BENCH_WORK:-}" ]; then
	work=$(mktemp -d "${TMPDIR:-/tmp}/pvmmon-bench.XXXXXX")
	mkdir "$work/tmp"
	sig=
	trap 'sig=130' INT
	trap 'sig=143' TERM
	trap 'sig=129' HUP
	# The processes of the runs: those whose PVM_TMP lies in the work folder (one grep
	# for all; a zombie's environment reads empty). The folder's name, from mktemp, has
	# only [A-Za-z0-9._/-]: its dots are escaped for the pattern.
	work_re=$(printf '%s' "$work" | sed 's/\./\\./g')
	run_pids() {
		grep -lz "^PVM_TMP=$work_re/" /proc/[0-9]*/environ 2>/dev/null |
			sed 's|^/proc/\([0-9]*\)/environ$|\1|' || true
	}
	# SIGTERM first (a pvmd then ends its tasks and removes its files), SIGKILL to what
	# is left 5 s later.
	halt_runs() {
		pids=$(run_pids)
		[ -n "$pids" ] || return 0
		# shellcheck disable=SC2086
		kill -TERM $pids 2>/dev/null || true
		i=0
		while [ $i -lt 50 ] && [ -n "$(run_pids)" ]; do sleep 0.1; i=$((i + 1)); done
		pids=$(run_pids)
		# shellcheck disable=SC2086
		[ -z "$pids" ] || kill -KILL $pids 2>/dev/null || true
	}
	# The live processes of the benchmarks' session (its id is the worker's pid): the
	# worker's group, and the groups `pvmmon run` makes for its programs.
	session_pids() {
		ps -eo pid=,sid=,stat= | awk -v s="$worker" '$2 == s && $3 !~ /^Z/ {print $1}'
	}
	# setsid does not fork here (a background job of a shell without job control leads
	# no group), so the worker's pid is its session's id. Its input is not the terminal,
	# so that no `pvmmon run` takes the terminal from this process's group.
	BENCH_WORK=$work TMPDIR=$work/tmp setsid "$PWD/bench/run.sh" "$@" </dev/null &
	worker=$!
	status=0
	[ -n "$sig" ] || wait "$worker" || status=$?
	if [ -n "$sig" ]; then
		echo "bench: stopping (signal), halting its VMs" >&2
		kill -TERM -"$worker" 2>/dev/null || kill -TERM "$worker" 2>/dev/null || true
		# A run stops its program and halts its VM on SIGTERM: seconds on a busy machine.
		i=0
		while [ $i -lt 150 ] && [ -n "$(session_pids)" ]; do sleep 0.1; i=$((i + 1)); done
		pids=$(session_pids)
		# shellcheck disable=SC2086
		[ -z "$pids" ] || kill -KILL $pids 2>/dev/null || true
		status=$sig
	fi
	wait "$worker" 2>/dev/null || true
	halt_runs
	rm -rf "$work"
	exit "$status"
fi
COMPARE= SECTIONS=pingpong,probe,mcpi
while [ $# -gt 0 ]; do
	case $1 in
	--compare) COMPARE=${2:?--compare needs a build}; shift 2 ;;
	--sections) SECTIONS=${2:?--sections needs names}; shift 2 ;;
	*) break ;;
	esac
done
BIN=$(cd "${PVMMON_BUILD:-build}/bin" && pwd)
REPS=${1:-7}
CPUS=${BENCH_CPUS:-0-$(($(nproc) - 1))}
PIN="taskset -c $CPUS"
work=$BENCH_WORK
# The VMs this script starts itself (section 3; every other run has its own VM through
# `pvmmon run`, which halts it), one "pid PVM_TMP" a line in $work/vms, are halted on
# any exit: by their own pid, and only while that pid is still a pvmd of that PVM_TMP
# (a pid is reused once its process is gone).
own_pvmd() { # pid PVM_TMP: a live (not zombie) pvmd whose environment has PVM_TMP
	awk '$2 != "(pvmd)" || $3 == "Z" {exit 1}' "/proc/$1/stat" 2>/dev/null &&
		tr '\0' '\n' <"/proc/$1/environ" 2>/dev/null | grep -qx "PVM_TMP=$2"
}
halt_vms() {
	[ -f "$work/vms" ] || return 0
	while read -r pid tmp; do
		own_pvmd "$pid" "$tmp" || continue
		# SIGTERM: the pvmd cleans up (its files, its tasks) and exits.
		kill -TERM "$pid" 2>/dev/null || continue
		i=0
		while own_pvmd "$pid" "$tmp" && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
		if own_pvmd "$pid" "$tmp"; then kill -KILL "$pid" 2>/dev/null || true; fi
	done <"$work/vms"
}
# (The supervisor removes the work folder, and halts whatever else is left.)
trap 'halt_vms' EXIT
# A signal ends the script (the EXIT trap then cleans up); a trap that did not exit
# would let the script go on with the next command.
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

median() { sort -g | awk '{a[NR]=$1} END {if (NR==0) print "nan"; else if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
col() { awk -v s="size=$2" '$1==s {sub("median_us=","",$3); print $3}' "$work/pp.$1" | median; }
# The bench programs (make bench builds them; --compare builds what it needs).
PB=$(cd "${PVMMON_BUILD:-build}/bench" 2>/dev/null && pwd || echo "${PVMMON_BUILD:-build}/bench")
# BENCH_ONLY="7 9" runs only the sections named (all by default).
want() { [ -z "${BENCH_ONLY:-}" ] || case " $BENCH_ONLY " in *" $1 "*) ;; *) return 1 ;; esac; }
# The summary table of doc/benchmarks.md (bench/results.tsv): record KEY VALUE notes a
# measure's new value with the date and this run's command; at the script's normal end
# bench/summary.sh takes them (BENCH_NO_SUMMARY=1 leaves the table alone).
record() {
	printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$(date -u '+%Y-%m-%d %H:%MZ')" \
		"${BENCH_ONLY:+BENCH_ONLY=\"$BENCH_ONLY\" }bench/run.sh $REPS" >>"$work/results"
}
ratio() { echo "$1 $2" | awk '{printf "%.3f", $1 / $2}'; }

# The build folder of a clone or of a build folder given.
build_of() {
	if [ -x "$1/build/bin/pvmmon" ]; then (cd "$1/build" && pwd)
	elif [ -x "$1/bin/pvmmon" ]; then (cd "$1" && pwd)
	else echo "bench: $1 is not a built clone or build folder" >&2; exit 2
	fi
}

# Ping-pong round trip (section 1's raw and monitored modes), probe pair cost (section
# 4) and Monte Carlo pi wall time (section 2's mcpi, raw and monitored), for build A
# (OLD) and B (this one): within each repetition A and B take turns, so that both see
# the same machine. probecost is built here for each against its own libpvmhooks.
compare_builds() {
	A=$(build_of "$COMPARE"); B=$(build_of "${PVMMON_BUILD:-build}")
	has() { case ",$SECTIONS," in *",$1,"*) ;; *) return 1 ;; esac; }
	for s in A B; do
		eval "d=\$$s"
		! has probe || cc -O2 -Iinclude -o "$work/probecost.$s" bench/probecost.c \
			-L"$d/lib" -Wl,-rpath,"$d/lib" -lpvmhooks -lpvm3
	done
	! has poll || cc -O2 -o "$work/pollcost" bench/pollcost.c -lpvm3
	echo "pvmmon before/after: A = $A, B = $B; $REPS repetitions, CPUs $CPUS," \
		"$(date -u +%Y-%m-%dT%H:%MZ)"
	echo
	for rep in $(seq "$REPS"); do
		for s in A B; do
			eval "b=\$$s/bin"
			if has pingpong; then
				for mode in raw mon; do
					if [ $mode = raw ]; then flag=--raw; else flag="-o $work/pp.xml"; fi
					for run in "2000 200 8,1024" "300 30 65536,1048576"; do
						set -- $run
						# shellcheck disable=SC2086
						$PIN "$b/pvmmon" run -q $flag -- "$b/pingpong" -n "$1" -w "$2" \
							--timing --sizes "$3" >>"$work/pp.$s-$mode" 2>/dev/null
					done
				done
			fi
			if has poll; then
				# An empty poll's cost, raw and monitored (pollcost uses only libpvm3:
				# each build's pvmmon run puts its own libpvmhooks under it).
				for mode in raw mon; do
					if [ $mode = raw ]; then flag=--raw; else flag="-o $work/pc.xml"; fi
					# shellcheck disable=SC2086
					$PIN "$b/pvmmon" run -q $flag -- "$work/pollcost" 300000 >>"$work/pc.$s-$mode"
				done
			fi
			if has nrecv; then
				# Polling: a busy pvm_nrecv loop, many empty polls per message.
				for mode in raw mon; do
					if [ $mode = raw ]; then flag=--raw; else flag="-o $work/pn.xml"; fi
					# shellcheck disable=SC2086
					$PIN "$b/pvmmon" run -q $flag -- "$b/pingpong" -n 2000 -w 200 --nrecv \
						--timing --sizes 8 >>"$work/pn.$s-$mode" 2>/dev/null
				done
			fi
			if has probe; then
				$PIN "$b/pvmmon" run -q --no-throttle -o "$work/probe.xml" -- \
					"$work/probecost.$s" --pvm 10000000 >>"$work/probe.$s"
			fi
			if has export; then
				# Section 23's log (made once, by this build's biglog): read alone, and
				# read and export to CSV, JSON and OTF2 at once.
				[ -f "$work/xbig.xml" ] || "$B/bench/biglog" "$work/xbig.xml" 64 500 800
				rm -rf "$work/xo" && mkdir -p "$work/xo"
				$PIN /bin/bash -c 'TIMEFORMAT=%R; time "$@" >/dev/null' bash \
					"$b/pvmmon" validate "$work/xbig.xml" 2>>"$work/xread.$s"
				$PIN /bin/bash -c 'TIMEFORMAT=%R; time "$@" >/dev/null 2>&1' bash \
					"$b/pvmmon" export "$work/xbig.xml" --csv "$work/xo/csv" \
					--json "$work/xo/x.json" --otf2 "$work/xo/otf2" 2>>"$work/xall.$s"
			fi
			if has mcpi; then
				for mode in raw mon; do
					BIN=$b
					app_time $mode "$b/mcpi" -w 4 -c 512 -s 1000000 >>"$work/mcpi.$s-$mode"
				done
			fi
		done
	done
	if has pingpong; then
		echo "Ping-pong round trip (median of per-run medians, us; ratio B/A of monitored/raw)"
		printf '%10s %9s %9s %8s %9s %9s %8s %8s\n' size A-raw A-mon A-ratio B-raw B-mon B-ratio B/A
		for sz in 8 1024 65536 1048576; do
			ar=$(col A-raw "$sz"); am=$(col A-mon "$sz"); br=$(col B-raw "$sz"); bm=$(col B-mon "$sz")
			echo "$sz $ar $am $br $bm" | awk '{ra = $3 / $2; rb = $5 / $4
				printf "%10s %9s %9s %8.3f %9s %9s %8.3f %8.3f\n", $1, $2, $3, ra, $4, $5, rb, rb / ra}'
		done
		echo
	fi
	if has nrecv; then
		echo "Ping-pong 8 B polling with pvm_nrecv (median of per-run medians, us; ratio B/A of monitored/raw)"
		pn() { awk '{sub("median_us=","",$3); print $3}' "$work/pn.$1" | median; }
		echo "$(pn A-raw) $(pn A-mon) $(pn B-raw) $(pn B-mon)" | awk '{ra = $2 / $1; rb = $4 / $3
			printf "A raw %s mon %s ratio %.3f;  B raw %s mon %s ratio %.3f;  B/A %.3f\n",
				$1, $2, ra, $3, $4, rb, rb / ra}'
		echo
	fi
	if has poll; then
		echo "Empty poll, and pvm_mytid (median ns per call; ratio B/A of monitored/raw)"
		for k in nrecv probe mytid; do
			pc() { sed "s/.*${k}_ns=\([0-9.]*\).*/\1/" "$work/pc.$1" | median; }
			echo "$k $(pc A-raw) $(pc A-mon) $(pc B-raw) $(pc B-mon)" | awk '{ra = $3 / $2; rb = $5 / $4
				printf "%-6s A raw %s mon %s ratio %.3f;  B raw %s mon %s ratio %.3f;  B/A %.3f\n",
					$1, $2, $3, ra, $4, $5, rb, rb / ra}'
		done
		echo
	fi
	if has probe; then
		echo "Procedure probe pair (median ns; ratio B/A)"
		for k in enabled disabled; do
			a=$(sed "s/.*${k}_ns=\([0-9.]*\).*/\1/" "$work/probe.A" | median)
			b=$(sed "s/.*${k}_ns=\([0-9.]*\).*/\1/" "$work/probe.B" | median)
			printf '%-9s A %8s  B %8s  B/A %.3f\n' "$k" "$a" "$b" "$(echo "$b $a" | awk '{print $1/$2}')"
		done
		echo
	fi
	if has export; then
		echo "Export of the 64-task, 100,800-event log (median wall s): read and validate" \
			"A $(median <"$work/xread.A") B $(median <"$work/xread.B");" \
			"read and export CSV, JSON, OTF2 A $(median <"$work/xall.A") B $(median <"$work/xall.B")"
		echo
	fi
	if has mcpi; then
		echo "Monte Carlo pi, mcpi -w 4 -c 512 -s 1000000 (median wall s; ratio B/A of monitored/raw)"
		ar=$(median <"$work/mcpi.A-raw"); am=$(median <"$work/mcpi.A-mon")
		br=$(median <"$work/mcpi.B-raw"); bm=$(median <"$work/mcpi.B-mon")
		echo "$ar $am $br $bm" | awk '{ra = $2 / $1; rb = $4 / $3
			printf "A raw %ss mon %ss ratio %.3f;  B raw %ss mon %ss ratio %.3f;  B/A %.3f\n",
				$1, $2, ra, $3, $4, rb, rb / ra}'
	fi
}

# Application wall time (the program's own, measured by the shell inside the run):
# section 2 and the comparison. mode is raw or mon.
app_time() { # mode program args...
	mode=$1; shift
	if [ "$mode" = raw ]; then flag=--raw; else flag="-o $work/app.xml"; fi
	# The program's folder is put on PATH so that the private VM's spawn path has it.
	PATH="$BIN:$PATH" $PIN "$BIN/pvmmon" run -q $flag -- /bin/bash -c \
		'TIMEFORMAT=%R; time "$@" >/dev/null' bash "$@" 2>&1 >/dev/null | tail -n 1
}

if [ -n "$COMPARE" ]; then
	compare_builds
	exit 0
fi

echo "pvmmon benchmarks: $REPS repetitions, CPUs $CPUS, $(date -u +%Y-%m-%dT%H:%MZ)"
echo

if want 1; then
# 1. Ping-pong round trip, 8 B .. 1 MiB, in three interleaved modes: raw PVM; raw PVM
# with a bare trailing message in a private context (the scheme's own cost, no
# monitoring); monitored. Large messages take fewer round trips to keep the run short.
pp() { # mode out-file iterations warmup sizes
	case $1 in
	raw) flag=--raw; extra= ;;
	bare) flag=--raw; extra=--trailer ;;
	mon) flag="-o $work/pp.xml"; extra= ;;
	esac
	# shellcheck disable=SC2086
	$PIN "$BIN/pvmmon" run -q $flag -- "$BIN/pingpong" -n "$3" -w "$4" --timing --sizes "$5" \
		$extra >>"$2" 2>/dev/null
}
for rep in $(seq "$REPS"); do
	for mode in raw bare mon; do
		pp $mode "$work/pp.$mode" 2000 200 8,1024
		pp $mode "$work/pp.$mode" 300 30 65536,1048576
	done
done
echo "Ping-pong round trip (median of per-run medians, microseconds)"
printf '%10s %10s %10s %10s %12s %12s\n' size raw bare-trailer monitored monitored/raw monitored/bare
for s in 8 1024 65536 1048576; do
	r=$(col raw "$s"); b=$(col bare "$s"); m=$(col mon "$s")
	printf '%10s %10s %10s %10s %12.3f %12.3f\n' "$s" "$r" "$b" "$m" \
		"$(echo "$m $r" | awk '{print $1/$2}')" "$(echo "$m $b" | awk '{print $1/$2}')"
	k=$(case $s in 8) echo 8 ;; 1024) echo 1k ;; 65536) echo 64k ;; *) echo 1m ;; esac)
	record "pp.$k.bare" "$(ratio "$m" "$b")"
	case $k in 8 | 1m) record "pp.$k.raw" "$(ratio "$m" "$r")" ;; esac
done
echo
fi

if want 2; then
# 2. Application wall time (the program's own, measured by the shell inside the run:
# app_time above).
for app in "matmul -n 400 -w 4 -i 8" "mcpi -w 4 -c 512 -s 1000000"; do
	: >"$work/t.raw"; : >"$work/t.mon"
	for rep in $(seq "$REPS"); do
		# Which mode goes first alternates (the first run of a pair was seen slower
		# in section 19, whatever it ran).
		order="raw mon"
		[ $((rep % 2)) = 0 ] && order="mon raw"
		for mode in $order; do
			# shellcheck disable=SC2086
			app_time $mode "$BIN/"$app >>"$work/t.$mode"
		done
	done
	r=$(median <"$work/t.raw"); m=$(median <"$work/t.mon")
	printf '%-32s raw %6ss  monitored %6ss  ratio %.3f\n' "$app" "$r" "$m" \
		"$(echo "$m $r" | awk '{print $1/$2}')"
	record "app.${app%% *}" "$(ratio "$m" "$r")"
done
echo
fi

if want 3; then
# 3. Log size against the number of messages, next to PVM's own full trace of the same
# program (console `spawn -@FILE`), on a private pvmd started and stopped here.
pvm_trace_size() { # round-trips
	vm="$work/vm"; mkdir -p "$vm/tmp"
	echo "* ep=$BIN:${PVM_ROOT:-/usr/lib/pvm3}/lib wd=$vm" >"$vm/hostfile"
	(
		export PVM_TMP="$vm/tmp" PVM_ROOT="${PVM_ROOT:-/usr/lib/pvm3}" PVM_ALLOW_ROOT=1
		setsid "$PVM_ROOT/lib/pvmd" "$vm/hostfile" >"$vm/pvmd.out" 2>&1 </dev/null &
		pvmd=$!
		echo "$pvmd $vm/tmp" >>"$work/vms"
		i=0; while [ ! -s "$vm/tmp/pvmd.$(id -u)" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
		# The console stays until the trace file has stopped growing (the job is over).
		(echo "spawn -@$vm/pp.trc -> pingpong -n $1 -w 0"
		 last=-1; while :; do sleep 1; now=$(stat -c %s "$vm/pp.trc" 2>/dev/null || echo 0)
			[ "$now" -gt 0 ] && [ "$now" = "$last" ] && break; last=$now; done
		 echo quit) | env -u LD_PRELOAD pvm >/dev/null 2>&1 || true
		kill "$pvmd"; wait "$pvmd" 2>/dev/null || true
	)
	stat -c %s "$vm/pp.trc"; rm -rf "$vm"
}
echo "Log size by messages (pingpong, 8 B): pvmmon log vs PVM's full trace"
for n in 5000 50000; do
	"$BIN/pvmmon" run -q -o "$work/size.xml" -- "$BIN/pingpong" -n "$n" -w 0 >/dev/null 2>&1
	bytes=$(stat -c %s "$work/size.xml")
	trace=$(pvm_trace_size "$n")
	printf '%8d messages: pvmmon log %7d bytes (%.3f B/message); PVM trace %9d bytes (%.1f B/message)\n' \
		$((2 * n)) "$bytes" "$(echo "$bytes $n" | awk '{print $1/(2*$2)}')" "$trace" \
		"$(echo "$trace $n" | awk '{print $1/(2*$2)}')"
	[ "$n" != 50000 ] || record log.bpm "$(echo "$bytes $n" | awk '{printf "%.3f", $1/(2*$2)}')"
done
echo
fi

if want 4; then
# 4. Probe cost (pvmmon-cc's procedure probes), ns per entry+exit pair, in a registered
# task (probecost --pvm under pvmmon run --no-throttle: run alone, its sites switch
# themselves off at their first entry, and the "enabled" pair measured nothing): an
# out-of-line procedure with pvmmon-cc's scope probes against the same one without.
for rep in $(seq "$REPS"); do
	$PIN "$BIN/pvmmon" run -q --no-throttle -o "$work/probe.xml" -- "$PB/probecost" --pvm 10000000
done >"$work/probe"
en=$(sed 's/.*enabled_ns=\([0-9.]*\).*/\1/' "$work/probe" | median)
dis=$(sed 's/.*disabled_ns=\([0-9.]*\).*/\1/' "$work/probe" | median)
echo "Procedure probe pair: enabled ${en} ns, disabled ${dis} ns"
record probe.on "$en"
record probe.off "$dis"
echo
fi

if want 20; then
# 20. The probe clock (issue 24; beside section 4, which times probes of an unregistered
# process: their sites switch themselves off outside a run). probecost --pvm registers
# first, under pvmmon run --no-throttle (the trivial body would be demoted at once),
# so both pairs are a monitored task's: with the clock tasks choose here (the log's
# clock attribute says which) and with PVMMON_CLOCK=monotonic, interleaved in each
# repetition; the disabled pair (the scope's inline test and off count) from the same
# runs. Medians.
for rep in $(seq "$REPS"); do
	for m in auto monotonic; do
		PVMMON_CLOCK=$m $PIN "$BIN/pvmmon" run -q --no-throttle -o "$work/pclk.xml" -- \
			"$PB/probecost" --pvm 10000000 >>"$work/pclk.$m"
		grep -o 'clock="[a-z]*"' "$work/pclk.xml" | head -n 1 >>"$work/pclk-name.$m"
	done
done
for m in auto monotonic; do
	en=$(sed 's/.*enabled_ns=\([0-9.]*\).*/\1/' "$work/pclk.$m" | median)
	dis=$(sed 's/.*disabled_ns=\([0-9.]*\).*/\1/' "$work/pclk.$m" | median)
	clk=$(sort -u "$work/pclk-name.$m" | sed 's/clock="\(.*\)"/\1/' | tr '\n' ' ')
	echo "Probe clock $m (tasks read: ${clk% }): enabled pair ${en} ns (range" \
		"$(sed 's/.*enabled_ns=\([0-9.]*\).*/\1/' "$work/pclk.$m" | sort -g | head -n 1) to" \
		"$(sed 's/.*enabled_ns=\([0-9.]*\).*/\1/' "$work/pclk.$m" | sort -g | tail -n 1))," \
		"disabled ${dis} ns"
done
echo "(clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null);" \
	"$REPS repetitions, interleaved; targets: enabled <= 30 ns with the TSC, disabled <= 1 ns)"
echo
fi

if want 5; then
# 5. A call-heavy program (10^8 calls of a tiny procedure) built four ways.
echo "Call-heavy program, 10^8 calls (median seconds; ratio to the plain build)"
for v in plain gprof cyg pvmmon; do : >"$work/calls.$v"; done
for rep in $(seq 3); do
	for v in plain gprof cyg pvmmon; do
		# gprof writes gmon.out into the current folder: the scratch folder.
		(cd "$work" && $PIN /bin/bash -c 'TIMEFORMAT=%R; time "$@" >/dev/null' bash \
			"$PB/calls-$v" 100000000 2>>"$work/calls.$v")
	done
done
p=$(median <"$work/calls.plain")
for v in plain gprof cyg pvmmon; do
	t=$(median <"$work/calls.$v")
	printf '%-8s %8ss  ratio %7.2f\n' "$v" "$t" "$(echo "$t $p" | awk '{print $1/$2}')"
done
echo
fi

if want 6; then
# 6. Compile time of the apps: pvmmon-cc (parse with libclang, rewrite, gcc) against
# gcc alone, the same flags, each app compiled to an object file; median of the totals.
echo "Compile time of apps/*.c (-O2 -g -c; median seconds for all files)"
: >"$work/cc.gcc"; : >"$work/cc.pvmmon"
ctime() { # compiler
	$PIN /bin/bash -c 'TIMEFORMAT=%R; time for f in apps/*.c; do
		"$1" -O2 -g -c -o "$2/obj.o" "$f" || exit 1; done' bash "$1" "$work" 2>&1
}
for rep in $(seq "$REPS"); do
	ctime gcc >>"$work/cc.gcc"
	ctime "$BIN/pvmmon-cc" >>"$work/cc.pvmmon"
done
g=$(median <"$work/cc.gcc"); c=$(median <"$work/cc.pvmmon")
printf 'gcc %ss  pvmmon-cc %ss  ratio %.2f  (%d files)\n' "$g" "$c" \
	"$(echo "$c $g" | awk '{print $1/$2}')" "$(ls apps/*.c | wc -l)"
# Optional: one large real file, BENCH_SQLITE=PATH/sqlite3.c (the SQLite amalgamation,
# fetched by hand: doc/benchmarks.md says how; section 29 fetches its own copy with
# npm), compiled once each with -Wall -Wextra -O2 -c: seconds and warnings.
if [ -n "${BENCH_SQLITE:-}" ]; then
	for cc in gcc "$BIN/pvmmon-cc"; do
		t=$($PIN /bin/bash -c 'TIMEFORMAT=%R; { time "$1" -Wall -Wextra -O2 -c \
			-o "$2/sq.o" "$3" 2>"$2/sq.err"; } 2>&1' bash "$cc" "$work" "$BENCH_SQLITE")
		printf '%s: sqlite3.c %ss, %d warnings\n' "$(basename "$cc")" "$t" \
			"$(grep -c 'warning:' "$work/sq.err")"
	done
fi
echo
fi

if want 7; then
# 7. Rendering the HTML report of a large run: a synthetic log of 64 tasks and 500
# statements (bench/biglog), default pruning and with nothing pruned; median seconds.
"$PB/biglog" "$work/big.xml" 64 500
# The same run with an event trace that fills the default 16M limit: 64 tasks, 100,800
# events; its report adds the space-time diagram in virtual and real time.
"$PB/biglog" "$work/bigtrace.xml" 64 500 800
for v in default noprune traced; do : >"$work/rep.$v"; done
for rep in $(seq "$REPS"); do
	$PIN /bin/bash -c 'TIMEFORMAT=%R; time "$@" >/dev/null' bash \
		"$BIN/pvmmon" report "$work/big.xml" -o "$work/rep" 2>>"$work/rep.default"
	$PIN /bin/bash -c 'TIMEFORMAT=%R; time "$@" >/dev/null' bash \
		"$BIN/pvmmon" report "$work/big.xml" -o "$work/rep" --prune 0 2>>"$work/rep.noprune"
	$PIN /bin/bash -c 'TIMEFORMAT=%R; time "$@" >/dev/null' bash \
		"$BIN/pvmmon" report "$work/bigtrace.xml" -o "$work/rep" --time both 2>>"$work/rep.traced"
done
echo "HTML report of 64 tasks / 500 statements: $(median <"$work/rep.default")s" \
	"(--prune 0: $(median <"$work/rep.noprune")s;" \
	"traced, $(stat -c %s "$work/bigtrace.xml") B log, space-time both axes: $(median <"$work/rep.traced")s)"
# The traced report (the loop's last) opened in headless Chromium: a copy of its
# index.html that, at the load event, writes the Paint and Navigation Timing entries
# into the page for --dump-dom; first paint and load in ms.
if [ -x /usr/bin/chromium ]; then
	{ cat "$work/rep/index.html"; printf '%s\n' "<script>window.addEventListener('load',function(){var n=performance.getEntriesByType('navigation')[0],f=performance.getEntriesByType('paint')[0],x=document.createElement('pre');x.textContent='TIMING '+(f?f.startTime:NaN).toFixed(0)+' '+n.loadEventStart.toFixed(0)+' END';document.body.appendChild(x);});</script>"; } >"$work/rep/timing.html"
	: >"$work/paint"; : >"$work/load"
	for rep in $(seq "$REPS"); do
		/usr/bin/chromium --headless --no-sandbox --disable-gpu --no-first-run \
			--user-data-dir="$work/profile" --dump-dom "file://$work/rep/timing.html" \
			2>/dev/null | sed -n 's/.*TIMING \([0-9]*\) \([0-9]*\) END.*/\1 \2/p' >"$work/t"
		awk '{print $1}' "$work/t" >>"$work/paint"; awk '{print $2}' "$work/t" >>"$work/load"
	done
	echo "traced report ($(stat -c %s "$work/rep/index.html") B index.html) in Chromium:" \
		"first paint $(median <"$work/paint") ms, load $(median <"$work/load") ms"
fi
echo
fi

if want 8; then
# 8. What the event trace costs a task: ping-pong round trips (8 B and 1 KiB)
# monitored, and monitored with --trace, interleaved.
for rep in $(seq "$REPS"); do
	for mode in tmon trace; do
		if [ $mode = trace ]; then flag=--trace; else flag=; fi
		# shellcheck disable=SC2086
		$PIN "$BIN/pvmmon" run -q -o "$work/pt.xml" $flag -- "$BIN/pingpong" -n 2000 -w 200 \
			--timing --sizes 8,1024 >>"$work/pp.$mode" 2>/dev/null
	done
done
echo "Trace cost: ping-pong round trip (median of per-run medians, microseconds)"
printf '%10s %10s %10s %10s\n' size monitored traced traced/monitored
for s in 8 1024; do
	m=$(col tmon "$s"); t=$(col trace "$s")
	printf '%10s %10s %10s %10.3f\n' "$s" "$m" "$t" "$(echo "$t $m" | awk '{print $1/$2}')"
done
echo
fi

if want 9; then
# 9. Critical-path overhead (seed 003 Figures 6 and 7): cprate (two tasks computing
# three quarters of the time and exchanging messages at RATE per task) raw, monitored
# (profile mode) and with 1, 4, 8, 16 and 32 procedures selected for critical-path
# profiling that the program never calls, so the figures are the cost of carrying and
# merging the tuples. Median wall seconds of the exchange loop; ratios to monitored.
cpnames() { i=0; s=; while [ $i -lt "$1" ]; do s="$s${s:+,}p$i"; i=$((i + 1)); done; echo "$s"; }
echo "Critical-path overhead (cprate, 2 s per run; median wall s; ratio to monitored)"
printf '%8s %8s %8s %9s' rate bytes raw monitored
for k in 1 4 8 16 32; do printf ' %12s' "cp$k"; done
echo
for spec in 5:48000 50:4800 150:480; do
	rate=${spec%%:*}; bytes=${spec#*:}
	for mode in raw mon 1 4 8 16 32; do : >"$work/cpr.$mode"; done
	for rep in $(seq "$REPS"); do
		for mode in raw mon 1 4 8 16 32; do
			case $mode in
			raw) flag=--raw ;;
			mon) flag="-o $work/cpr.xml" ;;
			*) flag="-o $work/cpr.xml --cp=$(cpnames "$mode")" ;;
			esac
			# shellcheck disable=SC2086
			PATH="$PB:$PATH" $PIN "$BIN/pvmmon" run -q $flag -- "$PB/cprate" "$rate" 2 "$bytes" \
				2>/dev/null | sed 's/.*wall_s=\([0-9.]*\).*/\1/' >>"$work/cpr.$mode"
		done
	done
	m=$(median <"$work/cpr.mon")
	printf '%8s %8s %8s %9s' "$rate" "$bytes" "$(median <"$work/cpr.raw")" "$m"
	for k in 1 4 8 16 32; do
		c=$(median <"$work/cpr.$k")
		printf ' %6s %5.3f' "$c" "$(echo "$c $m" | awk '{print $1/$2}')"
	done
	echo
done
fi

if want 10; then
# 10. Record and replay: Monte Carlo pi with 8 workers, raw, monitored without a record,
# recorded (the default), and replayed; median wall seconds of the program and the
# record's size per recorded event. Twice: 10^5 wildcard receives of chunks of 200
# samples (about 2 us of work: the run is nearly all messages), and 2000 chunks of
# 10^6 samples (about 7 ms each: a program that computes between messages).
rr_time() { # samples chunks flags...
	local s=$1 c=$2
	shift 2
	PATH="$BIN:$PATH" $PIN "$BIN/pvmmon" "$@" -- /bin/bash -c \
		'TIMEFORMAT=%R; time "$@" >/dev/null' bash "$BIN/mcpi" -w 8 -c "$c" -s "$s" \
		2>&1 >/dev/null | tail -n 1
}
for load in "200 100000" "1000000 2000"; do
smp=${load% *} chk=${load#* }
echo "Record and replay (mcpi -w 8 -c $chk -s $smp; median wall s; ratio to raw)"
: >"$work/rr.raw"; : >"$work/rr.norec"; : >"$work/rr.rec"; : >"$work/rr.rep"
for rep in $(seq "$REPS"); do
	rr_time "$smp" "$chk" run -q --raw >>"$work/rr.raw"
	rr_time "$smp" "$chk" run -q --no-record -o "$work/norec.xml" >>"$work/rr.norec"
	rr_time "$smp" "$chk" run -q -o "$work/rec.xml" >>"$work/rr.rec"
done
# The replay replays the program the record was made of: the shell running mcpi.
for rep in $(seq "$REPS"); do
	rr_time "$smp" "$chk" replay "$work/rec.xml" -q -o "$work/rep.xml" >>"$work/rr.rep"
done
r=$(median <"$work/rr.raw")
for v in norec rec rep; do
	t=$(median <"$work/rr.$v")
	printf '%-8s %8ss  ratio %.3f\n' "$v" "$t" "$(echo "$t $r" | awk '{print $1/$2}')"
	# The summary's figures are the load that computes between messages.
	if [ "$smp" = 1000000 ] && [ $v != norec ]; then record "rr.$v" "$(ratio "$t" "$r")"; fi
done
printf 'raw      %8ss\n' "$r"
grep -o '<record entries="[0-9]*" bytes="[0-9]*"' "$work/rec.xml" | sed 's/[^0-9 ]//g' |
	awk '{e+=$1; b+=$2} END {printf "record: %d events in %d bytes, %.3f bytes per event\n", e, b, b/e}' |
	tee "$work/rr.bytes"
[ "$smp" != 1000000 ] || record rr.bytes "$(sed 's/.*, \([0-9.]*\) bytes per event/\1/' "$work/rr.bytes")"
done
fi

if want 11; then
# 11. Preserve mode (issue 5): Monte Carlo pi with 8 workers, raw, plain monitoring
# and preserve mode, median wall seconds; control messages per decision (mean, and the
# most one receive took); the monitor's evaluation time per decision against the
# number of tasks (order: one wildcard-receiving master and N sleeping workers).
echo "Preserve mode (mcpi -w 8 -c 2000 -s 20000; median wall s; ratio to raw)"
: >"$work/pr.raw"; : >"$work/pr.plain"; : >"$work/pr.pres"
pr_time() { # flags...
	PATH="$BIN:$PATH" $PIN "$BIN/pvmmon" run -q "$@" -- /bin/bash -c \
		'TIMEFORMAT=%R; time "$@" >/dev/null' bash "$BIN/mcpi" -w 8 -c 2000 -s 20000 \
		2>&1 >/dev/null | tail -n 1
}
setting() { grep -o "key=\"$2\" value=\"[^\"]*\"" "$1" | sed 's/.*value="//; s/"//'; }
for rep in $(seq "$REPS"); do
	pr_time --raw >>"$work/pr.raw"
	pr_time --no-record -o "$work/plain.xml" >>"$work/pr.plain"
	pr_time --no-record --mode=preserve -o "$work/pres.xml" >>"$work/pr.pres"
done
r=$(median <"$work/pr.raw")
for v in plain pres; do
	t=$(median <"$work/pr.$v")
	printf '%-8s %8ss  ratio %.3f\n' "$v" "$t" "$(echo "$t $r" | awk '{print $1/$2}')"
done
printf 'raw      %8ss\n' "$r"
record pres.plain "$(ratio "$(median <"$work/pr.pres")" "$(median <"$work/pr.plain")")"
record pres.cmsg "$(setting "$work/pres.xml" preserve-control-messages-per-decision)"
printf 'decisions %s, control messages %s: %s per decision, at most %s for one receive; asks %s\n' \
	"$(setting "$work/pres.xml" preserve-decisions)" \
	"$(setting "$work/pres.xml" preserve-control-messages)" \
	"$(setting "$work/pres.xml" preserve-control-messages-per-decision)" \
	"$(setting "$work/pres.xml" preserve-control-messages-max)" \
	"$(setting "$work/pres.xml" preserve-asks)"
echo "Decision cost at the monitor against tasks (order -s -u 2000 -n 2 -w N, preserve)"
printf '%8s %14s %14s %14s\n' tasks eval-ns-mean eval-ns-max wait-us-mean
for n in 4 8 16 32 64 128; do
	PATH="$BIN:$PATH" $PIN "$BIN/pvmmon" run -q --no-record --mode=preserve -o "$work/ord.xml" \
		-- "$BIN/order" -s -u 2000 -n 2 -w "$n" >/dev/null 2>&1 || true
	printf '%8s %14s %14s %14s\n' "$((n + 1))" \
		"$(setting "$work/ord.xml" preserve-evaluation-ns-mean)" \
		"$(setting "$work/ord.xml" preserve-evaluation-ns-max)" \
		"$(($(setting "$work/ord.xml" preserve-decision-wait-ns-mean) / 1000))"
done
fi

if want 12; then
# 12. Load: flood, 128 worker tasks passing 10^5 and 10^6 small messages round a ring
# (lock step, so nothing queues without bound), raw and monitored, interleaved. The
# program's own wall time (`time` inside the run, as in section 2), the monitor's peak
# RSS (the log's monitor-peak-rss-kb) and the largest peak RSS of any task (the
# workers' and the master's VmHWM, as flood prints them). A 10^6 run takes over a
# minute monitored, so this section makes at most 3 repetitions.
LREPS=$((REPS < 3 ? REPS : 3))
echo "Load: flood, 128 workers on one host ($LREPS repetitions; median wall s; largest peak RSS, kB)"
load_run() { # mode messages: appends "wall task-kB monitor-kB" to $work/load.MODE.MESSAGES
	out="$work/load.out"; : >"$out"
	if [ "$1" = raw ]; then flag=--raw; else flag="-o $work/load.xml"; fi
	# shellcheck disable=SC2086
	t=$(PATH="$BIN:$PATH" $PIN "$BIN/pvmmon" run -q $flag -- /bin/bash -c \
		'o=$1; shift; TIMEFORMAT=%R; time "$@" >"$o"' bash "$out" "$BIN/flood" -m "$2" \
		2>&1 >/dev/null | tail -n 1)
	if ! grep -q "messages=$2 checksum=.* ok" "$out"; then
		echo "flood -m $2 ($1) failed: $t" >&2
		exit 1
	fi
	task=$(sed -n 's/.*workers-max=\([0-9]*\) .*master=\([0-9]*\).*/\1 \2/p' "$out" |
		awk '{print ($1 > $2) ? $1 : $2}')
	mon=-
	if [ "$1" = mon ]; then
		mon=$(sed -n 's/.*key="monitor-peak-rss-kb" value="\([0-9]*\)".*/\1/p' "$work/load.xml")
	fi
	echo "$t $task $mon" >>"$work/load.$1.$2"
}
for m in 100000 1000000; do : >"$work/load.raw.$m"; : >"$work/load.mon.$m"; done
for _ in $(seq "$LREPS"); do
	for m in 100000 1000000; do
		load_run raw "$m"
		load_run mon "$m"
	done
done
printf '%10s %10s %8s %8s %12s %12s\n' messages mode wall ratio monitor-kB max-task-kB
for m in 100000 1000000; do
	r=$(awk '{print $1}' "$work/load.raw.$m" | median)
	for mode in raw mon; do
		w=$(awk '{print $1}' "$work/load.$mode.$m" | median)
		printf '%10s %10s %8s %8.3f %12s %12s\n' "$m" "$mode" "$w" \
			"$(echo "$w $r" | awk '{print $1/$2}')" \
			"$(awk '{if ($3 != "-" && $3 > x) x = $3} END {print x ? x : "-"}' "$work/load.$mode.$m")" \
			"$(awk '$2 > x {x = $2} END {print x}' "$work/load.$mode.$m")"
		[ "$m.$mode" != 1000000.mon ] || record load.ratio "$(ratio "$w" "$r")"
	done
done
echo
fi

if want 14; then
# 14. Cost budget and observed cost (dynamic instrumentation). callheavy (millions of
# small calls a second) built plain and with pvmmon-cc: the plain build unmonitored is
# the reference; the pvmmon-cc build monitored with no budget and with budgets of 2%,
# 5% and 10%, and unmonitored (--raw: its probes switch themselves off, the static
# cost of instrumentation); the program's own wall time (time inside the run, no VM
# start), medians.
# Then observed cost against measured slowdown on three programs: the monitor's
# estimate is the root task's intrusion over its virtual time (I / vt at its end).
echo "Cost budget: callheavy -n 150000000 -w 40 (median wall s; slowdown vs plain unmonitored)"
ch_time() { # binary log flags...
	b=$1; l=$2; shift 2
	PATH="$BIN:$PATH" $PIN "$BIN/pvmmon" run -q "$@" -o "$l" -- /bin/bash -c \
		'TIMEFORMAT=%R; time "$@" >/dev/null' bash "$b" -n 150000000 -w 40 \
		2>&1 >/dev/null | tail -n 1
}
for v in plain ccraw none b2 b5 b10; do : >"$work/ch.$v"; done
for rep in $(seq "$REPS"); do
	for b in "$BIN/callheavy" "$PB/callheavy-cc"; do
		PATH="$BIN:$PATH" $PIN "$BIN/pvmmon" run -q --raw -- /bin/bash -c \
			'TIMEFORMAT=%R; time "$@" >/dev/null' bash "$b" -n 150000000 -w 40 \
			2>&1 >/dev/null | tail -n 1 >>"$work/ch.$([ "$b" = "$BIN/callheavy" ] && echo plain || echo ccraw)"
	done
	ch_time "$PB/callheavy-cc" "$work/ch-none.xml" >>"$work/ch.none"
	for b in 2 5 10; do
		ch_time "$PB/callheavy-cc" "$work/ch-b$b.xml" --budget=$b% >>"$work/ch.b$b"
	done
done
r=$(median <"$work/ch.plain")
# observed: the log's observed-ns over the task's real time; off: its static-ns (what
# the switched-off sites cost, as the budget estimates it) over the same. Both from
# the last run of each budget.
printf '%-10s %8s %10s %10s %10s %9s\n' budget wall slowdown observed off switches
printf '%-10s %8s %10s %10s %10s %9s\n' "unmonitored" "$r" "-" "-" "-" "-"
t=$(median <"$work/ch.ccraw")
printf '%-10s %8s %9.1f%% %10s %10s %9s\n' "cc, --raw" "$t" "$(echo "$t $r" | awk '{print 100 * ($1 / $2 - 1)}')" "-" "-" "-"
for v in none b2 b5 b10; do
	t=$(median <"$work/ch.$v")
	obs=$(sed -n 's/.*<cost .*observed-ns="\([0-9]*\)".*/\1/p' "$work/ch-$v.xml")
	off=$(sed -n 's/.*<cost .*static-ns="\([0-9]*\)".*/\1/p' "$work/ch-$v.xml")
	span=$(sed -n 's/.*<task .*start-ns="\([0-9]*\)" end-ns="\([0-9]*\)".*/\1 \2/p' "$work/ch-$v.xml")
	printf '%-10s %8s %9.1f%% %9.1f%% %9.1f%% %9s\n' "${v#b}" "$t" \
		"$(echo "$t $r" | awk '{print 100 * ($1 / $2 - 1)}')" \
		"$(echo "$obs $span" | awk '{print 100 * $1 / ($3 - $2)}')" \
		"$(echo "${off:-0} $span" | awk '{print 100 * $1 / ($3 - $2)}')" \
		"$(grep -c '<switch ' "$work/ch-$v.xml" || true)"
done
echo
echo "Observed cost vs measured slowdown (median wall s; estimate = root task I / vt)"
est() { # log: the root task's intrusion over its virtual time, percent
	sed -n 's/.*<task [^>]*lid="0" [^>]*virtual-ns="\([0-9]*\)" intrusion-ns="\([0-9]*\)".*/\1 \2/p' "$1" |
		awk '{print 100 * $2 / $1}'
}
oc_time() { # raw|mon log program args...
	m=$1; l=$2; shift 2
	if [ "$m" = raw ]; then flag=--raw; else flag="--no-record -o $l"; fi
	# shellcheck disable=SC2086
	PATH="$BIN:$PATH" $PIN "$BIN/pvmmon" run -q $flag -- /bin/bash -c \
		'TIMEFORMAT=%R; time "$@" >/dev/null' bash "$@" 2>&1 >/dev/null | tail -n 1
}
# A slowdown of a few percent is within the machine's run-to-run noise: each
# monitored run is paired with the raw run just before it, the slowdown is the
# median of the pairs' ratios, over at least 9 pairs.
OC_REPS=$((REPS > 9 ? REPS : 9))
printf '%-28s %8s %8s %10s %10s %8s\n' program raw monitored slowdown estimate diff
# mcpi-w1 is mcpi with one worker: with two, three busy processes, the pvmd and the
# monitor share the machine's two CPUs, and a task woken by a message often waits
# for one in the raw run too.
for prog in "callheavy-w200" "mcpi" "mcpi-w1" "matmul"; do
	case $prog in
	callheavy-w200) raw="$BIN/callheavy -n 20000000 -w 200"; mon="$PB/callheavy-cc -n 20000000 -w 200" ;;
	mcpi) raw="$BIN/mcpi -w 2 -c 2000 -s 400000"; mon=$raw ;;
	mcpi-w1) raw="$BIN/mcpi -w 1 -c 2000 -s 400000"; mon=$raw ;;
	matmul) raw="$BIN/matmul -n 1000 -w 2 -i 4"; mon=$raw ;;
	esac
	: >"$work/oc.raw"; : >"$work/oc.mon"; : >"$work/oc.est"; : >"$work/oc.ratio"
	for rep in $(seq "$OC_REPS"); do
		# shellcheck disable=SC2086
		a=$(oc_time raw - $raw)
		# shellcheck disable=SC2086
		b=$(oc_time mon "$work/oc.xml" $mon)
		echo "$a" >>"$work/oc.raw"
		echo "$b" >>"$work/oc.mon"
		echo "$b $a" | awk '{print 100 * ($1 / $2 - 1)}' >>"$work/oc.ratio"
		est "$work/oc.xml" >>"$work/oc.est"
	done
	r=$(median <"$work/oc.raw"); m=$(median <"$work/oc.mon"); e=$(median <"$work/oc.est")
	s=$(median <"$work/oc.ratio")
	printf '%-28s %8s %8s %9.1f%% %9.1f%% %7.1fpp\n' "$prog" "$r" "$m" "$s" "$e" \
		"$(echo "$s $e" | awk '{d = $1 - $2; print d < 0 ? -d : d}')"
done
echo
fi

if want 13; then
# 13. Overhead compensation (seed 002 Table 1): the error of each task's main procedure
# time in the log against the unmonitored program, with no compensation (real time),
# local compensation (each task's own monitoring removed) and parallel compensation
# (the virtual clock). Both programs are built with pvmmon-cc and their instrumentation
# is made heavy by the test-only probe delay on the workers (stages), so that the
# uncompensated error is large. The unmonitored reference is the same source built with
# the plain compiler. mcpi -T prints its own master and worker times; for pipeline the
# reference is the program's wall time (`time` inside the run, as in section 2), which
# also holds its process start.
cw="$work/comp"; mkdir -p "$cw/plain" "$cw/mon"
for p in mcpi mcpi-worker pipeline pipeline-stage; do
	cc -O2 -o "$cw/plain/$p" "apps/$p.c" -lpvm3
	"$BIN/pvmmon-cc" -O2 -o "$cw/mon/$p" "$(pwd)/apps/$p.c" -lpvm3
done
# The main procedure of task LID in LOG: "raw local virtual", seconds.
main_times() { # log lid
	awk -v lid="$2" '
		/<task / { cur = ""; if (match($0, / lid="[^"]*"/)) cur = substr($0, RSTART + 6, RLENGTH - 7) }
		/<proc name="main"/ && cur == lid && $0 !~ / caller=/ {
			split("raw-incl-ns local-incl-ns incl-ns", k, " ")
			for (i = 1; i <= 3; i++) {
				match($0, " " k[i] "=\"[0-9-]*\""); v[i] = substr($0, RSTART + length(k[i]) + 3, RLENGTH - length(k[i]) - 4) / 1e9
			}
			print v[1], v[2], v[3]; exit
		}' "$1"
}
comp_mcpi="-w 2 -c 100 -s 10000000 -T"
comp_pipe="-s 2 -m 100 -u 30 -p 1 -c 1"
: >"$cw/mcpi.ref"; : >"$cw/pipe.ref"; : >"$cw/mcpi.m"; : >"$cw/mcpi.w"; : >"$cw/pipe.m"
for _ in $(seq "$REPS"); do
	# shellcheck disable=SC2086
	out=$(cd "$cw/plain" && $PIN "$BIN/pvmmon" run -q --raw -- ./mcpi $comp_mcpi)
	echo "$out" | awk '/time master/ {m = $4 / 1e6} /time worker/ {w += $5 / 1e6; n++} END {print m, w / n}' >>"$cw/mcpi.ref"
	# shellcheck disable=SC2086
	(cd "$cw/mon" && PVMMON_TEST_PROBE_DELAY=20000:0.0,0.1 $PIN "$BIN/pvmmon" run -q \
		-o "$cw/mcpi.xml" -- ./mcpi $comp_mcpi >/dev/null)
	main_times "$cw/mcpi.xml" 0 >>"$cw/mcpi.m"
	{ main_times "$cw/mcpi.xml" 0.0; main_times "$cw/mcpi.xml" 0.1; } |
		awk '{for (i = 1; i <= 3; i++) s[i] += $i / 2} END {print s[1], s[2], s[3]}' >>"$cw/mcpi.w"
	# shellcheck disable=SC2086
	# The program's folder on PATH puts it on the private VM's spawn path (section 2).
	(cd "$cw/plain" && PATH="$cw/plain:$PATH" $PIN "$BIN/pvmmon" run -q --raw -- /bin/bash -c \
		'TIMEFORMAT=%R; time ./pipeline "$@" >/dev/null' bash $comp_pipe) 2>&1 | tail -n 1 >>"$cw/pipe.ref"
	# shellcheck disable=SC2086
	(cd "$cw/mon" && PVMMON_TEST_PROBE_DELAY=5000:0.0,0.1 $PIN "$BIN/pvmmon" run -q \
		-o "$cw/pipe.xml" -- ./pipeline $comp_pipe >/dev/null)
	main_times "$cw/pipe.xml" 0 >>"$cw/pipe.m"
done
echo "Overhead compensation: main's time in the log vs unmonitored ($REPS repetitions, medians, s; error %)"
printf '%-44s %9s %17s %17s %17s\n' "program (task)" unmonitored none local parallel
comp_row() { # label reference-file reference-column measured-file
	ref=$(awk -v c="$3" '{print $c}' "$2" | median)
	line=$(printf '%-44s %9.3f' "$1" "$ref")
	for c in 1 2 3; do
		v=$(awk -v c="$c" '{print $c}' "$4" | median)
		line="$line $(printf '%8.3f (%+5.1f%%)' "$v" "$(echo "$v $ref" | awk '{print 100 * ($1 - $2) / $2}')")"
	done
	echo "$line"
}
comp_row "mcpi $comp_mcpi (master)" "$cw/mcpi.ref" 1 "$cw/mcpi.m"
comp_row "mcpi (workers, mean)" "$cw/mcpi.ref" 2 "$cw/mcpi.w"
comp_row "pipeline $comp_pipe (source)" "$cw/pipe.ref" 1 "$cw/pipe.m"
echo
fi

if want 15; then
# 15. NetPIPE (Debian's netpipe-pvm, NPpvm), a benchmark nobody here wrote, started as
# its man page says: the receiver, then the transmitter with -h. Monitored, the
# transmitter starts once pvmmon top counts the receiver (tests/integration/test_real.c
# says why); raw, 0.5 s after the receiver (no monitor to ask; a sweep whose
# transmitter came too early ends at once and shows as missing sizes).
# One sweep of 1 B .. 4 MiB (no perturbations, NetPIPE's own repeat counts) raw and
# monitored by preload, interleaved (the order swapped every repetition); latency is
# NetPIPE's half round trip (us) at 1 B, 8 B and 1 KiB, bandwidth its Mbps at 64 KiB, 1 MiB
# and 4 MiB; medians, and the ratio monitored/raw (latency) or raw/monitored
# (bandwidth): how many times slower monitored.
if ! command -v NPpvm >/dev/null; then
	echo "NetPIPE: skipped, NPpvm is not installed (package netpipe-pvm; scripts/setup.sh)"
	echo
else
nw="$work/np"; mkdir -p "$nw"
np_sweep() { # mode: raw or mon
	if [ "$1" = raw ]; then flag=--raw; else flag="-o $nw/np.xml"; fi
	# shellcheck disable=SC2086,SC2016
	(cd "$nw" && timeout 300 $PIN "$BIN/pvmmon" run -q $flag -- sh -c \
		'o="-l 1 -u 4194304 -p 0"; NPpvm $o -o r.out & r=$!
		if [ "$2" = raw ]; then sleep 0.5; else
			until env -u LD_PRELOAD "$0" top --once "$1" 2>/dev/null | grep -q ", 1 task "; do
				kill -0 $r || exit 1; sleep 0.05; done
		fi
		NPpvm -h "$(hostname)" $o -o t.out; wait' "$BIN/pvmmon" "$nw/np.xml" "$1" >/dev/null 2>&1) || true
	if [ -f "$nw/t.out" ]; then awk -v m="$1" '{print m, $1, $2, $3 * 1e6}' "$nw/t.out" >>"$nw/all"; fi
	rm -f "$nw/t.out"
}
: >"$nw/all"
for rep in $(seq "$REPS"); do
	if [ $((rep % 2)) = 1 ]; then np_sweep raw; np_sweep mon; else np_sweep mon; np_sweep raw; fi
done
np_med() { # mode size column(3 Mbps, 4 us)
	awk -v m="$1" -v s="$2" -v c="$3" '$1 == m && $2 == s {print $c}' "$nw/all" | median
}
nraw=$(awk '$1 == "raw" && $2 == 1' "$nw/all" | wc -l); nmon=$(awk '$1 == "mon" && $2 == 1' "$nw/all" | wc -l)
echo "NetPIPE (NPpvm) raw vs monitored by preload ($nraw raw and $nmon monitored sweeps of $REPS completed, interleaved; medians)"
printf '%-22s %12s %12s %8s\n' "" raw monitored ratio
for s in 1 8 1024; do
	r=$(np_med raw $s 4); m=$(np_med mon $s 4)
	printf '%-22s %10.2f us %10.2f us %7.2fx\n' "latency $s B" "$r" "$m" "$(echo "$m $r" | awk '{print $1 / $2}')"
done
for s in 65536 1048576 4194304; do
	r=$(np_med raw $s 3); m=$(np_med mon $s 3)
	printf '%-22s %9.0f Mbps %9.0f Mbps %7.2fx\n' "bandwidth $s B" "$r" "$m" "$(echo "$r $m" | awk '{print $1 / $2}')"
done
echo
fi
fi

if want 16; then
# 16. Hang detection (issue 21). The time from the last block to the report: a two-task
# cycle, blocking (hang cycle2: pvm_recv) and polling (hang poll2: pvm_nrecv every
# millisecond), HANG_RUNS runs each (20 by default, whatever REPEATS says), the default
# threshold (100 ms), --on-hang=abort; the delay is the monitor's own "said N ms after
# the last task blocked": from the entry of the receive that blocked last (or the first
# empty poll of its run) to the line, on the one host's monotonic clock. Median and
# maximum, and the runs whose report did not come. Then the control messages a receive
# within the threshold costs: ping-pong, 2000 round trips of 8 B, receiving with
# pvm_recv and polling with pvm_nrecv (a busy loop: many empty polls per message),
# monitored: the log's wait-reports (WAIT and WAITEND received; the target is 0), and
# the round trip raw and monitored, medians of REPEATS runs. Last, what an empty poll
# costs (bench/pollcost: 300000 pvm_nrecv and pvm_probe that find nothing), raw and
# monitored; the monitored run is a polling wait, reported once per loop; and
# pvm_mytid, a wrapped call that does almost nothing (the wrapper's own cost).
hang_delays() { # mode -> one delay (ms) per line, "none" when no report came
	for i in $(seq "${HANG_RUNS:-20}"); do
		hd=$(mktemp -d "$work/hang.XXXXXX")
		(cd "$hd" && $PIN "$BIN/pvmmon" run -q --on-hang=abort -o h.xml -- "$BIN/hang" "$1" \
			>/dev/null 2>err) || true
		sed -n 's/^pvmmon: deadlock: .*(said \([0-9]*\) ms after the last task blocked)$/\1/p' \
			"$hd/err" | head -n 1 | grep . || echo none
	done
}
echo "Hang detection: from the last block to the report (${HANG_RUNS:-20} runs each, ms)"
printf '%-28s %8s %8s %8s %10s\n' program median min max no-report
for m in cycle2 poll2; do
	hang_delays $m >"$work/hang.$m"
	ok=$(grep -v none "$work/hang.$m" || true)
	printf '%-28s %8s %8s %8s %10s\n' "hang $m" "$(echo "$ok" | median)" \
		"$(echo "$ok" | sort -g | head -n 1)" "$(echo "$ok" | sort -g | tail -n 1)" \
		"$(grep -c none "$work/hang.$m" || true)"
	[ $m != cycle2 ] || record hang.ms "$(echo "$ok" | median)"
done
echo
for rep in $(seq "$REPS"); do
	for rm in recv nrecv; do
		if [ $rm = nrecv ]; then rf=--nrecv; else rf=; fi
		# shellcheck disable=SC2086
		$PIN "$BIN/pvmmon" run -q --raw -- "$BIN/pingpong" -n 2000 -w 200 --timing --sizes 8 \
			$rf >>"$work/pw.$rm-raw" 2>/dev/null
		# shellcheck disable=SC2086
		$PIN "$BIN/pvmmon" run -q -o "$work/pw.xml" -- "$BIN/pingpong" -n 2000 -w 200 \
			--timing --sizes 8 $rf >>"$work/pw.$rm-mon" 2>/dev/null
		sed -n 's/.*key="wait-reports" value="\([0-9]*\)".*/\1/p' "$work/pw.xml" >>"$work/pw.$rm-wr"
	done
	$PIN "$BIN/pvmmon" run -q --raw -- "$PB/pollcost" 300000 >>"$work/pc.raw"
	$PIN "$BIN/pvmmon" run -q -o "$work/pc.xml" -- "$PB/pollcost" 300000 >>"$work/pc.mon"
done
echo "Receives within the threshold: ping-pong 8 B, 2000 round trips ($REPS runs)"
printf '%-26s %14s %10s %10s %10s\n' receive wait-reports raw-us mon-us mon/raw
for rm in recv nrecv; do
	r=$(awk '{sub("median_us=","",$3); print $3}' "$work/pw.$rm-raw" | median)
	m=$(awk '{sub("median_us=","",$3); print $3}' "$work/pw.$rm-mon" | median)
	printf '%-26s %14s %10s %10s %10.3f\n' "pvm_$rm" \
		"$(sort -g "$work/pw.$rm-wr" | uniq | tr '\n' ' ' | sed 's/ $//')" "$r" "$m" \
		"$(echo "$m $r" | awk '{print $1/$2}')"
done
echo
echo "Empty poll, and pvm_mytid (bench/pollcost, 300000 calls each; median ns per call)"
for k in nrecv probe mytid; do
	r=$(sed "s/.*${k}_ns=\([0-9.]*\).*/\1/" "$work/pc.raw" | median)
	m=$(sed "s/.*${k}_ns=\([0-9.]*\).*/\1/" "$work/pc.mon" | median)
	printf 'pvm_%-6s raw %8s  monitored %8s  monitored/raw %.3f\n' "$k" "$r" "$m" \
		"$(echo "$m $r" | awk '{print $1/$2}')"
done
echo
fi

if want 17; then
# 17. Clock reads (record and replay of clocks and pids): ns per gettimeofday and per
# clock_gettime(CLOCK_REALTIME) in a task, 2*10^5 of each, raw (libc alone), monitored
# without a record (the interposed call passes straight through), recorded, replayed;
# medians. Timed by the task's CPU clock through the system call.
cr() { # out-file pvmmon-arguments...
	local out=$1
	shift
	PATH="$PB:$PATH" $PIN "$BIN/pvmmon" "$@" -- "$PB/clockread" 200000 2>/dev/null |
		sed -n 's/^gettimeofday_ns=\([0-9.]*\) clock_gettime_ns=\([0-9.]*\)$/\1 \2/p' >>"$out"
}
: >"$work/cr.raw"; : >"$work/cr.norec"; : >"$work/cr.rec"; : >"$work/cr.rep"
for rep in $(seq "$REPS"); do
	cr "$work/cr.raw" run -q --raw
	cr "$work/cr.norec" run -q --no-record -o "$work/cr-norec.xml"
	cr "$work/cr.rec" run -q -o "$work/cr-rec.xml"
	cr "$work/cr.rep" replay "$work/cr-rec.xml" -q -o "$work/cr-rep.xml"
done
echo "Clock reads (ns per call, median of $REPS)"
printf '%-10s %14s %14s\n' mode gettimeofday clock_gettime
for v in raw norec rec rep; do
	printf '%-10s %14s %14s\n' "$v" "$(awk '{print $1}' "$work/cr.$v" | median)" \
		"$(awk '{print $2}' "$work/cr.$v" | median)"
done
echo
fi

if want 18; then
# 18. Fidelity under heavy probes (issue 25): apps/fidelity built with pvmmon-cc (and
# with gcc), FID_N calls of the tiny non-leaf procedure (8*10^6) against a flat loop of
# FID_M steps (3*10^7), FID_RUNS runs (20 by default, whatever REPEATS says). Each run:
# the calls worker alone, unmonitored (`fidelity calls N` under --raw, the gcc build and
# the pvmmon-cc build: its process's wall time, from bash's EPOCHREALTIME around it:
# exec, enrolment, the work, a failing send, pvm_exit), the master unmonitored (--raw,
# the pvmmon-cc build: which result came first), then preserve mode throttled (default)
# and --no-throttle. The probed worker is task 0.0 (spawned first). Its virtual time
# against the median of the unmonitored pvmmon-cc runs (the same binary, probes off):
# median and worst error, how often the printed uncertainty contains the unmonitored
# time, and how often preserve mode took the unmonitored order (the order most --raw
# runs took). Then the calibrations the logs hold: the loop calibration's pair
# (`proc-pair-ns`) and the in-place one (`site-on-ps`, per call: two pairs, so the pair
# is half of it), mean and spread over the runs and over the 3 tasks of one run.
# FID_PARTS="interp" (or "fidelity") runs one part of the section; both by default.
fid_part() { case " ${FID_PARTS:-interp fidelity} " in *" $1 "*) ;; *) return 1 ;; esac; }
if fid_part interp; then
# The interp part (issue 25, a pvmmon-cc build costs nothing noticeable where nobody
# monitors it): apps/interp, a stack machine of tiny procedures that never calls PVM,
# INTERP_STEPS steps (3*10^9: about a second for the gcc build, the issue's "1 s run"),
# built with gcc -O2 and with pvmmon-cc -O2, INTERP_RUNS rounds (9), the modes
# interleaved in each: the gcc build and the pvmmon-cc build run directly, the
# pvmmon-cc build under `pvmmon run --raw`, `pvmmon run` (default settings) and
# `pvmmon run --budget=5%`. User CPU seconds of the interp process alone (bash's time
# around it, inside the run: not pvmmon's own processes, nor the VM's start), median
# and range; the ratio of medians to the gcc build's. The monitored runs' logs give
# the task's observed monitoring cost (observed-ns over its time).
IS=${INTERP_STEPS:-3000000000} IR=${INTERP_RUNS:-9}
id="$work/interp"; mkdir -p "$id"
"$BIN/pvmmon-cc" -O2 -o "$id/interp-cc" apps/interp.c
cc -O2 -o "$id/interp-gcc" apps/interp.c
# shellcheck disable=SC2016
utime='TIMEFORMAT=%U; { time "$0" "$1" >/dev/null; } 2>&1'
for m in gcc direct raw run budget; do : >"$id/t.$m"; done
: >"$id/obs"
for rep in $(seq "$IR"); do
	$PIN bash -c "$utime" "$id/interp-gcc" "$IS" >>"$id/t.gcc"
	$PIN bash -c "$utime" "$id/interp-cc" "$IS" >>"$id/t.direct"
	(cd "$id" && $PIN "$BIN/pvmmon" run -q --raw -- bash -c "$utime" "$id/interp-cc" "$IS" \
		2>/dev/null | tail -n 1 >>"$id/t.raw")
	for m in run budget; do
		opt=; [ $m = budget ] && opt=--budget=5%
		# shellcheck disable=SC2086
		(cd "$id" && $PIN "$BIN/pvmmon" run -q $opt -o "$id/$m.xml" -- bash -c "$utime" \
			"$id/interp-cc" "$IS" 2>/dev/null | tail -n 1 >>"$id/t.$m")
		# The task's observed cost over its real time (its task element's raw-ns).
		awk -v m=$m '/<task / && /interp-cc/ {match($0, / raw-ns="[0-9]*"/); t = substr($0, RSTART + 9, RLENGTH - 10)}
			/<cost / && t {match($0, / observed-ns="[0-9]*"/); o = substr($0, RSTART + 14, RLENGTH - 15)
			printf "%s %.2f\n", m, o / t * 100; t = 0}' "$id/$m.xml" >>"$id/obs"
	done
done
g=$(median <"$id/t.gcc")
echo "Unmonitored pvmmon-cc build: interp $IS, $IR rounds, user CPU s of the interp process (median, range; ratio to gcc's median)"
printf '%-22s %8s %17s %7s %12s\n' mode median range ratio observed-%
for m in gcc direct raw run budget; do
	t=$(median <"$id/t.$m")
	printf '%-22s %8s %17s %7.2f %12s\n' \
		"$(case $m in gcc) echo "gcc -O2" ;; direct) echo "pvmmon-cc, directly" ;; raw) echo "pvmmon-cc, --raw" ;;
			run) echo "pvmmon-cc, run" ;; budget) echo "pvmmon-cc, --budget=5%" ;; esac)" \
		"$t" "$(sort -g "$id/t.$m" | head -n 1) to $(sort -g "$id/t.$m" | tail -n 1)" \
		"$(echo "$t $g" | awk '{print ($2 > 0 ? $1 / $2 : 0)}')" \
		"$(awk -v m=$m '$1 == m {print $2}' "$id/obs" | median | sed 's/^nan$/-/')"
	[ $m = gcc ] || record "cc.$m" "$(ratio "$t" "$g")"
done
echo
fi
if fid_part fidelity; then
# 4*10^7 calls (about 0.1 s alone, so that the 2 to 3 ms of a process's start and end,
# in the unmonitored reference but not in a task's virtual time, stay near 2%), the
# flat worker's steps in the same ratio as before (the unmonitored order unchanged).
FN=${FID_N:-40000000} FM=${FID_M:-150000000} FR=${FID_RUNS:-20}
fd="$work/fid"; mkdir -p "$fd/cc" "$fd/gcc"
"$BIN/pvmmon-cc" -O2 -Iapps -o "$fd/cc/fidelity" apps/fidelity.c -lpvm3
cc -O2 -Iapps -o "$fd/gcc/fidelity" apps/fidelity.c -lpvm3
alone() { # folder [count] -> the calls worker's wall time alone, unmonitored (ms)
	# shellcheck disable=SC2016
	$PIN "$BIN/pvmmon" run -q --raw -- bash -c 's=$EPOCHREALTIME; "$0" calls "$1" >/dev/null 2>&1
		e=$EPOCHREALTIME; echo "$s $e" | awk "{printf \"%.3f\\n\", (\$2 - \$1) * 1000}"' \
		"$1/fidelity" "${2:-$FN}"
}
fid_mon() { # name options...: one monitored run in preserve mode, its log kept
	local name=$1
	shift
	(cd "$fd" && PATH="$fd/cc:$PATH" $PIN "$BIN/pvmmon" run -q --mode=preserve "$@" \
		-o "$fd/$name.xml" -- "$fd/cc/fidelity" -n "$FN" -m "$FM" 2>/dev/null |
		sed -n 's/^fidelity: order \([a-z]*\)=.*/\1/p' >>"$fd/order.$name")
	# The calls worker: virtual, uncertainty, clamped (ns); every task's pair costs.
	sed -n 's/.* lid="0\.0" .* virtual-ns="\([0-9]*\)".* uncertainty-ns="\([0-9]*\)" clamped-ns="\([0-9]*\)".*/\1 \2 \3/p' \
		"$fd/$name.xml" >>"$fd/vt.$name"
	sed -n 's/.*<cost proc-pair-ns="\([0-9]*\)".* site-on-ps="\([0-9]*\)".*/\1 \2/p' "$fd/$name.xml" |
		awk -v r="$name.$rep" '{print r, $1, $2}' >>"$fd/cal.$name"
}
: >"$fd/ref.gcc"; : >"$fd/ref.cc"; : >"$fd/ref.one"; : >"$fd/order.raw"
for rep in $(seq "$FR"); do
	alone "$fd/gcc" >>"$fd/ref.gcc"
	alone "$fd/cc" >>"$fd/ref.cc"
	alone "$fd/cc" 1 >>"$fd/ref.one"
	(cd "$fd" && PATH="$fd/cc:$PATH" $PIN "$BIN/pvmmon" run -q --raw -- "$fd/cc/fidelity" \
		-n "$FN" -m "$FM" 2>/dev/null | sed -n 's/^fidelity: order \([a-z]*\)=.*/\1/p' >>"$fd/order.raw")
	fid_mon thr
	fid_mon nothr --no-throttle
done
refcc=$(median <"$fd/ref.cc"); refgcc=$(median <"$fd/ref.gcc")
first=$(sort "$fd/order.raw" | uniq -c | sort -rn | awk 'NR == 1 {print $2}')
echo "Fidelity: fidelity -n $FN -m $FM, $FR runs; the calls worker alone unmonitored:" \
	"pvmmon-cc build median $refcc ms ($(sort -g "$fd/ref.cc" | head -n 1) to $(sort -g "$fd/ref.cc" | tail -n 1))," \
	"gcc build median $refgcc ms, with 1 call (start, enrolment, end) $(median <"$fd/ref.one") ms;" \
	"unmonitored order: $first first in $(grep -c "^$first\$" "$fd/order.raw") of $FR"
printf '%-14s %9s %9s %9s %9s %11s %10s %9s %12s\n' preserve vt-med-ms unc-med-ms err-med err-worst unc-contains within-10% clamped order-kept
for v in thr nothr; do
	# Per run: error %, whether the uncertainty contains the unmonitored time, virtual
	# and uncertainty (ms), whether anything was clamped.
	awk -v ref="$refcc" '{v = $1 / 1e6; u = $2 / 1e6; d = v - ref; if (d < 0) d = -d
		print (v - ref) / ref * 100, (d <= u ? 1 : 0), v, u, ($3 > 0 ? 1 : 0)}' \
		"$fd/vt.$v" >"$fd/err.$v"
	n=$(wc -l <"$fd/err.$v")
	# The issue's acceptance: within 10%, or the uncertainty contains the reference.
	w10=$(awk '($1 <= 10 && $1 >= -10) || $2' "$fd/err.$v" | wc -l)
	kept=$(grep -c "^$first\$" "$fd/order.$v" || true)
	printf '%-14s %9.2f %9.2f %8.1f%% %8.1f%% %11s %10s %9s %12s\n' \
		"$([ $v = thr ] && echo default || echo --no-throttle)" \
		"$(awk '{print $3}' "$fd/err.$v" | median)" "$(awk '{print $4}' "$fd/err.$v" | median)" \
		"$(awk '{print $1}' "$fd/err.$v" | median)" \
		"$(awk '{a = $1 < 0 ? -$1 : $1; if (a >= m) {m = a; w = $1}} END {print w + 0}' "$fd/err.$v")" \
		"$(awk '$2' "$fd/err.$v" | wc -l)/$n" "$w10/$n" "$(awk '$5' "$fd/err.$v" | wc -l)/$n" \
		"$kept/$FR"
	if [ $v = thr ]; then
		record fid.order "$kept/$FR"
		record fid.within "$w10/$n"
		record fid.err "$(awk '{print $1}' "$fd/err.$v" | median)% ($(awk '{a = $1 < 0 ? -$1 : $1; if (a >= m) {m = a; w = $1}} END {print w + 0}' "$fd/err.$v")% worst)"
	fi
done
echo "(err: (virtual - unmonitored) / unmonitored, against the pvmmon-cc build's median;" \
	"worst: the largest in magnitude; clamped: runs with clamped charges)"
echo
echo "Calibrated probe pair (ns): loop calibration proc-pair-ns, in place site-on-ps / 2000"
printf '%-10s %8s %8s %8s %8s %12s %16s\n' pair mean sd min max sd-run-means within-run-range
for k in 2 3; do
	cat "$fd/cal.thr" "$fd/cal.nothr" | awk -v k="$k" '{v = k == 3 ? $3 / 2000 : $2; print $1, v}' >"$fd/calv"
	# All tasks of all runs: mean, sd, min, max; within a run: max - min over its tasks,
	# the median of those ranges.
	awk '{s += $2; q += $2 * $2; n++; if (n == 1 || $2 < lo) lo = $2; if ($2 > hi) hi = $2}
		END {m = s / n; printf "%8.1f %8.1f %8.1f %8.1f", m, sqrt(q / n - m * m), lo, hi}' "$fd/calv" >"$fd/calstat"
	rng=$(awk '{if (!($1 in lo) || $2 < lo[$1]) lo[$1] = $2; if (!($1 in hi) || $2 > hi[$1]) hi[$1] = $2}
		END {for (x in lo) print hi[x] - lo[x]}' "$fd/calv" | median)
	# Over runs: the sd of the logs' means over their tasks.
	rsd=$(awk '{s[$1] += $2; c[$1]++} END {for (x in s) {m = s[x] / c[x]; a += m; q += m * m; n++}
		m = a / n; printf "%.1f", sqrt(q / n - m * m)}' "$fd/calv")
	printf '%-10s %s %12s %16s\n' "$([ "$k" = 2 ] && echo loop || echo in-place)" "$(cat "$fd/calstat")" "$rsd" "$rng"
done
echo "(over $((2 * FR)) logs of 3 tasks each; sd over all tasks of all runs; sd-run-means: of each log's mean over its tasks; within-run-range: median over logs of max - min over its tasks)"
echo
fi
fi

if want 19; then
# 19. Time histograms (issue 22): what the default histograms cost, per wrapped call
# alone (bench/histcall: the call's end and the poll, with and without them), on
# ping-pong 8 B (median round trip) and on Monte Carlo pi (the program's wall time, as
# in section 2), with them and without (--no-histograms), interleaved; and the log's
# size with the default histograms after about 5 s and 50 s of a running program
# (apps/phases at scales 110 and 1100; 500 s too with BENCH_HIST_LONG=1), with its
# histograms' doublings.
hist_mcpi() { # flags...: mcpi's wall seconds
	# shellcheck disable=SC2086
	PATH="$BIN:$PATH" $PIN "$BIN/pvmmon" run -q -o "$work/hm.xml" "$@" -- /bin/bash -c \
		'TIMEFORMAT=%R; time "$@" >/dev/null' bash mcpi -w 4 -c 512 -s 1000000 2>&1 >/dev/null |
		tail -n 1
}
: >"$work/hmcpi.hon"; : >"$work/hmcpi.hoff"
for rep in $(seq "$REPS"); do
	# Which goes first alternates: the first run of a pair was seen slower (a fixed order
	# made the histograms look 3 to 10% dearer on ping-pong; alternated, 0.4%).
	order="hon hoff"
	[ $((rep % 2)) = 0 ] && order="hoff hon"
	for mode in $order; do
		if [ $mode = hoff ]; then flag=--no-histograms; else flag=; fi
		# shellcheck disable=SC2086
		$PIN "$BIN/pvmmon" run -q -o "$work/hp.xml" $flag -- "$BIN/pingpong" -n 2000 -w 200 \
			--timing --sizes 8 >>"$work/pp.$mode" 2>/dev/null
		# shellcheck disable=SC2086
		hist_mcpi $flag >>"$work/hmcpi.$mode"
	done
done
echo "Time histograms: per wrapped call, the histograms' own work (bench/histcall, 10^6 calls, 5 runs)"
"$PB/histcall" 1000000 | sed 's/^/  /'
echo "Time histograms: cost of the defaults (medians of $REPS interleaved runs)"
printf '%-26s %12s %12s %10s\n' '' histograms none ratio
on=$(col hon 8); off=$(col hoff 8)
printf '%-26s %12s %12s %10.3f\n' 'ping-pong 8 B round trip us' "$on" "$off" "$(echo "$on $off" | awk '{print $1/$2}')"
record hist.pp8 "$(ratio "$on" "$off")"
on=$(median <"$work/hmcpi.hon"); off=$(median <"$work/hmcpi.hoff")
printf '%-26s %12s %12s %10.3f\n' 'mcpi wall s' "$on" "$off" "$(echo "$on $off" | awk '{print $1/$2}')"
record hist.mcpi "$(ratio "$on" "$off")"
echo
echo "Time histograms: log size against the run's length (apps/phases, default histograms)"
printf '%8s %10s %12s %12s %10s\n' scale wall-s log-bytes histograms doublings
scales="110 1100"
[ -n "${BENCH_HIST_LONG:-}" ] && scales="$scales 11000"
for sc in 1 $scales; do
	s=$(date +%s.%N)
	(cd "$work" && PATH="$BIN:$PATH" $PIN "$BIN/pvmmon" run -q -o "$work/ph$sc.xml" -- "$BIN/phases" "$sc" >/dev/null 2>&1)
	e=$(date +%s.%N)
	printf '%8s %10.1f %12s %12s %10s\n' "$sc" "$(echo "$s $e" | awk '{print $2 - $1}')" \
		"$(wc -c <"$work/ph$sc.xml")" "$(grep -c '<histogram ' "$work/ph$sc.xml")" \
		"$(grep -o 'doublings="[0-9]*"' "$work/ph$sc.xml" | sort -u | tr -dc '0-9 \n' | tr '\n' ' ')"
done
# The longer run's log against the shorter's: bounded, not growing with the length.
record hist.log "$(ratio "$(wc -c <"$work/ph1100.xml")" "$(wc -c <"$work/ph110.xml")")"
echo "(phases built plainly: no procedure histograms; the run's log holds 8 per task and 8 merged, and the hottest statements)"
echo
fi

if want 21; then
# 21. The most tasks one host holds: the largest `flood -w N` (default 10^5 messages)
# that completes on one host, raw and monitored, up a ladder of N (FLOOD_LADDER), each
# rung tried FLOOD_TRIES times (2) in each mode, the modes taking turns; a mode stops
# at its first rung where a try failed. Near PVM's own limit (its pvmd stops at
# descriptor 1024, about 2 per task: doc/benchmarks.md says why it is a race there)
# one try may pass where the next fails, hence every try must pass. Each try is bounded
# (FLOOD_TIMEOUT, 300 s), so the section is too.
echo "Largest flood -w N completing on one host (ladder ${FLOOD_LADDER:-256 384 448 480 496 504 512 528 544 576 608}; ${FLOOD_TRIES:-2} tries a rung)"
fl_try() { # mode workers: 0 when flood completed and checked its results
	if [ "$1" = raw ]; then flag=--raw; else flag="-o $work/fl.xml"; fi
	# shellcheck disable=SC2086
	PATH="$BIN:$PATH" timeout "${FLOOD_TIMEOUT:-300}" $PIN "$BIN/pvmmon" run -q $flag -- \
		"$BIN/flood" -w "$2" >"$work/fl.out" 2>&1 || return 1
	grep -q "workers=$2 .* ok" "$work/fl.out"
}
best_raw=- best_mon=- raw_on=1 mon_on=1
for n in ${FLOOD_LADDER:-256 384 448 480 496 504 512 528 544 576 608}; do
	for mode in raw mon; do
		eval "on=\$${mode}_on"
		[ "$on" = 1 ] || continue
		ok=0 t=0
		while [ $t -lt "${FLOOD_TRIES:-2}" ]; do
			t=$((t + 1))
			if fl_try $mode "$n"; then ok=$((ok + 1)); else break; fi
		done
		printf '%-4s -w %4s: %d of %d tries completed\n' "$mode" "$n" "$ok" "$t"
		if [ $ok = "${FLOOD_TRIES:-2}" ]; then eval "best_$mode=$n"; else eval "${mode}_on=0"; fi
	done
	[ $raw_on = 1 ] || [ $mon_on = 1 ] || break
done
echo "largest completing: raw $best_raw, monitored $best_mon"
record flood.raw "$best_raw"
record flood.mon "$best_mon"
echo
fi

if want 23; then
# 23. Export speed (issue 26): the 64-task, 100,800-event log of section 7 (bench/biglog
# 64 500 800) read and validated alone (`pvmmon validate`), then exported to CSV, JSON
# and OTF2 each alone and all three at once; median wall and CPU (user+sys) seconds,
# the sizes, and the OTF2 archive's bytes per event (Score-P's are roughly 13).
"$PB/biglog" "$work/xbig.xml" 64 500 800
for v in read csv json otf2 all; do : >"$work/x.$v"; done
xtime() { # name command... : appends "wall cpu" (s) to $work/x.name
	local name=$1
	shift
	$PIN /bin/bash -c 'TIMEFORMAT="%R %U %S"; time "$@" >/dev/null 2>&1' bash "$@" 2>&1 |
		tail -n 1 | awk '{printf "%s %.3f\n", $1, $2 + $3}' >>"$work/x.$name"
}
for rep in $(seq "$REPS"); do
	rm -rf "$work/xo" && mkdir -p "$work/xo"
	xtime read "$BIN/pvmmon" validate "$work/xbig.xml"
	xtime csv "$BIN/pvmmon" export "$work/xbig.xml" --csv "$work/xo/csv"
	xtime json "$BIN/pvmmon" export "$work/xbig.xml" --json "$work/xo/x.json"
	xtime otf2 "$BIN/pvmmon" export "$work/xbig.xml" --otf2 "$work/xo/otf2"
	rm -rf "$work/xo" && mkdir -p "$work/xo"
	xtime all "$BIN/pvmmon" export "$work/xbig.xml" --csv "$work/xo/csv" --json \
		"$work/xo/x.json" --otf2 "$work/xo/otf2"
done
echo "Export of the 64-task, 100,800-event log ($(stat -c %s "$work/xbig.xml") B), median wall s (CPU s):"
for v in read csv json otf2 all; do
	printf '  %-5s %s (%s)\n' "$v" "$(awk '{print $1}' "$work/x.$v" | median)" \
		"$(awk '{print $2}' "$work/x.$v" | median)"
done
ob=$(du -sb "$work/xo/otf2" | awk '{print $1}')
echo "  sizes: CSV $(du -sb "$work/xo/csv" | awk '{print $1}') B, JSON $(stat -c %s "$work/xo/x.json") B," \
	"OTF2 $ob B ($(echo "$ob" | awk '{printf "%.1f", $1 / 100800}') B per event)"
echo
fi
if want 22; then
# 22. Preserve mode's round trips (issue 24): Monte Carlo pi with 8 workers, message-bound
# (`mcpi -w 8 -c 2000 -s 20000`: preserve / plain monitoring) and computing between
# messages (`mcpi -w 8 -s 1000000`, 64 chunks: preserve / raw), preserve also without
# the tasks' board (pvmhooks/board.c, PVMMON_BOARD empty); the modes interleaved
# in each repetition, medians of the program's wall time (as in section 11). Per
# decision: control messages (to and from the monitor, and the tasks' block notices),
# and the share of decisions the tasks made themselves (no control message).
echo "Preserve round trips (median wall s; REPS=$REPS, modes interleaved)"
p22() { # samples chunks flags...
	local s=$1 c=$2
	shift 2
	PATH="$BIN:$PATH" $PIN "$BIN/pvmmon" run -q "$@" -- /bin/bash -c \
		'TIMEFORMAT=%R; time "$@" >/dev/null' bash "$BIN/mcpi" -w 8 -c "$c" -s "$s" \
		2>&1 >/dev/null | tail -n 1
}
set22() { grep -o "key=\"$2\" value=\"[^\"]*\"" "$1" | sed 's/.*value="//; s/"//'; }
: >"$work/p22.mraw"; : >"$work/p22.mplain"; : >"$work/p22.mpres"
: >"$work/p22.craw"; : >"$work/p22.cpres"; : >"$work/p22.msgs"; : >"$work/p22.local"
: >"$work/p22.mnob"; : >"$work/p22.cnob"
for rep in $(seq "$REPS"); do
	p22 20000 2000 --raw >>"$work/p22.mraw"
	p22 20000 2000 --no-record -o "$work/p22p.xml" >>"$work/p22.mplain"
	p22 20000 2000 --no-record --mode=preserve -o "$work/p22m.xml" >>"$work/p22.mpres"
	PVMMON_BOARD= p22 20000 2000 --no-record --mode=preserve -o "$work/p22mb.xml" >>"$work/p22.mnob"
	p22 1000000 64 --raw >>"$work/p22.craw"
	p22 1000000 64 --no-record --mode=preserve -o "$work/p22c.xml" >>"$work/p22.cpres"
	PVMMON_BOARD= p22 1000000 64 --no-record --mode=preserve -o "$work/p22cb.xml" >>"$work/p22.cnob"
	for x in m c; do
		d=$(set22 "$work/p22$x.xml" preserve-decisions)
		l=$(set22 "$work/p22$x.xml" preserve-decisions-local)
		echo "$x $(set22 "$work/p22$x.xml" preserve-control-messages-per-decision)" >>"$work/p22.msgs"
		echo "$x $d $l" >>"$work/p22.local"
	done
done
mr=$(median <"$work/p22.mraw"); mp=$(median <"$work/p22.mplain"); mq=$(median <"$work/p22.mpres")
cr=$(median <"$work/p22.craw"); cq=$(median <"$work/p22.cpres")
printf 'message-bound (-c 2000 -s 20000): raw %ss plain %ss preserve %ss; preserve/plain %.2f (target 1.5), plain/raw %.2f\n' \
	"$mr" "$mp" "$mq" "$(echo "$mq $mp" | awk '{print $1/$2}')" "$(echo "$mp $mr" | awk '{print $1/$2}')"
printf 'computing (-c 64 -s 1000000): raw %ss preserve %ss; preserve/raw %.3f (target 1.10)\n' \
	"$cr" "$cq" "$(echo "$cq $cr" | awk '{print $1/$2}')"
# The same without the board of the tasks' virtual times (PVMMON_BOARD empty).
mb=$(median <"$work/p22.mnob"); cb=$(median <"$work/p22.cnob")
printf 'without the board: message-bound preserve %ss (/plain %.2f), computing preserve %ss (/raw %.3f)\n' \
	"$mb" "$(echo "$mb $mp" | awk '{print $1/$2}')" "$cb" "$(echo "$cb $cr" | awk '{print $1/$2}')"
record pres.plain "$(ratio "$mq" "$mp")"
record pres.raw "$(ratio "$cq" "$cr")"
record pres.cmsg "$(awk '$1 == "m" {print $2}' "$work/p22.msgs" | median)"
record pres.local "$(awk '$1 == "m" {d += $2; l += $3} END {printf "%.3f", d ? l / d : 0}' "$work/p22.local")"
for x in m c; do
	printf '%s: control messages per decision, median %s (target 2); decided by the tasks themselves %s\n' \
		"$([ $x = m ] && echo message-bound || echo computing)" \
		"$(awk -v x=$x '$1 == x {print $2}' "$work/p22.msgs" | median)" \
		"$(awk -v x=$x '$1 == x {d += $2; l += $3} END {printf "%d of %d (%.1f%%)", l, d, d ? 100 * l / d : 0}' "$work/p22.local")"
done
echo
fi

if want 24; then
# 24. The PVM usage checks (issue 36): ping-pong round trips (8 B, 1 KiB; one pack and
# one unpack a message) and Monte Carlo pi's wall time (section 2's), monitored with
# every check (the default) and with --check=none, interleaved. Target: within 2%.
for rep in $(seq "$REPS"); do
	for mode in chk none; do
		flag=; [ $mode = none ] && flag=--check=none
		# shellcheck disable=SC2086
		$PIN "$BIN/pvmmon" run -q $flag -o "$work/c24.xml" -- "$BIN/pingpong" -n 2000 -w 200 \
			--timing --sizes 8,1024 >>"$work/pp.c24$mode" 2>/dev/null
		PATH="$BIN:$PATH" $PIN "$BIN/pvmmon" run -q $flag -o "$work/c24m.xml" -- /bin/bash -c \
			'TIMEFORMAT=%R; time "$@" >/dev/null' bash "$BIN/mcpi" -w 4 -c 512 -s 1000000 \
			2>&1 >/dev/null | tail -n 1 >>"$work/c24.mcpi.$mode"
	done
done
# The fastest round trip of each run is the one least disturbed by other load: its
# median over the runs is given beside the median of the runs' medians.
colmin() { awk -v s="size=$2" '$1==s {sub("min_us=","",$4); print $4}' "$work/pp.$1" | median; }
echo "PVM usage checks: all (the default) against --check=none (medians)"
for s in 8 1024; do
	c=$(col c24chk "$s"); n=$(col c24none "$s")
	cm=$(colmin c24chk "$s"); nm=$(colmin c24none "$s")
	printf 'ping-pong %5s B: checks %8s us  none %8s us  ratio %.3f;  fastest: %s us, %s us, ratio %.3f\n' \
		"$s" "$c" "$n" "$(echo "$c $n" | awk '{print $1/$2}')" "$cm" "$nm" \
		"$(echo "$cm $nm" | awk '{print $1/$2}')"
done
c=$(median <"$work/c24.mcpi.chk"); n=$(median <"$work/c24.mcpi.none")
printf 'mcpi -w 4 -c 512: checks %ss  none %ss  ratio %.3f\n' "$c" "$n" \
	"$(echo "$c $n" | awk '{print $1/$2}')"
echo
fi

if want 25; then
# 25. Preserve mode on real programs (issue 37): raw, plain monitoring and preserve mode
# interleaved in each repetition (the order rotated), medians. NetPIPE (NPpvm, two tasks
# whose every receive is pvm_recv(-1, -1)): its 1-byte latency (-l 1 -u 1 -p 0 -n 500,
# NetPIPE's best half round trip, us). apps/notifymw (a manager taking 2,000 results and
# pvmd's exit notices with one pvm_recv(-1, tag), 4 workers receiving from any source),
# tablix2 (two kernels polling with pvm_nrecv; the sample hint.xml, solved in one
# generation, so that every run does the same work: tablix2 has no option for a fixed
# number of generations and its harder samples run from 1 s to minutes) and mcpi -w 8
# -c 2000 -s 20000 (message-bound) and apps/gredf.f (200 Fortran group bcast/reduce
# rounds, when gfortran is there): the program's wall time. Targets: preserve / plain
# <= 3 for the first three; mcpi and gredf reported.
echo "Preserve mode on real programs (median of $REPS; raw, plain, preserve interleaved)"
pw="$work/p24"; mkdir -p "$pw"
have_np=0; command -v NPpvm >/dev/null && have_np=1
have_tx=0; [ -x /usr/bin/tablix2 ] && [ -r /usr/share/doc/tablix2/examples/hint.xml ] && have_tx=1
# apps/gredf.f: 200 Fortran group bcast/reduce rounds, built here when gfortran is there.
have_gf=0
command -v gfortran >/dev/null && gfortran -O2 -fallow-argument-mismatch -I/usr/include \
	-o "$pw/gredf" apps/gredf.f -lfpvm3 -lgpvm3 -lpvm3 2>/dev/null && have_gf=1
[ $have_tx = 0 ] || cp /usr/share/doc/tablix2/examples/hint.xml "$pw/"
p24_flags() { # mode name
	case $1 in raw) echo --raw ;; plain) echo "--no-record -o $pw/$2.xml" ;;
	*) echo "--no-record --mode=preserve -o $pw/$2.pr.xml" ;; esac
}
p24_np() { # mode: appends the 1-byte latency (us) to $pw/np.MODE
	# shellcheck disable=SC2046,SC2016
	(cd "$pw" && timeout 120 $PIN "$BIN/pvmmon" run -q $(p24_flags "$1" np) -- sh -c \
		'o="-l 1 -u 1 -p 0 -n 500"; NPpvm $o -o r.out & r=$!
		if [ "$2" = raw ]; then sleep 0.5; else
			until env -u LD_PRELOAD "$0" top --once "$1" 2>/dev/null | grep -q ", 1 task "; do
				kill -0 $r || exit 1; sleep 0.05; done
		fi
		NPpvm -h "$(hostname)" $o -o t.out; wait' "$BIN/pvmmon" "$pw/np$([ "$1" = preserve ] && echo .pr).xml" "$1" >/dev/null 2>&1) || true
	[ ! -s "$pw/t.out" ] || awk 'NR == 1 {printf "%.2f\n", $3 * 1e6}' "$pw/t.out" >>"$pw/np.$1"
	rm -f "$pw/t.out"
}
p24_time() { # mode name program args...: appends the program's wall seconds to $pw/NAME.MODE
	local m=$1 n=$2
	shift 2
	# shellcheck disable=SC2046
	# The time goes to its file straight from bash, not through pvmmon's standard error:
	# a line pvmmon says (tablix2's usage findings) must not be taken for it.
	(cd "$pw" && PATH="$BIN:$pw:$PATH" timeout 300 $PIN "$BIN/pvmmon" run -q $(p24_flags "$m" "$n") -- \
		/bin/bash -c 'o=$1; shift; TIMEFORMAT=%R; { time "$@" >/dev/null 2>&1; } 2>>"$o"' \
		bash "$pw/$n.$m" "$@" >/dev/null 2>&1) || true
}
for m in raw plain preserve; do for n in np nmw tx mc gf; do : >"$pw/$n.$m"; done; done
for rep in $(seq "$REPS"); do
	case $((rep % 3)) in 1) order="raw plain preserve" ;; 2) order="plain preserve raw" ;; *) order="preserve raw plain" ;; esac
	for m in $order; do
		[ $have_np = 0 ] || p24_np "$m"
		p24_time "$m" nmw "$BIN/notifymw" -w 4 -n 2000
		[ $have_tx = 0 ] || p24_time "$m" tx tablix2 -n 2 -d 1 -o hint- hint.xml
		p24_time "$m" mc "$BIN/mcpi" -w 8 -c 2000 -s 20000
		[ $have_gf = 0 ] || p24_time "$m" gf "$pw/gredf"
	done
done
p24_row() { # name label
	local r p q
	r=$(median <"$pw/$1.raw"); p=$(median <"$pw/$1.plain"); q=$(median <"$pw/$1.preserve")
	printf '%-34s %10s %10s %10s %8s %8s\n' "$2" "$r" "$p" "$q" \
		"$(echo "$q $p" | awk '{printf "%.2f", $1 / $2}')" "$(echo "$p $r" | awk '{printf "%.2f", $1 / $2}')"
}
printf '%-34s %10s %10s %10s %8s %8s\n' "" raw plain preserve pres/pl plain/raw
[ $have_np = 0 ] || p24_row np "NPpvm 1 B latency (us)"
p24_row nmw "notifymw -w 4 -n 2000 (s)"
[ $have_tx = 0 ] || p24_row tx "tablix2 -n 2 hint.xml (s)"
p24_row mc "mcpi -w 8 -c 2000 -s 20000 (s)"
[ $have_gf = 0 ] || p24_row gf "gredf (Fortran bcast/reduce) (s)"
# Whether each subject's receives from any source waited only for the tasks that could
# address them (the log's preserve-knowledge), and how many of the tasks' own decisions
# waited until a timer ended the wait (preserve-local-waits-timed), of its last
# preserve run.
p24_setting() { sed -n "s/.*key=\"$1\" value=\"\([^\"]*\)\".*/\1/p" "$2" | head -1; }
for n in np nmw tx mc gf; do
	[ -s "$pw/$n.pr.xml" ] || continue
	printf '  %-4s preserve-knowledge: %s; local waits ended by a timer: %s\n' "$n" \
		"$(p24_setting preserve-knowledge "$pw/$n.pr.xml")" \
		"$(p24_setting preserve-local-waits-timed "$pw/$n.pr.xml")"
done
[ $have_np = 0 ] || record pres.np "$(ratio "$(median <"$pw/np.preserve")" "$(median <"$pw/np.plain")")"
record pres.nmw "$(ratio "$(median <"$pw/nmw.preserve")" "$(median <"$pw/nmw.plain")")"
[ $have_tx = 0 ] || record pres.tablix "$(ratio "$(median <"$pw/tx.preserve")" "$(median <"$pw/tx.plain")")"
record pres.plain "$(ratio "$(median <"$pw/mc.preserve")" "$(median <"$pw/mc.plain")")"
[ $have_gf = 0 ] || record pres.gredf "$(ratio "$(median <"$pw/gf.preserve")" "$(median <"$pw/gf.plain")")"
echo
# The unmonitored order kept (issue 37), race-shaped subjects, REPS x 4 runs each,
# unmonitored and preserve interleaved: apps/gorace -w (6 nodes' wildcard receives take
# "go" before a relayed number), under the load of a busy process as in the preserve
# test; apps/tpoll (a master polling with pvm_trecv(0.1 s): the timeouts before the
# worker's message, 10 unmonitored).
echo "Order and timeouts kept (runs in the unmonitored order, of N; tpoll: timeouts, median)"
sh -c 'while :; do :; done' & busy=$!
go_raw=0; go_pr=0; go_n=0; : >"$pw/tp.raw"; : >"$pw/tp.preserve"
for rep in $(seq $((REPS * 4))); do
	go_n=$((go_n + 1))
	(cd "$pw" && timeout 120 $PIN "$BIN/pvmmon" run -q --raw -- "$BIN/gorace" -w 2>/dev/null) |
		grep -q "order ok" && go_raw=$((go_raw + 1))
	(cd "$pw" && timeout 120 $PIN "$BIN/pvmmon" run -q --no-record --mode=preserve -o "$pw/go.xml" \
		-- "$BIN/gorace" -w 2>/dev/null) | grep -q "order ok" && go_pr=$((go_pr + 1))
done
# The busy loop ends by the signal: its status (143) is no failure of the section.
kill "$busy" 2>/dev/null || true
wait "$busy" 2>/dev/null || true
for rep in $(seq "$REPS"); do
	for m in raw preserve; do
		f=--raw; [ $m = raw ] || f="--no-record --mode=preserve -o $pw/tp.xml"
		# shellcheck disable=SC2086
		(cd "$pw" && timeout 120 $PIN "$BIN/pvmmon" run -q $f -- "$BIN/tpoll" 2>/dev/null) |
			sed -n 's/.*after \([0-9]*\) timeouts.*/\1/p' >>"$pw/tp.$m"
	done
done
printf '%-34s %12s %12s\n' "" unmonitored preserve
printf '%-34s %12s %12s\n' "gorace -w under load (in order)" "$go_raw/$go_n" "$go_pr/$go_n"
printf '%-34s %12s %12s\n' "tpoll timeouts before the message" "$(median <"$pw/tp.raw")" \
	"$(median <"$pw/tp.preserve")"
record pres.gorace.kept "$(echo "$go_pr $go_n" | awk '{printf "%.2f", $1 / $2}')"
echo
fi

if want 26; then
# 26. pvmmon explore (issue 39): for each subject, REPS explorations of at most 50 runs
# after the first; the run of the first finding (median; "-" when none was found), the
# runs used, the first run's nondeterministic events, the other outcomes left by the
# happened-before rule against the count without it (every later message of another
# sender matching the filter), and the exploration's wall time. Subjects: the go race
# (apps/gorace -w, 6 nodes; goal: first finding within 10 runs), the probe-then-receive
# race (apps/prace), the tag-wildcard race (apps/tagrace), and apps/race with its order
# line ignored (nothing to find).
echo "pvmmon explore (median of $REPS explorations, --runs 50)"
ew="$work/p26"; mkdir -p "$ew"
e26() { # name args...: appends "first runs nd alts naive secs" to $ew/NAME
	local n=$1 t0 t1 out
	shift
	t0=$(date +%s.%N)
	(cd "$ew" && rm -rf "x.$n" && timeout 900 "$BIN/pvmmon" explore --runs 50 -o "x.$n" "$@" \
		>"$ew/$n.out" 2>"$ew/$n.err") || true
	t1=$(date +%s.%N)
	out=$(awk -F'\t' '$1 ~ /^[0-9]+$/ && $1 > 0 && $5 != "same as the first run" && $5 !~ /^not reached/ {print $1; exit}' "$ew/$n.out")
	echo "${out:--} $(sed -n 's/^explore: \([0-9]*\) runs after the first.* \([0-9]*\) skipped as tried.*/\1 \2/p' "$ew/$n.out") $(sed -n 's/^explore: the first run had \([0-9]*\) nondeterministic events; \([0-9]*\) other outcomes could be taken (\([0-9]*\) without.*/\1 \2 \3/p' "$ew/$n.err") $(echo "$t0 $t1" | awk '{printf "%.1f", $2 - $1}')" >>"$ew/$n"
}
for n in go pr tg ra; do : >"$ew/$n"; done
for rep in $(seq "$REPS"); do
	e26 go -- "$BIN/gorace" -w
	e26 pr -- "$BIN/prace"
	e26 tg -- "$BIN/tagrace"
	e26 ra --same-output=order= -- "$BIN/race"
done
e26_row() { # name label
	local first runs
	first=$(awk '$1 != "-" {print $1}' "$ew/$1" | median)
	[ "$first" != nan ] || first="-"
	runs=$(awk '{print $2}' "$ew/$1" | median)
	printf '%-30s %6s %5s %7s %6s %6s %6s %6s\n' "$2" "$first" "$runs" \
		"$(awk '{print $3}' "$ew/$1" | median)" "$(awk '{print $4}' "$ew/$1" | median)" \
		"$(awk '{print $5}' "$ew/$1" | median)" "$(awk '{print $6}' "$ew/$1" | median)" \
		"$(awk '{print $7}' "$ew/$1" | median)"
}
# first: run of the first finding; runs: runs used; skipped: alternatives skipped as
# already tried from another run; events, alts, naive: the first run's nondeterministic
# events, its other outcomes by the happened-before rule and without it.
printf '%-30s %6s %5s %7s %6s %6s %6s %6s\n' "" first runs skipped events alts naive secs
e26_row go "gorace -w (6 nodes)"
e26_row pr "prace (probe, then recv)"
e26_row tg "tagrace (tag wildcard)"
e26_row ra "race (order ignored)"
first=$(awk '$1 != "-" {print $1}' "$ew/go" | median)
[ "$first" = nan ] || record explore.go.first "$first"
echo
fi

if want 27; then
# 27. Why tasks wait (issue 40): the text report of section 23's 100,800-event traced log
# (bench/biglog 64 500 800), whose first section is the wait analysis, against the same
# report with the analysis left out (PVMMON_NO_WAITS=1); median seconds, and the peak RSS
# of a report with it (GNU time's %M when /usr/bin/time is there, else "-"). Targets:
# analysis <= 1 s, peak <= 50 MB. And the same log's export as a Chrome/Perfetto trace
# (pvmmon export --perfetto), median seconds.
echo "Why tasks wait: the 100,800-event log's text report (median of $REPS)"
[ -f "$work/bigtrace.xml" ] || "$PB/biglog" "$work/bigtrace.xml" 64 500 800
: >"$work/w27.with"; : >"$work/w27.without"; : >"$work/w27.perfetto"
for rep in $(seq "$REPS"); do
	$PIN /bin/bash -c 'TIMEFORMAT=%R; time "$@" >/dev/null' bash \
		"$BIN/pvmmon" report "$work/bigtrace.xml" 2>>"$work/w27.with"
	PVMMON_NO_WAITS=1 $PIN /bin/bash -c 'TIMEFORMAT=%R; time "$@" >/dev/null' bash \
		"$BIN/pvmmon" report "$work/bigtrace.xml" 2>>"$work/w27.without"
	rm -f "$work/big.perfetto.json"
	# Its summary line on standard error is no time: only bash's goes to the file.
	$PIN /bin/bash -c 'TIMEFORMAT=%R; { time "$@" >/dev/null 2>&1; } 2>>"$0"' \
		"$work/w27.perfetto" "$BIN/pvmmon" export "$work/bigtrace.xml" \
		--perfetto "$work/big.perfetto.json"
done
rm -f "$work/big.perfetto.json"
printf '%-40s %8s s\n' "export --perfetto" "$(median <"$work/w27.perfetto")"
record export.perfetto "$(median <"$work/w27.perfetto")"
w27a=$(median <"$work/w27.with"); w27b=$(median <"$work/w27.without")
w27m="-"
[ ! -x /usr/bin/time ] || w27m=$(/usr/bin/time -f %M "$BIN/pvmmon" report "$work/bigtrace.xml" 2>&1 >/dev/null | tail -1)
printf '%-40s %8s s\n' "report with the analysis" "$w27a" "report without it" "$w27b"
printf '%-40s %8s\n' "analysis alone (difference)" "$(echo "$w27a $w27b" | awk '{printf "%.3f s", $1 - $2}')" \
	"peak RSS with it (kB)" "$w27m"
record waits.big "$(echo "$w27a $w27b" | awk '{printf "%.3f", $1 - $2}')"
echo
fi

if want 28; then
# 28. Call-path sampling (issue 42): its cost at the default rate (199 Hz of each task's
# CPU time, on by default for programs not built with pvmmon-cc) on matmul and mcpi:
# monitored with samples over monitored without (--no-sample), REPS pairs interleaved,
# which goes first alternating: the program's wall time, and the CPU time of all the
# run's processes (tasks, pvmd, monitor: GNU time's %U+%S of pvmmon run, which reaps
# them all; "-" without /usr/bin/time), whose ratio is recorded; target <= 1.02. From the sampled
# runs' logs, per task: samples a second of its life (it samples only while it
# computes), the handler's time per sample (its cost-ns over its samples: the
# unwinding, mostly) and as a share of the task's life, medians over the tasks of all
# runs: the wall-time ratio moves by several percent with the machine's other load
# (two CPUs shared), the handler's share is what sampling itself takes. And what one flush of the
# samples costs a task (bench/sampleflush: the tree exported and encoded whole, as
# every flush sends it), by the tree's size.
echo "Call-path sampling at the default 199 Hz (median of $REPS; wall s; with / --no-sample)"
sw="$work/p28"; mkdir -p "$sw"
TM=
[ ! -x /usr/bin/time ] || TM="/usr/bin/time -o $sw/cpu.one -f %U+%S"
printf '%-30s %7s %7s %6s %7s %7s %6s %9s %9s %7s\n' "" "wall" "--no-s" ratio "CPU" "--no-s" \
	ratio "samples/s" "us/sample" handler
for app in "matmul -n 400 -w 4 -i 8" "mcpi -w 4 -c 512 -s 1000000"; do
	n=${app%% *}
	for f in on off on.cpu off.cpu rate unw share; do : >"$sw/$n.$f"; done
	for rep in $(seq "$REPS"); do
		order="on off"
		[ $((rep % 2)) = 0 ] && order="off on"
		for m in $order; do
			f=
			[ $m = on ] || f=--no-sample
			# shellcheck disable=SC2086
			PATH="$BIN:$PATH" $PIN $TM "$BIN/pvmmon" run -q $f -o "$sw/$n.$m.xml" -- /bin/bash -c \
				'TIMEFORMAT=%R; time "$@" >/dev/null' bash "$BIN/"$app 2>&1 >/dev/null |
				tail -n 1 >>"$sw/$n.$m"
			[ -z "$TM" ] || awk -F+ '{print $1 + $2}' "$sw/cpu.one" >>"$sw/$n.$m.cpu"
		done
		# Each sampled task: its samples over its life, its handler's ns per sample.
		awk -v rate="$sw/$n.rate" -v unw="$sw/$n.unw" -v share="$sw/$n.share" '
			function attr(l, k) { return match(l, " " k "=\"[0-9]+\"") ? substr(l, RSTART + length(k) + 3, RLENGTH - length(k) - 4) + 0 : 0 }
			/<task / { st = attr($0, "start-ns"); en = attr($0, "end-ns") }
			/<samples / { tot = attr($0, "total"); c = attr($0, "cost-ns")
				if (en > st && tot > 0) { printf "%.1f\n", tot / ((en - st) / 1e9) >> rate; printf "%.2f\n", c / tot / 1000 >> unw
					printf "%.3f\n", 100 * c / (en - st) >> share } }' \
			"$sw/$n.on.xml"
	done
	a=$(median <"$sw/$n.on"); b=$(median <"$sw/$n.off")
	ca=-; cb=-; cr=-
	if [ -n "$TM" ]; then
		ca=$(median <"$sw/$n.on.cpu"); cb=$(median <"$sw/$n.off.cpu"); cr=$(ratio "$ca" "$cb")
		record "sample.$n" "$cr"
	fi
	printf '%-30s %7s %7s %6s %7s %7s %6s %9s %9s %6s%%\n' "$app" "$a" "$b" "$(ratio "$a" "$b")" \
		"$ca" "$cb" "$cr" "$(median <"$sw/$n.rate")" "$(median <"$sw/$n.unw")" \
		"$(median <"$sw/$n.share")"
done
"$PB/sampleflush" | sed 's/^/flush of the samples, /'
# Agreement with the probes: apps/hotspots built with pvmmon-cc (-g -O2) and sampled at
# 997 Hz, 3 runs: per procedure the sampled self share and the probed share (the
# report's "probed %", the probes' exclusive time over the task's compute time), medians.
echo "Sampled and probed shares of apps/hotspots built with pvmmon-cc (median of 3; points)"
if "$BIN/pvmmon-cc" -g -O2 -o "$sw/hs-cc" apps/hotspots.c -lpvm3 >/dev/null 2>&1; then
	: >"$sw/agree"
	for rep in 1 2 3; do
		(cd "$sw" && PATH="$BIN:$PATH" $PIN "$BIN/pvmmon" run -q --sample=997 -o hs.xml -- \
			./hs-cc 1000000000 >/dev/null 2>&1 && "$BIN/pvmmon" report hs.xml) 2>/dev/null |
			awk '$1 == "hot_a" || $1 == "hot_b" || $1 == "warm" {
				if ($7 ~ /%$/) { s = $3; p = $7; sub(/%/, "", s); sub(/%/, "", p); print $1, s, p } }' \
			>>"$sw/agree" || true
	done
	printf '%-12s %9s %9s %9s\n' procedure sampled probed difference
	for proc in hot_a hot_b warm; do
		s=$(awk -v p="$proc" '$1 == p {print $2}' "$sw/agree" | median)
		q=$(awk -v p="$proc" '$1 == p {print $3}' "$sw/agree" | median)
		printf '%-12s %8s%% %8s%% %9s\n' "$proc" "$s" "$q" \
			"$(echo "$s $q" | awk '{d = $1 - $2; printf "%.1f", d < 0 ? -d : d}')"
	done
else
	echo "(pvmmon-cc could not build apps/hotspots.c: skipped)"
fi
echo
fi

if want 29; then
# 29. Real call-heavy code (issue 41), two programs nobody here wrote, each built with
# gcc -O2 and with pvmmon-cc -O2 (the same flags) under a driver of ours:
# - the SQLite amalgamation (sqlite3.c of the npm package better-sqlite3, fetched into
#   the work folder by bench/sqlite_get.sh; BENCH_SQLITE_DIR=DIR takes a folder that
#   holds sqlite3.c and sqlite3.h) under bench/sqlite_work.c's workload (SQ_ROWS rows,
#   30000: inserts in transactions, an indexed join, a sort, two recursive CTEs; about
#   0.4 s for the gcc build); compile time of the amalgamation once each (seconds, and
#   the ratio);
# - the Lua 5.3 interpreter (the sources of the npm package lua-src, by bench/npm_src.sh)
#   running bench/lua_work.c's script (LUA_SCALE, 10: recursion, string building, a sort
#   with a Lua comparison, table churn for the collector, a numeric loop).
# Each part is skipped with a message without npm or the network. Per program, ch_runs
# takes CH_RUNS rounds (REPS), the modes interleaved in each: the gcc build and the
# pvmmon-cc build run directly, the gcc build under `pvmmon run --raw`, the pvmmon-cc
# build under `pvmmon run` (default settings) and `--budget=5%` (the last three as PVM
# tasks: the driver's -p). CPU seconds (user + system) of the program's process alone
# (bash's time inside the run, as in section 18), median and range; ratios: direct
# against the gcc build direct, monitored against the gcc build under --raw (the issue's
# targets 1.05 and 1.5). Every run's result must be the gcc build's: the section fails
# (exit 1) if one differs. Then the last default run's log: proc records, how many
# throttled, and whether the timed procedures' exclusive times add up to the task's
# virtual time within its stated uncertainty; for SQLite, with perf, the top symbols of
# one more default run (perf record -e cpu-clock).

# ch_runs KEY TAG NAME DIR ARGS...: the modes above for DIR/TAG-gcc and DIR/TAG-cc run
# with ARGS (and -p first as PVM tasks); records KEY.direct, KEY.run and KEY.budget.
ch_runs() {
	chkey=$1 chtag=$2 chname=$3 chd=$4
	shift 4
	chn=${CH_RUNS:-$REPS}
	# CPU seconds of the program alone; its result line goes to the file named.
	# shellcheck disable=SC2016
	cpu='TIMEFORMAT="%U %S"; { time "$0" "$@" >>"$CH_OUT"; } 2>&1 | awk "{print \$1 + \$2}"'
	for m in gcc direct raw run budget; do : >"$chd/t.$m"; done
	: >"$chd/obs"; : >"$chd/sums"
	for rep in $(seq "$chn"); do
		CH_OUT="$chd/sums" $PIN bash -c "$cpu" "$chd/$chtag-gcc" "$@" >>"$chd/t.gcc"
		CH_OUT="$chd/sums" $PIN bash -c "$cpu" "$chd/$chtag-cc" "$@" >>"$chd/t.direct"
		(cd "$chd" && CH_OUT="$chd/sums" $PIN "$BIN/pvmmon" run -q --raw -- bash -c "$cpu" \
			"$chd/$chtag-gcc" -p "$@" 2>/dev/null | tail -n 1 >>"$chd/t.raw")
		for m in run budget; do
			opt=; [ $m = budget ] && opt=--budget=5%
			# shellcheck disable=SC2086
			(cd "$chd" && CH_OUT="$chd/sums" $PIN "$BIN/pvmmon" run -q $opt -o "$chd/$m.xml" -- \
				bash -c "$cpu" "$chd/$chtag-cc" -p "$@" 2>/dev/null | tail -n 1 >>"$chd/t.$m")
			# The task's observed cost over its real time (as in section 18).
			awk -v m=$m -v p="$chtag-cc" '/<task / && index($0, p) {match($0, / raw-ns="[0-9]*"/); t = substr($0, RSTART + 9, RLENGTH - 10)}
				/<cost / && t {match($0, / observed-ns="[0-9]*"/); o = substr($0, RSTART + 14, RLENGTH - 15)
				printf "%s %.2f\n", m, o / t * 100; t = 0}' "$chd/$m.xml" >>"$chd/obs"
		done
	done
	# Every run printed one result line, and all of them the same.
	nsum=$(wc -l <"$chd/sums"); ndiff=$(sort -u "$chd/sums" | wc -l)
	if [ "$nsum" -ne $((5 * chn)) ] || [ "$ndiff" -ne 1 ]; then
		echo "bench: FAILED: $chname results differ between builds or modes ($nsum results of $((5 * chn)), $ndiff different):" >&2
		sort "$chd/sums" | uniq -c >&2
		exit 1
	fi
	echo "results: $(head -n 1 "$chd/sums") in all $nsum runs"
	g=$(median <"$chd/t.gcc"); gr=$(median <"$chd/t.raw")
	echo "$chname, $chn rounds: CPU s (user + system) of its process (median, range; ratio: direct to the gcc build direct, monitored to the gcc build under --raw)"
	printf '%-26s %8s %17s %7s %12s\n' mode median range ratio observed-%
	for m in gcc direct raw run budget; do
		t=$(median <"$chd/t.$m")
		ref=$g; case $m in run | budget) ref=$gr ;; esac
		printf '%-26s %8s %17s %7s %12s\n' \
			"$(case $m in gcc) echo "gcc -O2, directly" ;; direct) echo "pvmmon-cc, directly" ;;
				raw) echo "gcc -O2, --raw" ;; run) echo "pvmmon-cc, run" ;; budget) echo "pvmmon-cc, --budget=5%" ;; esac)" \
			"$t" "$(sort -g "$chd/t.$m" | head -n 1) to $(sort -g "$chd/t.$m" | tail -n 1)" \
			"$([ $m = raw ] && echo - || ratio "$t" "$ref")" \
			"$(awk -v m=$m '$1 == m {print $2}' "$chd/obs" | median | sed 's/^nan$/-/')"
		case $m in direct | run | budget) record "$chkey.$m" "$(ratio "$t" "$ref")" ;; esac
	done
	awk '/<proc / {n++; if (/ throttled-at-ns=/) th++}
		END {printf "last default run: %d proc records, %d of them throttled\n", n, th}' "$chd/run.xml"
	# The procedures' times add up: the timed records' exclusive times against the
	# task's virtual time and its stated uncertainty.
	awk -v p="$chtag-cc" '/<task / && index($0, p) {match($0, / virtual-ns="[0-9]*"/); v = substr($0, RSTART + 13, RLENGTH - 14)
		match($0, / uncertainty-ns="[0-9]*"/); u = substr($0, RSTART + 17, RLENGTH - 18)}
		/<proc / && !/ timed="no"/ {match($0, / excl-ns="-?[0-9]*"/); e += substr($0, RSTART + 10, RLENGTH - 11)}
		END {printf "procedure times add up: exclusive %.2f ms, task %.2f ms +- %.2f (%s)\n",
			e / 1e6, v / 1e6, u / 1e6, (e - v <= u + 0 && v - e <= u + 0) ? "within" : "OUTSIDE"}' "$chd/run.xml"
}

echo "Real call-heavy code: SQLite (issue 41)"
sq="$work/sqlite"
mkdir -p "$sq" # the builds and times go here, also when BENCH_SQLITE_DIR names the sources
if ! sd=$(bench/sqlite_get.sh "$sq"); then
	echo "skipped: no SQLite amalgamation (see above)"
else
	echo "amalgamation: $(cat "$sd/source" 2>/dev/null || echo "$sd") (npm pack better-sqlite3)"
	sqf="-O2 -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION -I$sd"
	for cc in gcc cc; do
		c=gcc; [ $cc = cc ] && c="$BIN/pvmmon-cc"
		# shellcheck disable=SC2086,SC2016
		SQ_ERR="$sq/err.$cc" $PIN /bin/bash -c 'TIMEFORMAT=%R; { time "$0" "$@" 2>"$SQ_ERR"; } 2>&1' \
			"$c" $sqf -c -o "$sq/sqlite3-$cc.o" "$sd/sqlite3.c" >"$sq/ct.$cc"
		if [ ! -s "$sq/sqlite3-$cc.o" ]; then
			echo "bench: FAILED: $(basename "$c") did not compile sqlite3.c:" >&2
			tail -n 5 "$sq/err.$cc" >&2
			exit 1
		fi
		# shellcheck disable=SC2086
		"$c" $sqf -Wall -Wextra -c -o "$sq/drv-$cc.o" bench/sqlite_work.c
		"$c" -o "$sq/sq-$cc" "$sq/drv-$cc.o" "$sq/sqlite3-$cc.o" -lpvm3 -lm
	done
	printf 'compile sqlite3.c (-O2 -c): gcc %ss, pvmmon-cc %ss, ratio %.2f\n' "$(cat "$sq/ct.gcc")" \
		"$(cat "$sq/ct.cc")" "$(ratio "$(cat "$sq/ct.cc")" "$(cat "$sq/ct.gcc")")"
	record sqlite.compile "$(ratio "$(cat "$sq/ct.cc")" "$(cat "$sq/ct.gcc")")"
	CH_RUNS=${SQ_RUNS:-$REPS} ch_runs sqlite sq "sqlite_work ${SQ_ROWS:-30000}" "$sq" "${SQ_ROWS:-30000}"
	# Where the time goes: perf's view of one more default run.
	if command -v perf >/dev/null 2>&1; then
		(cd "$sq" && $PIN "$BIN/pvmmon" run -q -o "$sq/perf.xml" -- perf record -q -e cpu-clock \
			-o "$sq/perf.data" "$sq/sq-cc" -p "${SQ_ROWS:-30000}" >/dev/null 2>&1) || true
		if [ -s "$sq/perf.data" ]; then
			echo "perf record -e cpu-clock, one default run: the top symbols"
			perf report -i "$sq/perf.data" --stdio --sort dso,symbol 2>/dev/null |
				awk '!/^#/ && NF {printf "  %8s  %-16s %s\n", $1, $2, $4; if (++n == 8) exit}'
		else
			echo "(perf record gave nothing: perf_event_paranoid?)"
		fi
	fi
fi
echo
echo "Real call-heavy code: the Lua 5.3 interpreter (issue 41)"
lu="$work/lua"
if ! ld=$(bench/npm_src.sh lua-src src "$lu/src"); then
	echo "skipped: no Lua sources (see above)"
else
	echo "sources: $(cat "$ld/source") (npm pack lua-src)"
	for cc in gcc cc; do
		c=gcc; [ $cc = cc ] && c="$BIN/pvmmon-cc"
		mkdir -p "$lu/o-$cc"
		for f in "$ld"/*.c; do
			case $f in */lua.c | */luac.c) continue ;; esac
			# shellcheck disable=SC2086
			"$c" -O2 -DLUA_COMPAT_5_2 -DLUA_USE_POSIX -c -o "$lu/o-$cc/$(basename "$f" .c).o" "$f" \
				2>>"$lu/err.$cc" || { echo "bench: FAILED: $(basename "$c") did not compile $f:" >&2
				tail -n 5 "$lu/err.$cc" >&2; exit 1; }
		done
		"$c" -O2 -Wall -Wextra -I"$ld" -c -o "$lu/drv-$cc.o" bench/lua_work.c
		"$c" -o "$lu/lua-$cc" "$lu/drv-$cc.o" "$lu/o-$cc"/*.o -lpvm3 -lm
	done
	CH_RUNS=${LUA_RUNS:-$REPS} ch_runs lua lua "lua_work ${LUA_SCALE:-10}" "$lu" "${LUA_SCALE:-10}"
fi
echo
fi

if want 30; then
# 30. Why tasks wait, online (issue 40): what the in-task analysis (pvmhooks/blame.c, on
# by default) costs: ping-pong round trips (8 B, 1 KiB) and Monte Carlo pi's wall time
# (section 2's), monitored as by default and with the analysis off (PVMMON_BLAME=0, which
# the tasks inherit), interleaved. Target: within 1%.
: >"$work/pp.c30on"; : >"$work/pp.c30off"; : >"$work/c30.mcpi.on"; : >"$work/c30.mcpi.off"
for rep in $(seq "$REPS"); do
	for mode in on off; do
		b=1; [ $mode = off ] && b=0
		PVMMON_BLAME=$b $PIN "$BIN/pvmmon" run -q -o "$work/c30.xml" -- "$BIN/pingpong" -n 2000 \
			-w 200 --timing --sizes 8,1024 >>"$work/pp.c30$mode" 2>/dev/null
		PVMMON_BLAME=$b PATH="$BIN:$PATH" $PIN "$BIN/pvmmon" run -q -o "$work/c30m.xml" -- \
			/bin/bash -c 'TIMEFORMAT=%R; time "$@" >/dev/null' bash "$BIN/mcpi" -w 4 -c 512 \
			-s 1000000 2>&1 >/dev/null | tail -n 1 >>"$work/c30.mcpi.$mode"
	done
done
echo "Why tasks wait online: the analysis on (the default) against PVMMON_BLAME=0 (medians)"
for s in 8 1024; do
	c=$(col c30on "$s"); n=$(col c30off "$s")
	printf 'ping-pong %5s B: on %8s us  off %8s us  ratio %.3f\n' "$s" "$c" "$n" \
		"$(echo "$c $n" | awk '{print $1/$2}')"
	[ "$s" != 8 ] || record blame.pingpong8 "$(echo "$c $n" | awk '{printf "%.3f", $1/$2}')"
done
c=$(median <"$work/c30.mcpi.on"); n=$(median <"$work/c30.mcpi.off")
printf 'mcpi -w 4 -c 512: on %ss  off %ss  ratio %.3f\n' "$c" "$n" \
	"$(echo "$c $n" | awk '{print $1/$2}')"
record blame.mcpi "$(echo "$c $n" | awk '{printf "%.3f", $1/$2}')"
echo
fi

# The summary table at the top of doc/benchmarks.md takes this run's values.
if [ -s "$work/results" ] && [ -z "${BENCH_NO_SUMMARY:-}" ]; then
	bench/summary.sh --record "$work/results"
	echo "bench: doc/benchmarks.md's summary table updated (bench/results.tsv)"
fi
