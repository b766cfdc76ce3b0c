#!/bin/sh
# Installs what is missing, builds, and runs every test (unit, then integration), then
# a short fuzz run of every reader.
set -eu
cd "$(dirname "$0")/.."
scripts/setup.sh
make check
# A short bounded fuzz run of every reader (make fuzz; FUZZ_SECONDS per target).
make fuzz FUZZ_SECONDS="${FUZZ_SECONDS:-10}"
