#!/bin/sh
# Bench set-up (sections 29, called by bench/run.sh only): the C sources a package of
# the npm registry ships, the folder SUBDIR of package PACKAGE, copied into the folder
# DEST, fetched once with `npm pack` (a DEST that already holds them is taken as it is).
# Usage: bench/npm_src.sh PACKAGE SUBDIR DEST
# Prints DEST's absolute path and exits 0; without npm, the network or the folder in
# the package it says why on stderr and exits 1, so that the caller skips its part.
set -eu
pkg=${1:?usage: bench/npm_src.sh PACKAGE SUBDIR DEST}
sub=${2:?usage: bench/npm_src.sh PACKAGE SUBDIR DEST}
dest=${3:?usage: bench/npm_src.sh PACKAGE SUBDIR DEST}
if [ -f "$dest/source" ]; then
	(cd "$dest" && pwd)
	exit 0
fi
if ! command -v npm >/dev/null 2>&1; then
	echo "bench: no npm, so no sources of $pkg (npm pack $pkg)" >&2
	exit 1
fi
mkdir -p "$dest/pack"
# npm pack writes the tarball into the current folder and its name on stdout's last
# line; its cache goes into the folder too, so that nothing is left outside it.
if ! tgz=$(cd "$dest/pack" && timeout 300 npm pack --silent --cache "$dest/pack/cache" \
	"$pkg" 2>"$dest/pack/npm.err" | tail -n 1) || [ ! -f "$dest/pack/$tgz" ]; then
	echo "bench: npm pack $pkg failed (no network?): $(tail -n 1 "$dest/pack/npm.err")" >&2
	exit 1
fi
if ! tar -xzf "$dest/pack/$tgz" -C "$dest/pack" "package/$sub" 2>"$dest/pack/tar.err"; then
	echo "bench: $tgz has no $sub: $(head -n 1 "$dest/pack/tar.err")" >&2
	exit 1
fi
mv "$dest/pack/package/$sub"/* "$dest/"
echo "$tgz" >"$dest/source"
rm -rf "$dest/pack"
(cd "$dest" && pwd)
