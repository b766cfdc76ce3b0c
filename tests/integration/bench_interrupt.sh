#!/bin/sh
# Interrupts bench/run.sh as Ctrl-C would (SIGINT to its whole process group) while the
# VM it starts itself (section 3) is up, and checks that no pvmd of it is left and that
# its work folder is gone. Exits 0 when both hold, 1 (saying why) otherwise.
# Usage: bench_interrupt.sh SOURCE-TREE BUILD-FOLDER SCRATCH-FOLDER
set -u
src=$1 build=$2 scratch=$3
uid=$(id -u)
# The bench's work folder, and the VMs of its `pvmmon run`s, go under the scratch folder
# (mktemp honours TMPDIR): every pvmd whose PVM_TMP lies there is the bench's.
export TMPDIR="$scratch" PVMMON_BUILD="$build" BENCH_ONLY=3 PVM_ALLOW_ROOT=1

# The pids of live (not zombie) pvmds whose PVM_TMP lies under the scratch folder.
pvmds() {
	for p in $(ps -eo pid=,comm= | awk '$2 == "pvmd" {print $1}'); do
		awk '$3 == "Z" {exit 1}' "/proc/$p/stat" 2>/dev/null || continue
		tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -q "^PVM_TMP=$scratch/" && echo "$p"
	done
}

# A new session: the bench leads its own process group, as a shell's foreground job
# does (a background job of this non-interactive shell is no group leader, so setsid
# does not fork: the pid is the group's id). A background job of a non-interactive
# shell starts with SIGINT ignored, and a shell cannot trap a signal ignored at its
# start: env gives the bench SIGINT's default back, as a terminal's foreground job has it.
setsid env --default-signal=INT "$src/bench/run.sh" 1 >"$scratch/bench.out" 2>&1 &
bench=$!

fail() {
	echo "bench_interrupt: $*"
	sed 's/^/bench: /' "$scratch/bench.out"
	# Never leave what this test started behind.
	kill -KILL -"$bench" 2>/dev/null
	for p in $(pvmds); do kill -TERM "$p"; done
	exit 1
}

# The condition: the section's own pvmd has written its address file (the VM is up).
# Bounded: the section's first, monitored run comes before it (about 2 s).
i=0
until [ -s "$(ls -d "$scratch"/pvmmon-bench.*/vm/tmp 2>/dev/null | head -n 1)/pvmd.$uid" ]; do
	kill -0 "$bench" 2>/dev/null || fail "the bench ended before its VM came up"
	[ $i -lt 1200 ] || fail "the bench's VM did not come up in 120 s"
	sleep 0.1
	i=$((i + 1))
done
running=$(pvmds)
[ -n "$running" ] || fail "no pvmd of the bench found running"
kill -INT -"$bench" || fail "cannot signal the bench's process group"
# The bench halts its VM (SIGTERM, at most 5 s) and exits; 30 s is room for a loaded
# machine, the test's only bound.
i=0
while kill -0 "$bench" 2>/dev/null && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
kill -0 "$bench" 2>/dev/null && fail "the bench did not exit within 30 s of SIGINT"
wait "$bench"
status=$?
[ "$status" -ne 0 ] || fail "the interrupted bench exited 0"
left=$(pvmds)
[ -z "$left" ] || fail "pvmd $left of the bench still running (were: $running)"
ls -d "$scratch"/pvmmon-bench.* >/dev/null 2>&1 && fail "the bench's work folder is left"
echo "bench_interrupt: ok (the bench exited $status; pvmd $running gone, work folder gone)"
exit 0
