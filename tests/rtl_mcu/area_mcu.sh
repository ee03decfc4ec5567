#!/usr/bin/env bash
# ctest area_mcu / area_mcu_planted (label synth): the control core alone
# (baresm_mcu_core, PcW 16) through Yosys `synth_ice40` (flattened), then
# `nextpnr-ice40 --up5k --package sg48 --pack-only` for its logic cells
# (docs/mcu.md "Area"). Fails when it grows past its budgets of SB_LUT4 and
# flip-flops (measured + about 5 %), or its register file is not 4 EBR (two
# copies of 32 x 32, one for rs1 and one for rs2).
#   area_mcu.sh OUT_DIR [LUT_BUDGET FF_BUDGET]   synthesize and check
#   area_mcu.sh --planted OUT_DIR  the checker on saved stat lines that must
#                                  fail (LUTs over; FFs over; the register
#                                  file in flip-flops, no EBR; no count) or pass
set -euo pipefail
cd "$(dirname "$0")/../.."
# The two-cycle core (two register-file copies, fetch overlapped with execute,
# a logarithmic shifter): 864 SB_LUT4 and 52 flip-flops measured (Yosys 0.23);
# the budgets are those + 5 %. (The four-cycle core before it: 727 and 90.)
LUT_BUDGET=907
FF_BUDGET=55
EBR_WANT=4       # the register file: two copies of 32 x 32, 2 EBR each

check() {  # check STAT_FILE LUT_BUDGET FF_BUDGET: prints the verdict, 0 when within
  local lut ff ebr
  lut=$(awk '$1 == "SB_LUT4" {n = $2} END {print n + 0}' "$1")
  ff=$(awk '$1 ~ /^SB_DFF/ {n += $2} END {print n + 0}' "$1")
  ebr=$(awk '$1 ~ /^SB_RAM40_4K/ {n += $2} END {print n + 0}' "$1")
  if [ "$lut" -eq 0 ]; then echo "FAIL: no SB_LUT4 count in $1"; return 1; fi
  if [ "$lut" -gt "$2" ]; then echo "FAIL: baresm_mcu_core is $lut SB_LUT4, over the budget of $2"; return 1; fi
  if [ "$ff" -gt "$3" ]; then echo "FAIL: baresm_mcu_core has $ff flip-flops, over the budget of $3"; return 1; fi
  if [ "$ebr" -ne "$EBR_WANT" ]; then echo "FAIL: baresm_mcu_core maps to $ebr SB_RAM40_4K (want $EBR_WANT: the register file's two copies)"; return 1; fi
  echo "PASS: baresm_mcu_core is $lut SB_LUT4 (budget $2), $ff flip-flops (budget $3), $ebr SB_RAM40_4K"
}

if [ "${1:-}" = "--planted" ]; then
  out="$2"; mkdir -p "$out"; status=0
  printf '     SB_CARRY 57\n     SB_DFFER 52\n     SB_LUT4 %d\n     SB_RAM40_4K 4\n' $((LUT_BUDGET + 1)) > "$out/lut.stat"
  printf '     SB_DFFE 10\n     SB_DFFER %d\n     SB_LUT4 600\n     SB_RAM40_4K 4\n' $((FF_BUDGET - 9)) > "$out/ff.stat"
  printf '     SB_DFFE 1100\n     SB_LUT4 600\n' > "$out/noebr.stat"
  printf '     SB_CARRY 48\n' > "$out/empty.stat"
  printf '     SB_CARRY 57\n     SB_DFFER 52\n     SB_LUT4 864\n     SB_RAM40_4K 4\n' > "$out/good.stat"
  for f in lut ff noebr empty; do
    if check "$out/$f.stat" "$LUT_BUDGET" "$FF_BUDGET" > "$out/$f.log"; then echo "planted $f: MISSED"; status=1
    else echo "planted $f: caught ($(cat "$out/$f.log"))"; fi
  done
  check "$out/good.stat" "$LUT_BUDGET" "$FF_BUDGET" > "$out/good.log" ||
    { echo "good stat refused: $(cat "$out/good.log")"; status=1; }
  [ $status -eq 0 ] && echo "PASS: every planted stat refused, the good one taken"
  exit $status
fi

out="$1"; lut_budget="${2:-$LUT_BUDGET}"; ff_budget="${3:-$FF_BUDGET}"
mkdir -p "$out"
files=$(scripts/rtl-files.sh '^rtl/prim/baresm_ram_1r1w|^rtl/mcu/' | tr '\n' ' ')
yosys -q -l "$out/yosys.log" -p "read_verilog -sv -DSYNTHESIS -Irtl/prim $files;
  chparam -set PcW 16 baresm_mcu_core;
  synth_ice40 -top baresm_mcu_core -json $out/mcu.json; tee -q -o $out/stat.txt stat" > /dev/null
if command -v nextpnr-ice40 > /dev/null; then
  # Logic cells (LUT and flip-flop pairs); the core's ports are not pins here,
  # so the IO count is meaningless and no pcf is given.
  if nextpnr-ice40 --up5k --package sg48 --pack-only --json "$out/mcu.json" > "$out/nextpnr.log" 2>&1; then
    grep -E 'ICESTORM_LC|ICESTORM_RAM' "$out/nextpnr.log" | sed 's/^Info: *//' | head -2
  else
    echo "note: nextpnr-ice40 --pack-only failed (see $out/nextpnr.log)"
  fi
fi
grep -E 'SB_' "$out/stat.txt" | sed 's/^ */  /'
check "$out/stat.txt" "$lut_budget" "$ff_budget"
