#!/bin/bash
# Makes the GPU references of tests/cudart (ref/) on a machine with an NVIDIA
# GPU and NVIDIA's libcudart.so.13: the committed binaries as they are.
#   tests/cudart/gpu-run.sh OUTDIR [NAME...]      (default: calls recursion mathlib mathlib_fast symbols int64 fma)
# writes OUTDIR/NAME.gpu.txt (stdout+stderr), OUTDIR/mathlib*.gpu.bin (every
# result word) and OUTDIR/device.txt (nvidia-smi, the runtime that was loaded).
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=$1; shift; mkdir -p "$out"
if ! ldconfig -p | grep -q 'libcudart.so.13 '; then
  for d in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib /usr/local/cuda-13*/lib64 /usr/local/cuda-13*/lib; do
    [ -e "$d/libcudart.so.13" ] && { export LD_LIBRARY_PATH="$d${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"; break; }
  done
fi
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; ldd "$here/bin/calls" | grep cudart; } > "$out/device.txt" 2>&1
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(calls recursion mathlib mathlib_fast symbols int64 fma)
for n in "${names[@]}"; do
  case $n in
    mathlib*) "$here/bin/$n" -w "$out/$n.gpu.bin" > "$out/$n.gpu.txt" 2>&1 ;;
    fma) "$here/../ptx/bin/fma_contract" > "$out/fma_contract_gpu.txt" 2>&1
         "$here/../ptx/bin/fma_contract_nofmad" > "$out/fma_contract_nofmad_gpu.txt" 2>&1 ;;
    *) "$here/bin/$n" > "$out/$n.gpu.txt" 2>&1 ;;
  esac
  echo "$n: exit $?" >> "$out/device.txt"
done
