#!/usr/bin/env bash
# The isa library's unit and fuzz tests under ASan + UBSan (tests/sanitize),
# built in their own directory ($BUILD/sanitize) and run; exit status 1 when
# a test fails or a sanitizer reports anything.
#
#   scripts/sanitize.sh [JOBS]            (make sanitize)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
JOBS=${1:-$(nproc)}
out="$BUILD/sanitize"
cmake -S tests/sanitize -B "$out" -DCMAKE_BUILD_TYPE=Debug >/dev/null
cmake --build "$out" -j "$JOBS"
# halt_on_error: one report fails the run; leaks are reported too.
export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
cd "$out" && ctest --output-on-failure -j "$JOBS" --timeout 900
