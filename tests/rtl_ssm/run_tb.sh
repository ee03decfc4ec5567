#!/usr/bin/env bash
# tests/rtl_ssm: the block test of the thread-serial SM's ALU under Icarus
# (tb_ssm_alu.sv says what it checks).
#   run_tb.sh OUTDIR            the RTL as it is: must print PASS:
#   run_tb.sh OUTDIR --planted  planted bugs, each must make it print FAIL:
#                               (SHRA without its sign correction, CLZ's
#                               smear one level short, ISETP's unsigned bit
#                               taken from IMIN's place, CAS's outcomes
#                               swapped)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="$1"; mode="${2:-}"
mkdir -p "$out"
alu="$root/rtl/ssm/baresm_ssm_alu.sv"
run() {  # run NAME ALU_FILE: prints the testbench's verdict line
  if ! iverilog -g2012 -I"$root/rtl/prim" -o "$out/$1.vvp" "$root/rtl/sm/baresm_isa_pkg.sv" \
    "$root/rtl/sm/baresm_state_pkg.sv" "$root/rtl/sm/baresm_launch_pkg.sv" "$root/rtl/sm/baresm_sm_pkg.sv" \
    "$root/rtl/sm/baresm_lsu_amo.sv" "$2" "$root/tests/rtl_ssm/tb_ssm_alu.sv" 2>"$out/$1.err"; then
    echo "FAIL: $1 does not compile under Icarus: $(grep -m1 -i error "$out/$1.err")"
    return 0
  fi
  vvp -n "$out/$1.vvp" > "$out/$1.log" 2>&1 || true
  grep -m1 -E '^(PASS|FAIL):' "$out/$1.log" || echo "FAIL: $1 printed no verdict"
}
if [ "$mode" != "--planted" ]; then
  run rtl "$alu"
  exit 0
fi
status=0
plant() {  # plant NAME SED: the mutant must fail
  local m="$out/$1.sv" v
  sed "$2" "$alu" > "$m"
  cmp -s "$m" "$alu" && { echo "planted $1: the edit did not apply"; status=1; return; }
  v=$(run "$1" "$m")
  case "$v" in FAIL:*) echo "planted $1: caught ($v)";; *) echo "planted $1: MISSED ($v)"; status=1;; esac
}
plant shra_unsigned "s/(mulhi_s || is_shra)/mulhi_s/"
plant clz_short "s/ | (smear16 >> 16)//"
plant cas_swapped "s/if (eq) src = R_MAC;/if (!eq) src = R_MAC;/"
plant setp_uns_bit "s/is_setp ? mod_i\[baresm_isa_pkg::CMP_UNSIGNED_BIT\] : mod_i\[0\]/mod_i[0]/"
[ $status -eq 0 ] && echo "PASS: every planted bug caught"
exit $status
