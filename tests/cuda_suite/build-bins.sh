#!/bin/bash
# Rebuilds the committed binaries (bin/) and their PTX (ptx/) of the suite's
# programs (programs.txt) with nvcc 13. nvcc is optional: without it the
# committed ones stay as they are.
#   tests/cuda_suite/build-bins.sh [NVCC] [NAME...]
set -eu
NVCC=${1:-${NVCC:-/usr/local/cuda/bin/nvcc}}
[ $# -gt 0 ] && shift
here=$(cd "$(dirname "$0")" && pwd)
if ! command -v "$NVCC" >/dev/null 2>&1; then
  echo "build-bins.sh: no nvcc ($NVCC); the committed binaries stay as they are" >&2
  exit 0
fi
FLAGS="-O3 -arch=sm_90 -cudart shared"
cd "$here"
mkdir -p bin ptx
grep -v '^#' programs.txt | while IFS='|' read -r name srcs flags args out status; do
  if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$name"; then continue; fi
  # shellcheck disable=SC2086
  (set -x; "$NVCC" $FLAGS $flags $srcs -o "bin/$name")
  # the PTX the binary embeds: nvcc -ptx of each CUDA source, in link order
  : > "ptx/$name.ptx"
  for f in $srcs; do
    case $f in *.cu) "$NVCC" -O3 -arch=sm_90 $flags -ptx "$f" -o - >> "ptx/$name.ptx" ;; esac
  done
done
