#!/bin/sh
# Reports C files over 800 lines and functions over 120 lines (the code style's bounds);
# exits 1 when any is found. Functions are found by the Linux brace style clang-format
# keeps: a definition's body opens with "{" alone in column 0 and closes with "}" there.
# Usage: scripts/check-structure.sh [FILE...]   (default: every tracked .c file)
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || set -- $(git ls-files '*.c' | grep -v '^tests/fixtures/')
awk -v maxfile=800 -v maxfn=120 '
FNR == 1 { if (prev != "" && plines > maxfile) { printf "%s: %d lines (over %d)\n", prev, plines, maxfile; bad = 1 }
           prev = FILENAME; start = 0 }
{ plines = FNR }
/^\{$/ { start = FNR; name = last }
/^\}/ { if (start && FNR - start > maxfn) { printf "%s:%d: %s: %d lines (over %d)\n", FILENAME, start, name, FNR - start, maxfn; bad = 1 }
        start = 0 }
/^[A-Za-z_].*\(/ { last = $0 }
END { if (plines > maxfile) { printf "%s: %d lines (over %d)\n", prev, plines, maxfile; bad = 1 }
      exit bad }' "$@"
