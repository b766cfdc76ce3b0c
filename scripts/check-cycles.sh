#!/bin/sh
# Reports cycles between the files of a source folder and exits 1 when there is one.
# Nodes are the folder's modules (x.c, x.h and build/DIR/x.o are module x); an edge
# a -> b when a's object has an undefined symbol that b's object defines (nm), or when
# a's source or header includes b's header ("b.h", a header of the same folder). A
# module's own calls and includes are no edge. The cycles are tsort's.
# Packages: files that are one module split for size count as one node, the package.
# A package is module x and the files that include its header x_impl.h, and the
# modules of each line "NAME: MODULE MODULE ..." of DIR/packages ("#" starts a comment).
# --packages checks the modules inside each package instead, each package alone.
# --edges prints the edges between nodes ("a b" lines) and checks nothing
# (scripts/layers-dot.sh draws them).
# Usage: scripts/check-cycles.sh [--packages | --edges] DIR...
#        (objects under $BUILD/DIR, BUILD=build)
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
status=0
mode=nodes
case "${1:-}" in
--packages) mode=packages; shift ;;
--edges) mode=edges; shift ;;
esac

# "module package" lines for DIR's packages.
packages_of() {
	for h in "$1"/*_impl.h; do
		[ -e "$h" ] || continue
		p=$(basename "$h" _impl.h)
		echo "$p $p"; echo "${p}_impl $p"
		grep -l "^[[:space:]]*#[[:space:]]*include[[:space:]]*\"${p}_impl.h\"" "$1"/*.c "$1"/*.h |
			while read -r f; do m=$(basename "$f"); echo "${m%.*} $p"; done
	done
	[ -e "$1/packages" ] && sed 's/#.*//' "$1/packages" |
		awk -F: 'NF >= 2 { n = split($2, m, " "); for (i = 1; i <= n; i++) print m[i], $1 }'
	return 0
}

# Reports the cycles among edges ("a b" lines) of what (a folder or a package): 1 if any.
report() {
	loops=$(printf '%s\n' "$2" | tsort 2>&1 >/dev/null)
	if [ -n "$loops" ]; then
		echo "check-cycles: $1 has a cycle (a -> b: a calls or includes b):"
		printf '%s\n' "$loops" | sed 's/^tsort: //'
		# The edges among the modules tsort named, to see the cycle whole.
		printf '%s\n' "$loops" | grep -v 'input contains a loop' | sed 's/^tsort: //' | sort -u >"${TMPDIR:-/tmp}/check-cycles.$$"
		printf '%s\n' "$2" | awk -v f="${TMPDIR:-/tmp}/check-cycles.$$" '
			BEGIN { while ((getline l < f) > 0) in_loop[l] = 1 }
			($1 in in_loop) && ($2 in in_loop) { print "  " $1 " -> " $2 }'
		rm -f "${TMPDIR:-/tmp}/check-cycles.$$"
		return 1
	fi
	echo "check-cycles: $1: no cycle"
}

# DIR itself, or, when its objects are in subfolders (tests/: unit/*, integration), each
# subfolder that has objects.
folders_of() {
	if ls "$BUILD/$1"/*.o >/dev/null 2>&1; then
		echo "$1"
		return
	fi
	found=$(find "$1" -mindepth 1 -type d | sort | while read -r d; do
		ls "$BUILD/$d"/*.o >/dev/null 2>&1 && echo "$d"; done)
	if [ -n "$found" ]; then echo "$found"; else echo "$1"; fi
}

for dir in $(for a in "$@"; do folders_of "${a%/}"; done); do
	objs=$(ls "$BUILD/$dir"/*.o 2>/dev/null)
	# Programs built straight from their sources (bench/: one file each, no objects):
	# only the includes of the folder's own headers can make a cycle.
	if [ -z "$objs" ] && { [ ! -d "$BUILD/$dir" ] || ! ls "$dir"/*.c >/dev/null 2>&1; }; then
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
	pkgs=$(packages_of "$dir" | sort -u)
	if [ "$mode" = packages ]; then
		for p in $(printf '%s\n' "$pkgs" | awk 'NF { print $2 }' | sort -u); do
			inner=$(printf '%s\n' "$pkgs" | awk -v p="$p" '$2 == p { printf "%s ", $1 }')
			pedges=$(printf '%s\n' "$edges" | awk -v l="$inner" '
				BEGIN { n = split(l, m, " "); for (i = 1; i <= n; i++) in_p[m[i]] = 1 }
				($1 in in_p) && ($2 in in_p)')
			report "$dir package $p" "$pedges" || status=1
		done
		continue
	fi
	# Each end of an edge named by its package, if it is in one.
	edges=$(printf '%s\n' "$edges" | awk -v f="$(printf '%s\n' "$pkgs" | tr '\n' ';')" '
		BEGIN { n = split(f, l, ";"); for (i = 1; i <= n; i++) if (split(l[i], w, " ") == 2) pkg[w[1]] = w[2] }
		NF == 2 { a = ($1 in pkg) ? pkg[$1] : $1; b = ($2 in pkg) ? pkg[$2] : $2
			  if (a != b) print a, b }' | sort -u)
	if [ "$mode" = edges ]; then
		printf '%s\n' "$edges"
		continue
	fi
	report "$dir" "$edges" || status=1
done
exit $status
