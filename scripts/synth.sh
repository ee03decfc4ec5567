#!/usr/bin/env bash
# Synthesizes the SM (rtl/sm, top baresm_sm) with Yosys' generic `synth` on a
# small configuration and reports the cell count. Memories become flip-flops
# in the generic flow, so the configuration is kept small (1 lane, 2 warps,
# 2 registers per thread); the logic per lane and per warp is the same as in
# the large shapes.
#   scripts/synth.sh [--coarse] [out_dir]   (default out_dir: build/synth)
# --coarse stops before the fine (gate-level) part of `synth`: the design is
# elaborated, its processes, FSMs and memories are inferred and word-level
# cells counted, in a fraction of the time; that is what `make test` runs
# (ctest rtl_sm_synth). The full flow, with the gate count the docs quote,
# is `make synth`.
# Environment: SYNTH_PARAMS replaces the chparam list; YOSYS the binary.
# Results of a full run are recorded in docs/microarchitecture.md.
set -euo pipefail
cd "$(dirname "$0")/.."

run="synth -top baresm_sm -noshare"
if [ "${1:-}" = "--coarse" ]; then
  run="synth -top baresm_sm -noshare -run :fine"
  shift
fi
out=${1:-build/synth}
mkdir -p "$out"
YOSYS=${YOSYS:-yosys}
params=${SYNTH_PARAMS:-$(scripts/sm-config.sh synth --chparam)}   # rtl/configs.txt

mapfile -t files < <(scripts/rtl-files.sh '^rtl/(prim|sm)/')   # the SM's part of rtl/baresm.f (with its RAM primitives)

# -noshare: SAT-based resource sharing takes most of the run time on the
# wide lane multiplexers and changes little in the count. `check -assert`
# fails the run on a used wire without a driver: how Yosys 0.23 shows a
# construct it read wrongly (the fields of a struct variable declared inside
# a process become implicit, undriven wires).
log="$out/synth.log"
start=$(date +%s)
if ! "$YOSYS" -q -p "read_verilog -sv -Irtl/prim ${files[*]}; chparam ${params} baresm_sm; \
    ${run}; check -assert; tee -q -o $out/stat.txt stat" >"$log" 2>&1; then
  echo "synth: yosys failed (see $log):" >&2
  grep -E "ERROR|implicitly declared|no driver" "$log" | head -n 20 >&2
  exit 1
fi
cells=$(sed -n 's/^ *Number of cells: *\([0-9]*\).*/\1/p' "$out/stat.txt" | tail -n1)
if [ -z "$cells" ] || [ "$cells" -eq 0 ]; then
  echo "synth: no cells reported (see $log)" >&2
  exit 1
fi
echo "synth (${run}): baresm_sm -> ${cells} cells in $(( $(date +%s) - start )) s (per module: $out/stat.txt)"
grep -E "^=== |Number of cells" "$out/stat.txt" | paste - - |
  sed -E 's/.*\\([A-Za-z0-9_]+)( ===|\\).*Number of cells: +([0-9]+)/  \3 \1/' | sort -rn
