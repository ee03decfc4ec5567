#!/bin/sh
# Regenerates kernels/cuda/*.ptx from kernels/cuda/*.cu with nvcc, exactly as
# they are committed (`nvcc -O3 -arch=sm_80 -ptx`), or with --check compares
# what nvcc makes now with the committed files and fails when one is stale.
#
# nvcc is optional: without it (NVCC or /usr/local/cuda/bin/nvcc or PATH) the
# script says so and exits 77, which CTest reports as a skipped test, or 0
# with --no-nvcc-ok (the `ptx` build target: a skip, said loudly, not an
# error). An nvcc
# of another release than the one that wrote a committed file is a skip too
# for --check (its output differs in more than the kernel), not a failure.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
dir="$here/kernels/cuda"
check=0
missing=77
[ "${1:-}" = "--check" ] && check=1
[ "${1:-}" = "--no-nvcc-ok" ] && missing=0

nvcc="${NVCC:-}"
if [ -n "$nvcc" ] && ! command -v "$nvcc" >/dev/null 2>&1; then
  echo "gen-ptx: SKIPPED: NVCC=$nvcc is not an executable; the committed kernels/cuda/*.ptx are used as they are"
  exit $missing
fi
[ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc
[ -z "$nvcc" ] && nvcc=$(command -v nvcc || true)
if [ -z "$nvcc" ]; then
  echo "gen-ptx: SKIPPED: nvcc not found (set NVCC=...); the committed kernels/cuda/*.ptx are used as they are"
  exit $missing
fi
release=$("$nvcc" --version | sed -n 's/^Cuda compilation tools, \(.*\)$/\1/p')
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
stale=0
for cu in "$dir"/*.cu; do
  name=$(basename "$cu" .cu)
  out="$tmp/$name.ptx"
  "$nvcc" -O3 -arch=sm_80 -ptx "$cu" -o "$out"
  # nvcc writes the path it was given nowhere in the PTX, so the result does
  # not depend on where the tree is checked out.
  if [ $check -eq 0 ]; then
    cp "$out" "$dir/$name.ptx"
    echo "gen-ptx: kernels/cuda/$name.ptx"
    continue
  fi
  committed="$dir/$name.ptx"
  if [ ! -f "$committed" ]; then
    echo "gen-ptx: kernels/cuda/$name.ptx is missing (run make ptx)"
    stale=1
    continue
  fi
  if ! grep -q "^// Cuda compilation tools, $release\$" "$committed"; then
    echo "gen-ptx: SKIPPED: kernels/cuda/$name.ptx was written by another nvcc release than this one ($release)"
    exit 77
  fi
  if ! cmp -s "$out" "$committed"; then
    echo "gen-ptx: kernels/cuda/$name.ptx is stale relative to $name.cu (run make ptx):"
    diff "$committed" "$out" | head -20 || true
    stale=1
  fi
done
[ $check -eq 1 ] && [ $stale -eq 0 ] && echo "gen-ptx: every kernels/cuda/*.ptx matches its .cu ($release)"
exit $stale
