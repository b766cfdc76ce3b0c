#!/bin/sh
# Interrupts bench/run.sh and checks that it stops at once and leaves nothing behind.
# Exits 0 when all holds, 1 (saying why) otherwise.
# Usage: bench_interrupt.sh SOURCE-TREE BUILD-FOLDER SCRATCH-FOLDER [MODE]
#   vm      (default) SIGINT to the bench's process group, as Ctrl-C would, while the
#           VM it starts itself (section 3) is up: that pvmd is halted.
#   ctrl-c  Ctrl-C typed on the bench's terminal (a pseudo-terminal from script(1)) in
#           the middle of section 2, whose runs go through a helper function and a
#           pipeline: `pvmmon run` hands the terminal to the program it runs, so the
#           old script saw only that run end and went on with the next.
#   term    SIGTERM to the bench's pid alone in the middle of section 2 (a shell takes
#           a trap only once its foreground command has ended).
# The middle of section 2 is its second run with its VM up; after the signal no run may
# start, the bench must exit non-zero (130 or 143), and no process of it (every one
# carries this test's marker in its environment), no pvmd, no folder may be left.
set -u
src=$1 build=$2 scratch=$3 mode=${4:-vm}
uid=$(id -u)
# The bench's work folder, and the VMs of its `pvmmon run`s, go under the scratch folder
# (mktemp honours TMPDIR): every pvmd whose PVM_TMP lies there is the bench's.
export TMPDIR="$scratch" PVM_ALLOW_ROOT=1 BENCH_NO_SUMMARY=1
# The marker every process of the bench inherits (given to the bench alone).
mark="PVMMON_BENCH_TEST=$scratch"

# The pids of live (not zombie) pvmds whose PVM_TMP lies under the scratch folder.
pvmds() {
	for p in $(ps -eo pid=,comm= | awk '$2 == "pvmd" {print $1}'); do
		awk '$3 == "Z" {exit 1}' "/proc/$p/stat" 2>/dev/null || continue
		tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -q "^PVM_TMP=$scratch/" && echo "$p"
	done
}
# The pids of live processes the bench started: the marker in their environment (a
# zombie's environment reads empty).
marked() {
	grep -lzxF "$mark" /proc/[0-9]*/environ 2>/dev/null |
		sed 's|^/proc/\([0-9]*\)/environ$|\1|' || true
}
# How many `pvmmon run`s the bench has started: its build's pvmmon is a wrapper that
# notes each start, then runs the real one; the second run, the one interrupted, then
# lasts two minutes longer, as a long run would: a bench that waited for its current
# command to end before acting on the signal fails the bound below. That sleep is no
# wait of the test's: it is the long command being interrupted, which the bench's own
# stopping ends (the test waits for the bench's exit, a condition, below).
starts() { wc -l 2>/dev/null <"$scratch/starts" || echo 0; }

if [ "$mode" = vm ]; then
	export PVMMON_BUILD="$build" BENCH_ONLY=3
else
	mkdir -p "$scratch/build/bin" || exit 1
	for f in "$build"/bin/*; do ln -s "$f" "$scratch/build/bin/"; done
	rm "$scratch/build/bin/pvmmon"
	cat >"$scratch/build/bin/pvmmon" <<-EOF
		#!/bin/sh
		echo \$\$ >>"$scratch/starts"
		n=\$(wc -l <"$scratch/starts")
		"$build/bin/pvmmon" "\$@"
		st=\$?
		[ "\$n" -ne 2 ] || sleep 120
		exit \$st
	EOF
	chmod +x "$scratch/build/bin/pvmmon"
	export PVMMON_BUILD="$scratch/build" BENCH_ONLY=2
fi

# A background job of a non-interactive shell starts with SIGINT ignored, and a shell
# cannot trap a signal ignored at its start: env gives the bench SIGINT's default back,
# as a terminal's foreground job has it.
if [ "$mode" = ctrl-c ]; then
	# script(1) runs the bench on a new pseudo-terminal, in its foreground; what is
	# written to script's input is typed on that terminal (^C: SIGINT to whatever group
	# is then in the foreground). The fifo stays open here until the end.
	mkfifo -m 600 "$scratch/keys" || exit 1
	env "$mark" script -q -e -c "env --default-signal=INT '$src/bench/run.sh' 2" /dev/null \
		<"$scratch/keys" >"$scratch/bench.out" 2>&1 &
	bench=$!
	exec 3>"$scratch/keys"
else
	# A new session: the bench leads its own process group, as a shell's foreground job
	# does (a background job of this non-interactive shell is no group leader, so setsid
	# does not fork: the pid is the group's id).
	setsid env --default-signal=INT "$mark" "$src/bench/run.sh" 1 >"$scratch/bench.out" 2>&1 &
	bench=$!
fi

fail() {
	echo "bench_interrupt ($mode): $*"
	sed 's/^/bench: /' "$scratch/bench.out"
	# Never leave what this test started behind.
	kill -KILL -"$bench" 2>/dev/null
	for p in $(marked) $(pvmds); do kill -KILL "$p" 2>/dev/null; done
	exit 1
}

# The condition: the section's own pvmd has written its address file (the VM is up), or
# section 2's second run has its VM up. Bounded: the section's first, monitored run
# comes before it (about 2 s; section 2's first run, matmul, about as long).
i=0
until if [ "$mode" = vm ]; then
	[ -s "$(ls -d "$scratch"/pvmmon-bench.*/vm/tmp 2>/dev/null | head -n 1)/pvmd.$uid" ]
else
	[ "$(starts)" -ge 2 ] && [ -n "$(pvmds)" ]
fi; do
	kill -0 "$bench" 2>/dev/null || fail "the bench ended before its VM came up"
	[ $i -lt 1200 ] || fail "the bench's VM did not come up in 120 s"
	sleep 0.1
	i=$((i + 1))
done
running=$(pvmds)
[ -n "$running" ] || fail "no pvmd of the bench found running"
before=$(starts)
case $mode in
vm) kill -INT -"$bench" || fail "cannot signal the bench's process group" ;;
ctrl-c) printf '\003' >&3 || fail "cannot type on the bench's terminal" ;;
term) kill -TERM "$bench" || fail "cannot signal the bench" ;;
esac
t0=$(date +%s%N)
# The bench stops its runs (a run ends its program with SIGTERM, at most 3 s, and halts
# its VM) and exits; 60 s is room for a loaded machine (it takes 2 to 4 s here with
# other tests running), the test's only bound, and half the wrapper's delay.
i=0
while kill -0 "$bench" 2>/dev/null && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
kill -0 "$bench" 2>/dev/null && fail "the bench did not exit within 60 s of the signal"
secs=$(( ($(date +%s%N) - t0) / 1000000 ))
wait "$bench"
status=$?
[ "$mode" != ctrl-c ] || exec 3>&-
[ "$status" -ne 0 ] || fail "the interrupted bench exited 0"
case $mode in
term) [ "$status" -eq 143 ] || fail "the bench exited $status, not 143 (SIGTERM)" ;;
*) [ "$status" -eq 130 ] || fail "the bench exited $status, not 130 (SIGINT)" ;;
esac
[ "$(starts)" -eq "$before" ] ||
	fail "the bench started $(($(starts) - before)) more run(s) after the signal"
left=$(pvmds)
[ -z "$left" ] || fail "pvmd $left of the bench still running (were: $running)"
left=$(marked)
[ -z "$left" ] || fail "processes of the bench still running: $(echo "$left" | xargs ps -o pid=,args= -p)"
ls -d "$scratch"/pvmmon-bench.* >/dev/null 2>&1 && fail "the bench's work folder is left"
ls -d "$scratch"/pvmmon-vm.* >/dev/null 2>&1 && fail "a run's VM folder is left"
echo "bench_interrupt ($mode): ok (the bench exited $status ${secs} ms after the signal" \
	"(runs started: $before); pvmd $running gone, no process, work folder gone)"
exit 0
