#!/bin/sh
# Bench set-up (section 29, called by bench/run.sh only): the SQLite amalgamation
# (sqlite3.c and sqlite3.h, from deps/sqlite3 in the npm package better-sqlite3) into
# the folder DEST, fetched once with `npm pack` by bench/npm_src.sh (BENCH_SQLITE_DIR,
# a folder that already holds both files, is taken instead and nothing is fetched).
# Usage: bench/sqlite_get.sh DEST
# Prints the folder that holds sqlite3.c and sqlite3.h and exits 0; without npm, the
# network or the files in the package it says why on stderr and exits 1, so that the
# section's part is skipped.
set -eu
dest=${1:?usage: bench/sqlite_get.sh DEST}
if [ -n "${BENCH_SQLITE_DIR:-}" ]; then
	if [ -f "$BENCH_SQLITE_DIR/sqlite3.c" ] && [ -f "$BENCH_SQLITE_DIR/sqlite3.h" ]; then
		(cd "$BENCH_SQLITE_DIR" && pwd)
		exit 0
	fi
	echo "bench: BENCH_SQLITE_DIR=$BENCH_SQLITE_DIR has no sqlite3.c and sqlite3.h" >&2
	exit 1
fi
d=$(bench/npm_src.sh better-sqlite3 deps/sqlite3 "$dest")
if [ ! -f "$d/sqlite3.c" ] || [ ! -f "$d/sqlite3.h" ]; then
	echo "bench: deps/sqlite3 of better-sqlite3 has no sqlite3.c and sqlite3.h" >&2
	exit 1
fi
echo "$d"
