#!/bin/bash
# Compares the logs two builds of pvmmon write for the same deterministic programs, to
# show that a change left the logs byte-identical apart from timings.
#
# Usage: scripts/compare-logs.sh [options] OLD NEW
#   OLD, NEW   two built trees (a clone after `make`, or its build folder)
#   -r N       run every program N times (default 1): each run of each build must
#              match (use it on one build twice, OLD = NEW, to see that the
#              normalisation takes out all run-to-run noise)
#   --only A,B the programs to run (names as --list prints them)
#   --list     print the programs and their commands, and exit
#   -k         keep the work folder (the logs and their normalised forms)
#   -h         this text
#
# The programs: apps/ that give the same log on every run apart from timings, run with
# the hooks preloaded (and matmul-linked, linked with libpvmhooks); matmul, issort and
# ring built with each build's pvmmon-cc; and PVM's own C examples (Debian
# pvm-examples, built once with gcc as tests/integration/test_examples.c builds them)
# preloaded. Each runs under `pvmmon run` of OLD, then of NEW. Its logs are normalised
# (a small python3 filter below) and compared with diff: every attribute that is a time
# (*-ns, *-ps, *-ppb, started, rt, vt, sync, trans), pids, the flush count and the
# monitor's memory drop out; the builds' and the work folder's paths become <ROOT> and
# <WORK>; tasks are put in order of their logical ids. Programs marked "wild" receive
# from any source, so the order of their messages (and so the replay record and the
# order of a statement's partners) may change from run to run: their records' text,
# hashes and senders drop out and partners are sorted. The other programs' output is
# compared too.
#
# Prints "OK name" or "DIFF name" and the diff for each program; exits 0 when all
# match, 1 when any differs, 2 when it could not run. Needs python3 and, for the
# examples, /usr/share/doc/pvm-examples/examples.tar.gz (they are skipped without it).
set -u

usage() { sed -n '5,13p' "$0" | sed 's/^# \{0,1\}//'; }

runs=1 only= keep=0 list=0
while [ $# -gt 0 ]; do
	case $1 in
	-r) runs=${2:?-r needs a number}; shift 2 ;;
	--only) only=${2:?--only needs names}; shift 2 ;;
	--only=*) only=${1#--only=}; shift ;;
	--list) list=1; shift ;;
	-k) keep=1; shift ;;
	-h|--help) usage; exit 0 ;;
	--) shift; break ;;
	-*) echo "compare-logs: unknown option $1" >&2; usage >&2; exit 2 ;;
	*) break ;;
	esac
done

# name | wild or - | how it is run: app (BIN is the build's bin folder), cc (built with
# the build's pvmmon-cc into CC), or ex (PVM's examples, EX their bin folder)
PROGRAMS='
pingpong|-|app|BIN/pingpong -n 20 -w 2 --sizes 8,4096,100000
ring|-|app|BIN/ring -n 4 -r 3 -u 1
ring-trace|-|app|--trace BIN/ring -n 3 -r 2 -u 1
pipeline|-|app|BIN/pipeline -s 3 -m 10 -u 1
matmul|wild|app|BIN/matmul -n 60 -w 3 -i 2
matmul-linked|wild|app|BIN/matmul-linked -n 60 -w 3 -i 2
issort|wild|app|BIN/issort -w 3 -c 5 -d 5 -v 1
notify|wild|app|BIN/notify -w 3 -n 2
mhf|wild|app|BIN/mhf -w 2 -n 3 -r
cc-matmul|wild|cc|CC/matmul -n 60 -w 3 -i 2
cc-issort|wild|cc|CC/issort -w 3 -c 5 -d 5 -v 1
cc-ring|-|cc|CC/ring -n 4 -r 3 -u 1
ex-hello|-|ex|EX/hello
ex-spmd|-|ex|EX/spmd
ex-inherita|-|ex|EX/inherita
ex-inheritb|-|ex|EX/inheritb
ex-gmbi|-|ex|EX/gmbi
ex-master1|wild|ex|EX/master1
'
CC_APPS="matmul matmul-worker issort issort-worker ring ring-node"
EXAMPLES_TAR=/usr/share/doc/pvm-examples/examples.tar.gz

if [ $list = 1 ]; then
	echo "$PROGRAMS" | awk -F'|' 'NF == 4 { printf "%-14s %-5s %s\n", $1, $2, $4 }'
	exit 0
fi
[ $# -eq 2 ] || { usage >&2; exit 2; }

# A tree: the folder with build/bin/pvmmon, or a build folder with bin/pvmmon.
tree_of() {
	local d
	d=$(cd "$1" 2>/dev/null && pwd) || return 1
	if [ -x "$d/build/bin/pvmmon" ]; then echo "$d"
	elif [ -x "$d/bin/pvmmon" ] && [ -d "$d/../apps" ]; then (cd "$d/.." && pwd)
	else return 1
	fi
}
old=$(tree_of "$1") || { echo "compare-logs: $1 is not a built tree" >&2; exit 2; }
new=$(tree_of "$2") || { echo "compare-logs: $2 is not a built tree" >&2; exit 2; }
command -v python3 >/dev/null || { echo "compare-logs: needs python3" >&2; exit 2; }
export PVM_ALLOW_ROOT=1
# Make's flags must not reach the examples' own make.
unset MAKEFLAGS MFLAGS MAKELEVEL

work=$(mktemp -d "${TMPDIR:-/tmp}/compare-logs.XXXXXX") || exit 2
[ $keep = 1 ] || trap 'rm -rf "$work"' EXIT

# The filter: a log on stdin, its normalised lines on stdout. argv: wild (0/1), then
# path prefixes to replace (OLD and NEW trees as <ROOT>, the work folder as <WORK>).
cat >"$work/normalise.py" <<'EOF'
import re, sys
import xml.etree.ElementTree as ET

wild = sys.argv[1] == "1"
prefixes = [(p, name) for p, name in zip(sys.argv[2::2], sys.argv[3::2])]
TIMED = re.compile(r"(-ns|-ps|-ppb)$")
DROP = {"started", "pid", "flushes", "samples", "clock-estimates", "rt", "vt", "sync",
        "trans"}
WILD_DROP = {"hash", "senders"}

def path(v):
    for p, name in prefixes:
        v = v.replace(p, name)
    return v

def attrs(e):
    out = []
    for k in sorted(e.attrib):
        v = e.attrib[k]
        if TIMED.search(k) or k in DROP or (wild and k in WILD_DROP):
            continue
        if e.tag == "setting" and k == "value" and e.get("key") == "monitor-peak-rss-kb":
            continue
        out.append('%s="%s"' % (k, path(v)))
    return " ".join(out)

def children(e):
    kids = list(e)
    if e.tag == "tasks":
        kids.sort(key=lambda t: [int(x) for x in t.get("lid", "0").split(".") if x.isdigit()])
    if wild and e.tag == "stmt":
        kids.sort(key=lambda c: (c.tag, c.get("partner-lid", ""), c.get("partner-tid", "")))
    return kids

def put(e, depth):
    text = (e.text or "").strip()
    if wild and e.tag == "record":
        text = ""
    print("%s<%s %s> %s" % ("  " * depth, e.tag, attrs(e), path(text)))
    for c in children(e):
        put(c, depth + 1)

put(ET.parse(sys.stdin).getroot(), 0)
EOF

# Builds what one side needs: the pvmmon-cc programs in work/SIDE/cc.
prepare() {
	local side=$1 tree=$2 a
	mkdir -p "$work/$side/cc" || return 1
	for a in $CC_APPS; do
		(cd "$tree" && build/bin/pvmmon-cc -g -O2 -o "$work/$side/cc/$a" "apps/$a.c" -lpvm3) \
			>"$work/$side/cc/$a.out" 2>&1 || { cat "$work/$side/cc/$a.out" >&2; return 1; }
	done
}

# PVM's examples, built once with gcc for both sides.
have_examples=0
if [ -r $EXAMPLES_TAR ]; then
	mkdir -p "$work/examples/build" &&
		(cd "$work/examples" && tar xzf $EXAMPLES_TAR && cd build &&
			make -k -f ../examples/Makefile.aimk SDIR=../examples PVMDIR=/usr/lib/pvm3 \
				BDIR="$PWD/bin" XDIR="$PWD/bin" PVM_ARCH=LINUX64 CC=gcc c-all) \
			>"$work/examples.out" 2>&1 && have_examples=1
	[ $have_examples = 1 ] || echo "compare-logs: PVM's examples did not build (see -k)" >&2
fi
prepare old "$old" && prepare new "$new" || { echo "compare-logs: pvmmon-cc failed" >&2; exit 2; }

# Runs program name (command cmd) once under side's pvmmon; writes its normalised log
# to out. The command's words BIN, CC and EX are the side's folders.
run_one() {
	local side=$1 tree=$2 name=$3 wild=$4 cmd=$5 out=$6 dir words
	dir="$work/$side/run-$name"
	rm -rf "$dir" && mkdir -p "$dir"
	words=$(echo "$cmd" | sed "s|BIN/|$tree/build/bin/|g; s|CC/|$work/$side/cc/|g;
		s|EX/|$work/examples/build/bin/|g")
	# shellcheck disable=SC2086
	(cd "$dir" && "$tree/build/bin/pvmmon" run -q -o "$dir/log.xml" $words) \
		>"$dir/stdout" 2>"$dir/stderr"
	echo $? >"$dir/status"
	if [ ! -s "$dir/log.xml" ]; then
		echo "no log (exit status $(cat "$dir/status")): $(head -c 400 "$dir/stderr")" >"$out"
		return
	fi
	python3 "$work/normalise.py" $([ "$wild" = wild ] && echo 1 || echo 0) \
		"$old/" "<ROOT>/" "$new/" "<ROOT>/" "$work/old/" "<WORK>/" "$work/new/" "<WORK>/" \
		"$work/" "<WORK>/" <"$dir/log.xml" >"$out" 2>&1
	echo "exit status $(cat "$dir/status")" >>"$out"
	# What the program printed, when its order is its own.
	if [ "$wild" != wild ]; then
		echo "stdout:" >>"$out"
		sed "s|$work/$side/|<WORK>/|g; s|$tree/|<ROOT>/|g" "$dir/stdout" >>"$out"
	fi
}

bad=0
while IFS='|' read -r name wild how cmd; do
	[ -n "$name" ] || continue
	if [ -n "$only" ] && ! echo ",$only," | grep -q ",$name,"; then continue; fi
	if [ "$how" = ex ] && [ $have_examples = 0 ]; then
		echo "SKIP $name (no PVM examples)"
		continue
	fi
	differs=0
	for r in $(seq 1 "$runs"); do
		run_one old "$old" "$name" "$wild" "$cmd" "$work/$name.old.$r"
		run_one new "$new" "$name" "$wild" "$cmd" "$work/$name.new.$r"
		# Every run of either side against the first run of OLD.
		for f in "$work/$name.old.$r" "$work/$name.new.$r"; do
			[ "$f" = "$work/$name.old.1" ] && continue
			if ! diff -u "$work/$name.old.1" "$f" >"$f.diff"; then
				[ $differs = 0 ] && echo "DIFF $name"
				differs=1
				sed 's/^/    /' "$f.diff" | head -60
			fi
		done
	done
	if [ $differs = 0 ]; then echo "OK   $name"; else bad=1; fi
done <<<"$PROGRAMS"
[ $keep = 1 ] && echo "work folder kept: $work"
exit $bad
