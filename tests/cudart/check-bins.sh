#!/bin/bash
# Checks that the committed nvcc-built binaries (build-bins.sh) are current:
# the PTX each one embeds must equal nvcc -ptx of its source with the same
# flags, comments and white space aside. Exit 77 (skipped) without nvcc.
#   check-bins.sh FATBIN_PTX [NVCC]
set -u
tool=$1
NVCC=${2:-${NVCC:-/usr/local/cuda/bin/nvcc}}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
command -v "$NVCC" >/dev/null 2>&1 || { echo "check-bins.sh: no nvcc ($NVCC): skipped"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
FLAGS="-O3 -arch=sm_90"
stale=0
check() {  # binary "sources" [extra flags]: the sources' PTX one after the other, in link order
  local bin=$1 src=$2 f; shift 2
  : > "$tmp/want.ptx"
  for f in $src; do
    # FILE@-DA=1@-DB=2: a source compiled with its own macros (mathlib/kernel.cu)
    local defs=${f#*@}; [ "$defs" = "$f" ] && defs=""; f=${f%%@*}
    "$NVCC" $FLAGS "$@" ${defs//@/ } -ptx "$f" -o "$tmp/one.ptx" || { echo "check-bins.sh: nvcc failed on $f"; stale=1; return; }
    cat "$tmp/one.ptx" >> "$tmp/want.ptx"
  done
  "$tool" "$bin" > "$tmp/have.ptx" || { stale=1; return; }
  # the fatbinary's copy has comments and indentation blanked (the line numbers stay)
  sed -E -i 's|//.*||; s/[[:space:]]+/ /g; s/^ //; s/ $//' "$tmp/want.ptx" "$tmp/have.ptx"
  if cmp -s "$tmp/want.ptx" "$tmp/have.ptx"; then
    echo "current: ${bin#$root/}"
  else
    echo "STALE: ${bin#$root/} does not embed the PTX of ${src//$root\//} (run tests/cudart/build-bins.sh)"
    diff "$tmp/want.ptx" "$tmp/have.ptx" | head -20
    stale=1
  fi
}
app=$root/examples/cuda_app/vec_add.cu
check "$root/examples/cuda_app/vec_add" "$app"
check "$here/bin/vec_add_uncompressed" "$app"
check "$here/bin/vec_add_per_thread" "$app" --default-stream per-thread
check "$here/bin/api" "$here/api.cu"
check "$here/bin/errors" "$here/errors.cu"
check "$here/bin/refused" "$here/refused.cu"
check "$here/bin/api2" "$here/api2.cu $here/api2_b.cu"
check "$here/bin/symbols" "$here/symbols.cu"
check "$here/bin/int64" "$here/int64.cu"
check "$here/bin/calls" "$here/calls.cu"
check "$here/bin/recursion" "$here/recursion.cu"
m=$here/mathlib
units="$m/main.cu"
for fa in expf:1 logf:1 powf:2 sinf:1 cosf:1 tanhf:1 sqrtf:1 rsqrtf:1 fmaf:3 floorf:1 erff:1; do
  units="$units $m/kernel.cu@-DFN=${fa%%:*}@-DNARGS=${fa#*:}"
done
check "$here/bin/mathlib" "$units"
check "$here/bin/mathlib_fast" "$units" --use_fast_math
exit $stale
