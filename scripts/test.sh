#!/bin/sh
# Installs what is missing, builds, and runs every test (unit, then integration), again
# under the sanitizers, then a short fuzz run of every reader.
set -eu
cd "$(dirname "$0")/.."
scripts/setup.sh
make check
# The same unit and integration tests built with AddressSanitizer and UBSan
# (build-asan/); any sanitizer report from any process of a run fails it.
make -j"$(nproc)" check-asan
# A short bounded fuzz run of every reader (make fuzz; FUZZ_SECONDS per target).
make fuzz FUZZ_SECONDS="${FUZZ_SECONDS:-10}"
