#!/bin/sh
# The demo: a master/worker matrix multiplication monitored end to end on a private
# virtual machine; validates the log and prints the summary.
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
