#!/bin/sh
# make check-install: installs into a fresh prefix, builds tests/install/readlog.c
# against it with pkg-config alone, runs it on a fixture log, and checks that the
# shared libraries export only their public API.
# Usage: tests/install/check.sh PREFIX   (what `make install PREFIX=...` filled)
set -eu
prefix=$1
fail() { echo "check-install: $*" >&2; exit 1; }

export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
flags=$(pkg-config --cflags --libs pvmmon) || fail "pkg-config finds no pvmmon in $prefix"
# Only the installed headers: the tree's include/ is not on the path.
${CC:-cc} -std=c99 -Wall -Wextra -Werror -o "$prefix/readlog" tests/install/readlog.c \
    $flags -Wl,-rpath,"$prefix/lib" || fail "cannot build against the installed headers"
out=$("$prefix/readlog" tests/fixtures/report-matmul.xml) || fail "readlog failed"
[ "$out" = "program /home/user/bin/matmul, 4 tasks" ] || fail "readlog printed '$out'"
ldd "$prefix/readlog" | grep -q "$prefix/lib/libpvmmon.so" || fail "readlog does not use the installed libpvmmon"

# The exports: libpvmmon's public functions only; libpvmhooks's PVM wrappers and probe API.
exports() { nm -D --defined-only "$1" | awk '{print $3}'; }
bad=$(exports "$prefix/lib/libpvmmon.so" | grep -v '^pvmmon_[a-z]' || true)
[ -z "$bad" ] || fail "libpvmmon.so exports internal symbols: $bad"
# libpvmhooks.so: exactly the allowed list (tests/fixtures/hooks-exports.txt).
got=$(exports "$prefix/lib/pvmmon/libpvmhooks.so" | LC_ALL=C sort)
want=$(grep -v '^#' tests/fixtures/hooks-exports.txt | LC_ALL=C sort)
[ "$got" = "$want" ] || fail "libpvmhooks.so exports other than tests/fixtures/hooks-exports.txt lists:
$(printf '%s\n' "$got" | diff - "$(printf '%s\n' "$want" > "$prefix/want-exports"; echo "$prefix/want-exports")" || true)"
echo "check-install: $out; the exports are the public API only"
