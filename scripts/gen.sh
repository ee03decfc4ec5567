#!/usr/bin/env bash
# Every generated file of the repository, from its table, in one place.
#   scripts/gen.sh TOOLDIR            regenerate them all in the checkout
#   scripts/gen.sh --check TOOLDIR    regenerate into a temporary directory and
#                                     fail naming every committed file that differs
# TOOLDIR holds the generators (build/tools: `cmake --build build --target gen`
# builds them and runs this; `make gen` does both). The ctest
# generated_files_current runs the check.
#
#   table (contract/, its README)  generator         generated files
#   contract/opcodes.def           gen_isa_pkg       rtl/sm/baresm_isa_pkg.sv fw/include/baresm_isa.h
#   contract/regmap.def            gen_regs          rtl/cp/baresm_regs_pkg.sv docs/registers.md
#                                                    rtl/cp/baresm_cp_regs.sv (the CP's register block)
#   contract/rings.def             gen_rings         rtl/cp/baresm_ring_pkg.sv docs/ring-formats.md
#   contract/faults.def,
#   contract/states.def,
#   contract/sm_report.def         gen_states        rtl/sm/baresm_state_pkg.sv
#   contract/launch.def            gen_launch        rtl/sm/baresm_launch_pkg.sv docs/launch-descriptor.md
#                                                    rtl/prim/baresm_launch_types.svh
#   contract/msm_io.def            gen_msm_io        rtl/msm/baresm_msm_io_pkg.sv
#   contract/sm_config.def         gen_sm_config     rtl/sm/baresm_smcfg_pkg.sv docs/sm-config.md
#   contract/serial_protocol.def   gen_serial        rtl/fpga/baresm_serial_pkg.sv host_driver/serial_protocol.h
#   states, faults, rings, opcodes gen_gtkw_filters  sim/gtkw/filters/*.txt
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
check=0
if [ "${1:-}" = --check ]; then check=1; shift; fi
[ $# -eq 1 ] || { echo "usage: scripts/gen.sh [--check] TOOLDIR" >&2; exit 2; }
T=$(cd "$1" && pwd)

if [ $check = 1 ]; then
  OUT=$(mktemp -d)
  trap 'rm -rf "$OUT"' EXIT
else
  OUT=$ROOT
fi
mkdir -p "$OUT/fw/include" "$OUT/rtl/msm" "$OUT/rtl/sm" "$OUT/rtl/prim" "$OUT/rtl/cp" "$OUT/rtl/fpga" "$OUT/host_driver" "$OUT/docs" "$OUT/sim/gtkw/filters"

run() {  # run GENERATOR ARGS...: one line naming the generator when it fails
  if ! "$T/$1" "${@:2}"; then
    echo "scripts/gen.sh: $1 failed (see its message above)" >&2
    exit 1
  fi
}
run gen_isa_pkg "$OUT/rtl/sm/baresm_isa_pkg.sv" "$OUT/fw/include/baresm_isa.h"
run gen_regs "$OUT/rtl/cp/baresm_regs_pkg.sv" "$OUT/docs/registers.md" "$OUT/rtl/cp/baresm_cp_regs.sv"
run gen_rings "$OUT/rtl/cp/baresm_ring_pkg.sv" "$OUT/docs/ring-formats.md"
run gen_states "$OUT/rtl/sm/baresm_state_pkg.sv"
run gen_launch "$OUT/rtl/sm/baresm_launch_pkg.sv" "$OUT/rtl/prim/baresm_launch_types.svh" "$OUT/docs/launch-descriptor.md"
run gen_sm_config "$OUT/rtl/sm/baresm_smcfg_pkg.sv" "$OUT/docs/sm-config.md"
run gen_msm_io "$OUT/rtl/msm/baresm_msm_io_pkg.sv"
run gen_serial "$OUT/rtl/fpga/baresm_serial_pkg.sv" "$OUT/host_driver/serial_protocol.h"
run gen_gtkw_filters "$OUT/sim/gtkw/filters"

[ $check = 1 ] || exit 0
stale=0
while IFS= read -r f; do
  rel=${f#"$OUT"/}
  if ! cmp -s "$f" "$ROOT/$rel"; then
    echo "$rel is stale (or missing): run \`make gen\` (cmake --build build --target gen) and commit the result" >&2
    diff -u "$ROOT/$rel" "$f" 2>&1 | head -n 12 | sed 's/^/    /' >&2 || true
    stale=$((stale + 1))
  fi
done < <(find "$OUT" -type f | sort)
n=$(find "$OUT" -type f | wc -l)
if [ $stale -gt 0 ]; then
  echo "scripts/gen.sh: $stale of $n generated files are stale" >&2
  exit 1
fi
echo "scripts/gen.sh: all $n generated files are current"
