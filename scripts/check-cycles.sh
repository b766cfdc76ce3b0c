#!/bin/sh
# Reports cycles between the files of a source folder and exits 1 when there is one.
# Nodes are the folder's modules (x.c, x.h and build/DIR/x.o are module x); an edge
# a -> b when a's object has an undefined symbol that b's object defines (nm), or when
# a's source or header includes b's header ("b.h", a header of the same folder). A
# module's own calls and includes are no edge. The cycles are tsort's.
# Usage: scripts/check-cycles.sh DIR...   (objects under $BUILD/DIR, BUILD=build)
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
status=0
for dir in "$@"; do
	dir=${dir%/}
	objs=$(ls "$BUILD/$dir"/*.o 2>/dev/null)
	if [ -z "$objs" ]; then
		echo "check-cycles: no objects in $BUILD/$dir (build first)" >&2
		status=2
		continue
	fi
	edges=$(
		{
			# Calls: "D symbol module" for definitions, "U symbol module" for uses.
			for o in $objs; do
				m=$(basename "$o" .o)
				nm -g --defined-only "$o" | awk -v m="$m" 'NF >= 3 { print "D", $3, m }'
				nm -u "$o" | awk -v m="$m" '{ print "U", $NF, m }'
			done | awk '$1 == "D" && !($2 in def) { def[$2] = $3; next }
				    $1 == "U" { use[NR] = $2 " " $3 }
				    END { for (i in use) { split(use[i], u, " ");
						if ((u[1] in def) && def[u[1]] != u[2]) print u[2], def[u[1]] } }'
			# Includes of the folder's own headers.
			for f in "$dir"/*.c "$dir"/*.h; do
				[ -e "$f" ] || continue
				m=$(basename "$f"); m=${m%.*}
				sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"/]*\)\.h".*/\1/p' "$f" |
				while read -r h; do
					[ -e "$dir/$h.h" ] && [ "$h" != "$m" ] && echo "$m $h"
				done
			done
		} | sort -u
	)
	loops=$(printf '%s\n' "$edges" | tsort 2>&1 >/dev/null)
	if [ -n "$loops" ]; then
		echo "check-cycles: $dir has a cycle (a -> b: a calls or includes b):"
		printf '%s\n' "$loops" | sed 's/^tsort: //'
		# The edges among the modules tsort named, to see the cycle whole.
		printf '%s\n' "$loops" | grep -v 'input contains a loop' | sed 's/^tsort: //' | sort -u >"${TMPDIR:-/tmp}/check-cycles.$$"
		printf '%s\n' "$edges" | awk -v f="${TMPDIR:-/tmp}/check-cycles.$$" '
			BEGIN { while ((getline l < f) > 0) in_loop[l] = 1 }
			($1 in in_loop) && ($2 in in_loop) { print "  " $1 " -> " $2 }'
		rm -f "${TMPDIR:-/tmp}/check-cycles.$$"
		status=1
	else
		echo "check-cycles: $dir: no cycle"
	fi
done
exit $status
