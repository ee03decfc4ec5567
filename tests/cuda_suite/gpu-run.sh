#!/bin/bash
# Makes the reference outputs (ref/) on a machine with an NVIDIA GPU and
# NVIDIA's libcudart.so.13: every program of programs.txt, the committed
# binaries as they are, through run-suite.sh --raw.
#   gpu-run.sh OUTDIR [NAME...]
# writes OUTDIR/ref/NAME.{stdout,stderr,rc,<output file>,loaded} and
# OUTDIR/ref/device.txt (nvidia-smi, the runtime that was loaded).
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=$1/ref; shift; mkdir -p "$out"
if ! ldconfig -p | grep -q 'libcudart.so.13 '; then
  for d in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib /usr/local/cuda-13*/lib64 /usr/local/cuda-13*/lib; do
    [ -e "$d/libcudart.so.13" ] && { export LD_LIBRARY_PATH="$d${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"; break; }
  done
fi
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; ldd "$here/bin/pb_2mm" | grep cudart; } > "$out/device.txt" 2>&1
names=("$@")
[ ${#names[@]} -gt 0 ] || mapfile -t names < <(grep -v '^#' "$here/programs.txt" | cut -d'|' -f1)
for n in "${names[@]}"; do
  s=$(date +%s%N)
  "$here/run-suite.sh" --raw "$out" "$n"
  echo "$n: exit $(cat "$out/$n.rc"), $(( ($(date +%s%N) - s) / 1000000 )) ms" | tee -a "$out/device.txt"
done
