#!/bin/sh
# Rebuilds the committed nvcc binaries of tests/cudart/bin and
# examples/cuda_app (nvcc is optional: without it the committed ones are used).
#   tests/cudart/build-bins.sh [NVCC]
set -eu
NVCC=${1:-${NVCC:-/usr/local/cuda/bin/nvcc}}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
if ! command -v "$NVCC" >/dev/null 2>&1; then
  echo "build-bins.sh: no nvcc ($NVCC); the committed binaries stay as they are" >&2
  exit 0
fi
FLAGS="-O3 -arch=sm_90 -cudart shared"
set -x
"$NVCC" $FLAGS "$root/examples/cuda_app/vec_add.cu" -o "$root/examples/cuda_app/vec_add"
"$NVCC" $FLAGS "$here/api.cu" -o "$here/bin/api"
"$NVCC" $FLAGS "$here/errors.cu" -o "$here/bin/errors"
"$NVCC" $FLAGS "$here/refused.cu" -o "$here/bin/refused"
"$NVCC" $FLAGS "$here/api2.cu" "$here/api2_b.cu" -o "$here/bin/api2"
"$NVCC" $FLAGS "$here/symbols.cu" -o "$here/bin/symbols"
"$NVCC" $FLAGS "$here/int64.cu" -o "$here/bin/int64"
"$NVCC" $FLAGS "$here/calls.cu" -o "$here/bin/calls"
"$NVCC" $FLAGS "$here/recursion.cu" -o "$here/bin/recursion"
"$here/mathlib/build.sh" "$NVCC"
# the same program with an uncompressed fatbinary (the reader's other path)
"$NVCC" $FLAGS -Xfatbin -compress=false "$root/examples/cuda_app/vec_add.cu" -o "$here/bin/vec_add_uncompressed"
# ... and with the per-thread default stream (the *_ptsz / *_ptds entry points)
"$NVCC" $FLAGS --default-stream per-thread "$root/examples/cuda_app/vec_add.cu" -o "$here/bin/vec_add_per_thread"
