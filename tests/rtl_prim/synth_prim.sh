#!/usr/bin/env bash
# ctest rtl_prim_synth: each RAM primitive, in the shapes the SM uses,
# through Yosys synth_ice40 must map to EBR (SB_RAM40_4K), the expected
# number of them, with no flip-flops beyond a few of glue (the contents must
# not become flip-flops).
#   tests/rtl_prim/synth_prim.sh [out_dir]
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-build/rtl_prim}
mkdir -p "$out"
YOSYS=${YOSYS:-yosys}
status=0
# module Depth Width MaskW expected-EBR max-FF   (what it is in the SM)
while read -r mod depth width mask ebr maxff what; do
  [ -n "$mod" ] || continue
  log="$out/$mod-${depth}x${width}m$mask.log"
  "$YOSYS" -q -l "$log" -p "read_verilog -sv -Irtl/prim rtl/prim/$mod.sv; \
    chparam -set Depth $depth -set Width $width -set MaskW $mask $mod; \
    synth_ice40 -top $mod; tee -q -o $log.stat stat" >/dev/null 2>&1 ||
    { echo "FAIL $mod ${depth}x$width: yosys failed (see $log)"; status=1; continue; }
  n_ebr=$(awk '$1 ~ /^SB_RAM40_4K/ {s += $2} END {print s + 0}' "$log.stat")
  n_ff=$(awk '$1 ~ /^SB_DFF/ {s += $2} END {print s + 0}' "$log.stat")
  if [ "$n_ebr" -eq "$ebr" ] && [ "$n_ff" -le "$maxff" ]; then
    echo "ok   $mod ${depth}x$width mask $mask: $n_ebr SB_RAM40_4K, $n_ff FF ($what)"
  else
    echo "FAIL $mod ${depth}x$width mask $mask: $n_ebr SB_RAM40_4K (want $ebr), $n_ff FF (at most $maxff) ($what)"
    status=1
  fi
done <<'LIST'
baresm_ram_1r1w  256 16  1  1  0  one EBR, 256x16
baresm_ram_1r1w  512 32  4  4  0  byte-masked words, 512x8 per EBR
baresm_ram_1r1w  64  32  4  2  0  a micro shared-memory bank (2048 B / 8 banks)
baresm_ram_1r1w  256 32  4  2  0  a c1w8 shared-memory bank (8192 B / 8 banks)
baresm_ram_1r1w  2048 32 1  16 0  micro register file, one copy (2048 x 32)
LIST
exit $status
