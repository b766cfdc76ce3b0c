#!/bin/sh
# The demo: a master/worker matrix multiplication monitored end to end on a private
# virtual machine; validates the log and prints the summary; then the same program
# built with pvmmon-cc and traced, with an HTML report of its graphs and space-time
# diagrams.
set -eu
cd "$(dirname "$0")/.."
scripts/setup.sh
out=${1:-matmul.pvmmon.xml}
echo "== pvmmon run -o $out -- matmul -n 240 -w 4 -i 3"
build/bin/pvmmon run -o "$out" -- build/bin/matmul -n 240 -w 4 -i 3
echo "== pvmmon validate $out"
build/bin/pvmmon validate "$out"
echo "== pvmmon report $out --text"
build/bin/pvmmon report "$out" --text
# The same program built with pvmmon-cc: procedure and loop probes and static tables,
# so the HTML report also has the program graph and the call graph.
mkdir -p build/demo
build/bin/pvmmon-cc -g -O2 -o build/demo/matmul apps/matmul.c -lpvm3
build/bin/pvmmon-cc -g -O2 -o build/demo/matmul-worker apps/matmul-worker.c -lpvm3
# With --trace the log also holds an event trace, for the space-time diagram.
echo "== pvmmon run --trace -o matmul-cc.pvmmon.xml -- matmul (built with pvmmon-cc)"
build/bin/pvmmon run --trace -o matmul-cc.pvmmon.xml -- build/demo/matmul -n 240 -w 4 -i 3
echo "== pvmmon report matmul-cc.pvmmon.xml -o matmul-report --time both"
build/bin/pvmmon report matmul-cc.pvmmon.xml -o matmul-report --time both
