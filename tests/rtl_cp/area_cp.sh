#!/usr/bin/env bash
# ctest area_cp_board / area_cp_board_planted (label synth): the command
# processor alone at the iCEBreaker's parameters (one queue pair, 16-byte
# lines, 128 KB, the `micro` SM's CONFIG values, as baresm_fpga_board passes
# them) through Yosys `synth_ice40 -dsp -spram`, flattened
# (docs/command-processor.md, "At the iCEBreaker's size"). Fails when the
# CP grows past its SB_LUT4 budget or maps to any SB_MAC16 (the UP5K has 8,
# and the SM needs them).
#   area_cp.sh OUT_DIR [BUDGET]   synthesize and check (default budget 4750:
#                                 4,666 measured on 2026-12-06 after the typed
#                                 memory ports, whose word-level netlist is the
#                                 one that mapped to 4,519 before them (1,155
#                                 cells, type for type): ABC's mapping moves by
#                                 about 150 LUT4 with names and order alone)
#   area_cp.sh --planted OUT_DIR  the checker on saved stat lines that must
#                                 fail (over budget; a SB_MAC16) or pass
set -euo pipefail
cd "$(dirname "$0")/../.."

check() {  # check STAT_FILE BUDGET: prints the verdict, returns 0 when within
  local lut mac
  lut=$(awk '$1 == "SB_LUT4" {n = $2} END {print n + 0}' "$1")
  mac=$(awk '$1 == "SB_MAC16" {n = $2} END {print n + 0}' "$1")
  if [ "$lut" -eq 0 ]; then echo "FAIL: no SB_LUT4 count in $1"; return 1; fi
  if [ "$lut" -gt "$2" ]; then echo "FAIL: baresm_cp is $lut SB_LUT4, over the budget of $2"; return 1; fi
  if [ "$mac" -ne 0 ]; then echo "FAIL: baresm_cp maps to $mac SB_MAC16 (want none)"; return 1; fi
  echo "PASS: baresm_cp is $lut SB_LUT4 (budget $2), $mac SB_MAC16"
}

if [ "${1:-}" = "--planted" ]; then
  out="$2"; mkdir -p "$out"; status=0
  printf '     SB_CARRY 1604\n     SB_LUT4 4751\n' > "$out/over.stat"
  printf '     SB_LUT4 4500\n     SB_MAC16 1\n' > "$out/mac.stat"
  printf '     SB_CARRY 1604\n' > "$out/empty.stat"
  printf '     SB_LUT4 4666\n' > "$out/good.stat"
  for f in over mac empty; do
    if check "$out/$f.stat" 4750 > "$out/$f.log"; then echo "planted $f: MISSED"; status=1
    else echo "planted $f: caught ($(cat "$out/$f.log"))"; fi
  done
  check "$out/good.stat" 4750 > "$out/good.log" || { echo "good stat refused: $(cat "$out/good.log")"; status=1; }
  [ $status -eq 0 ] && echo "PASS: every planted stat refused, the good one taken"
  exit $status
fi

out="$1"; budget="${2:-4750}"
mkdir -p "$out"
params="-set NumQueues 1 -set MemLineBytes 16 -set MemBytes 131072 -set ClockKhz 12000 -set NumLanes 1"
params+=" -set NumWarps 4 -set CtaSlots 1 -set NumBanks 4 -set MaxRegs 16 -set StackDepth 4 -set SharedBytes 2048"
params+=" -set RegfileRegs 2048 -set HasFpu 0 -set NumWindows 4"
files=$(scripts/rtl-files.sh '_pkg\.sv$|^rtl/prim/|^rtl/cp/' | tr '\n' ' ')
yosys -q -l "$out/yosys.log" -p "read_verilog -sv -DSYNTHESIS -Irtl/prim -Irtl/sm $files;
  chparam $params baresm_cp;
  synth_ice40 -top baresm_cp -dsp -spram; tee -q -o $out/stat.txt stat" > /dev/null
check "$out/stat.txt" "$budget"
