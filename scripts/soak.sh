#!/usr/bin/env bash
# The long random soak: constrained-random programs (isa/progen.h) in lockstep
# with the functional model on every SM configuration, over a seed range.
#
#   scripts/soak.sh [FIRST:COUNT] [I/N]      (make soak SEEDS=FIRST:COUNT SHARD=I/N)
#
# FIRST:COUNT: the seeds of every profile (default 100000:200, i.e. 14 x 200
# programs per configuration). I/N: run only the seeds with seed % N == I, so
# that N machines (a CI matrix) share one range. Every failing program is
# listed, with the command that reproduces it, in build/soak/failures.txt;
# exit status 1 when there is one.
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
SEEDS=${1:-100000:200}
SHARD=${2:-0/1}
out="$BUILD/soak"
mkdir -p "$out"
: > "$out/failures.txt"
status=0
for bin in "$BUILD"/tests/rtl_sm/test_rtl_sm_random_*; do
  [ -x "$bin" ] || continue
  cfg=${bin##*_random_}
  log="$out/$cfg.log"
  echo "soak: $cfg seeds $SEEDS shard $SHARD"
  BARESM_SOAK_SEEDS=$SEEDS BARESM_SOAK_SHARD=$SHARD "$bin" > "$log" 2>&1
  rc=$?
  grep '^\[random\]' "$log" | sed 's/^/  /'
  if [ $rc -ne 0 ]; then
    status=1
    grep -A1 '^reproduce:' "$log" >> "$out/failures.txt" || true
    grep '^\[random-fail\]' "$log" | sed 's/^/  FAIL /'
  fi
done
if [ ! -s "$out/failures.txt" ] && [ $status -eq 0 ]; then
  echo "soak: no failures"
else
  echo "soak: failures listed in $out/failures.txt"
fi
exit $status
