#!/bin/sh
# Installs what is missing, builds, and runs every test (unit, then integration).
set -eu
cd "$(dirname "$0")/.."
scripts/setup.sh
make check
