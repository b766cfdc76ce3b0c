#!/bin/sh
# Installs the Debian packages pvmmon needs (only those missing) and builds it.
set -eu
cd "$(dirname "$0")/.."

PKGS="build-essential pkg-config pvm pvm-dev libpvm3 pvm-examples libxml2-dev libxml2-utils
libcunit1-dev graphviz libgraphviz-dev libdw-dev libelf-dev libunwind-dev valgrind libclang-dev chromium tmux
clang libclang-rt-14-dev iproute2 util-linux libopen-trace-format2-dev otf2-tools python3-otf2 python3-jsonschema
netpipe-pvm tablix2 tablix2-doc"

missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done
if [ -n "$missing" ]; then
	echo "setup: installing:$missing"
	SUDO=""
	[ "$(id -u)" -eq 0 ] || SUDO="sudo"
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
fi
make -j"$(nproc)" all
