#!/bin/sh
# Builds tests/cudart/bin/mathlib and mathlib_fast (--use_fast_math) from
# main.cu and kernel.cu (one compilation unit per function) with nvcc 13.
set -eu
NVCC=${1:-${NVCC:-/usr/local/cuda/bin/nvcc}}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for fast in "" "--use_fast_math"; do
  objs=""
  for fa in expf:1 logf:1 powf:2 sinf:1 cosf:1 tanhf:1 sqrtf:1 rsqrtf:1 fmaf:3 floorf:1 erff:1; do
    f=${fa%%:*}; args=${fa#*:}
    "$NVCC" -O3 -arch=sm_90 $fast -c "$here/kernel.cu" -DFN=$f -DNARGS=$args -o "$tmp/$f.o"
    objs="$objs $tmp/$f.o"
  done
  out=$here/../bin/mathlib${fast:+_fast}
  "$NVCC" -O3 -arch=sm_90 $fast -cudart shared "$here/main.cu" $objs -o "$out"
done
