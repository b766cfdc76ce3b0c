#!/bin/sh
# Bench set-up (section 29, called by bench/run.sh only): the SQLite amalgamation
# (sqlite3.c and sqlite3.h, from deps/sqlite3 in the npm package better-sqlite3) into
# the folder DEST, fetched once with `npm pack` (BENCH_SQLITE_DIR, a folder that already
# holds both files, is taken instead and nothing is fetched).
# Usage: bench/sqlite_get.sh DEST
# Prints the folder that holds sqlite3.c and sqlite3.h and exits 0; without npm, the
# network or the files in the package it says why on stderr and exits 1, so that the
# section is skipped.
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
if [ -f "$dest/sqlite3.c" ] && [ -f "$dest/sqlite3.h" ]; then
	(cd "$dest" && pwd)
	exit 0
fi
if ! command -v npm >/dev/null 2>&1; then
	echo "bench: no npm, so no SQLite amalgamation (npm pack better-sqlite3)" >&2
	exit 1
fi
mkdir -p "$dest/pack"
# npm pack writes the tarball into the current folder and its name on stdout's last
# line; its cache goes into the folder too, so that nothing is left outside it.
if ! tgz=$(cd "$dest/pack" && timeout 300 npm pack --silent --cache "$dest/pack/cache" \
	better-sqlite3 2>"$dest/pack/npm.err" | tail -n 1) || [ ! -f "$dest/pack/$tgz" ]; then
	echo "bench: npm pack better-sqlite3 failed (no network?): $(tail -n 1 "$dest/pack/npm.err")" >&2
	exit 1
fi
if ! tar -xzf "$dest/pack/$tgz" -C "$dest/pack" package/deps/sqlite3/sqlite3.c \
	package/deps/sqlite3/sqlite3.h 2>"$dest/pack/tar.err"; then
	echo "bench: $tgz has no deps/sqlite3/sqlite3.c and sqlite3.h: $(head -n 1 "$dest/pack/tar.err")" >&2
	exit 1
fi
mv "$dest/pack/package/deps/sqlite3/sqlite3.c" "$dest/pack/package/deps/sqlite3/sqlite3.h" "$dest/"
echo "$tgz" >"$dest/source"
rm -rf "$dest/pack"
(cd "$dest" && pwd)
