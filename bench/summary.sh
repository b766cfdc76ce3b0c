#!/bin/sh
# The summary table at the top of doc/benchmarks.md and its history section, made from
# bench/results.tsv (each measure's target and latest value, with its date and command)
# and bench/history.tsv (the values later runs replaced), between the doc's markers.
# Usage: bench/summary.sh                 regenerates both from the files
#        bench/summary.sh --record FILE   first takes FILE's lines, "key<TAB>value<TAB>
#            date<TAB>command" (bench/run.sh writes them as its sections end): each
#            replaces its key's value, date and command; the replaced ones go to the
#            history. A key results.tsv does not have is an error naming FILE.
set -eu
cd "$(dirname "$0")/.."
res=bench/results.tsv hist=bench/history.tsv doc=doc/benchmarks.md
tab=$(printf '\t')
if [ "${1:-}" = --record ]; then
	new=${2:?--record needs a file}
	[ -r "$new" ] || { echo "summary: cannot read $new" >&2; exit 2; }
	[ -f "$hist" ] || printf '# Values bench/results.tsv held before a later run replaced them: key, measure, value, date, command (tab-separated).\n' >"$hist"
	tmp=$(mktemp "$res.XXXXXX")
	# The last record of a key wins; the value it replaces goes to the history.
	if ! awk -F "$tab" -v OFS="$tab" -v new="$new" -v hist="$hist" '
		FNR == NR { if (NF != 4) { printf "summary: %s:%d: want 4 tab-separated fields\n", new, FNR > "/dev/stderr"; bad = 1 }
			rec[$1] = $0; order[++n] = $1; next }
		/^#/ || $1 == "key" { print; next }
		($1 in rec) { split(rec[$1], r, "\t"); seen[$1] = 1
			if ($4 != "-") print $1, $2, $4, $5, $6 >> hist
			print $1, $2, $3, r[2], r[3], r[4]; next }
		{ print }
		END { for (i = 1; i <= n; i++) if (!(order[i] in seen)) {
				printf "summary: %s: unknown key %s (not in bench/results.tsv)\n", new, order[i] > "/dev/stderr"; bad = 1 }
			exit bad }' "$new" "$res" >"$tmp"; then
		rm -f "$tmp"
		exit 1
	fi
	mv "$tmp" "$res"
fi

# The generated parts, as markdown.
table=$(mktemp) histtab=$(mktemp)
trap 'rm -f "$table" "$histtab"' EXIT
awk -F "$tab" '/^#/ || $1 == "key" {next}
	BEGIN { print "| measure | target | latest | date (UTC) | command |"; print "|---|---|---:|---|---|" }
	{ cmd = ($6 == "-") ? "-" : "`" $6 "`"; printf "| %s | %s | %s | %s | %s |\n", $2, $3, $4, $5, cmd }' "$res" >"$table"
if [ -f "$hist" ] && grep -qv '^#' "$hist"; then
	# Newest first.
	grep -v '^#' "$hist" | sort -t "$tab" -k4,4r -s | awk -F "$tab" '
		BEGIN { print "| measure | value | date (UTC) | command |"; print "|---|---:|---|---|" }
		{ printf "| %s | %s | %s | `%s` |\n", $2, $3, $4, $5 }' >"$histtab"
else
	echo "No value of the summary has been replaced yet." >"$histtab"
fi
tmp=$(mktemp "$doc.XXXXXX")
awk -v table="$table" -v hist="$histtab" '
	function put(f,   l) { while ((getline l < f) > 0) print l; close(f) }
	/^<!-- summary begin/ { print; put(table); skip = 1; next }
	/^<!-- summary end/ { skip = 0; found++ }
	/^<!-- history begin/ { print; put(hist); skip = 1; next }
	/^<!-- history end/ { skip = 0; found++ }
	!skip { print }
	END { if (found != 2) { print "summary: doc/benchmarks.md lacks its summary or history markers" > "/dev/stderr"; exit 1 } }' "$doc" >"$tmp" || { rm -f "$tmp"; exit 1; }
mv "$tmp" "$doc"
