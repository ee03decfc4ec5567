#!/usr/bin/env bash
# tests/rtl_cp: the block test of the CP's serial-multiplier blocks under
# Icarus (tb_cp_check.sv says what it checks).
#   run_tb.sh OUTDIR            the RTL as it is: must print PASS:
#   run_tb.sh OUTDIR --planted  planted bugs, each must make it print FAIL:
#                               (grid_z not multiplied in; the fault CTA
#                               without cta_y; the multiplier stopping one
#                               bit early)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="$1"; mode="${2:-}"
mkdir -p "$out"
run() {  # run NAME CHECK FCTA MUL: prints the testbench's verdict line
  iverilog -g2012 -I"$root/rtl/prim" -o "$out/$1.vvp" "$root/rtl/sm/baresm_state_pkg.sv" \
    "$root/rtl/cp/baresm_ring_pkg.sv" "$4" "$2" "$3" \
    "$root/tests/rtl_cp/tb_cp_check_ref.sv" "$root/tests/rtl_cp/tb_cp_check.sv" 2>/dev/null
  vvp -n "$out/$1.vvp" > "$out/$1.log" 2>&1 || true
  grep -m1 -E '^(PASS|FAIL):' "$out/$1.log" || echo "FAIL: $1 printed no verdict"
}
chk="$root/rtl/cp/baresm_cp_check.sv"; fc="$root/rtl/cp/baresm_cp_fault_cta.sv"; mul="$root/rtl/cp/baresm_cp_mul.sv"
if [ "$mode" != "--planted" ]; then
  run rtl "$chk" "$fc" "$mul"
  exit 0
fi
status=0
plant() {  # plant NAME FILE SED: the mutant must fail
  local m="$out/$1.sv" v
  sed "$3" "$2" > "$m"
  cmp -s "$m" "$2" && { echo "planted $1: the edit did not apply"; status=1; return; }
  case "$2" in
    "$chk") v=$(run "$1" "$m" "$fc" "$mul");;
    "$fc") v=$(run "$1" "$chk" "$m" "$mul");;
    *) v=$(run "$1" "$chk" "$fc" "$m");;
  esac
  case "$v" in FAIL:*) echo "planted $1: caught ($v)";; *) echo "planted $1: MISSED ($v)"; status=1;; esac
}
plant no_grid_z "$chk" 's/mul_b = grid_z;/mul_b = grid_y;/'
plant no_cta_y "$fc" 's/mul_b = mul_p + cta_y_i;/mul_b = mul_p;/'
plant mul_short "$mul" "s/busy_d = (b_q >> 1) != '0;/busy_d = (b_q >> 2) != '0;/"
[ $status -eq 0 ] && echo "PASS: every planted bug caught"
exit $status
