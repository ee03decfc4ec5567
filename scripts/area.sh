#!/usr/bin/env bash
# Area of the SM (top baresm_sm) on FPGA technology, per module and in total,
# for named parameter sets:
#   scripts/area.sh [--ice40-only|--xilinx-only] [--budget N] CONFIG...
# CONFIG is a name of rtl/configs.txt (micro, c1w8, c8w8, c32w16, ...). Each runs
#   ice40:  synth_ice40 -dsp -noflatten        (iCE40 UltraPlus cells)
#   xilinx: synth_xilinx -abc9                 (7-series cells; no flatten by default)
# without the `share` pass (see below).
# on the SM's part of rtl/baresm.f, and prints, per module and for the whole
# SM: LUTs (SB_LUT4 / LUT1..LUT6), carry cells (SB_CARRY / CARRY4), flip-flops,
# RAM blocks (SB_RAM40_4K, SB_SPRAM256KA / RAMB18E1, RAMB36E1, and LUTRAM
# cells RAM*M/RAM*S), DSPs (SB_MAC16 / DSP48E1).
# The hierarchy is kept (-noflatten), so every module is counted on its own;
# the numbers of a parameterised module are those of its instance(s) in this
# SM, and the total multiplies each module by its instance count (Yosys
# `stat -top`). Keeping the hierarchy stops optimisation across module
# boundaries: a flattened run is a few percent smaller.
# --lsu: synthesize only the load/store unit (top baresm_lsu, with the LSU's
#   parameters taken from CONFIG: NumLanes, NumWarps, NumBanks, SharedBytes,
#   MemLineBytes, NumWindows, LsuIdWidth as MemIdWidth): minutes instead of
#   the whole SM's hour; the per-module rows are the LSU's sub-blocks.
# --serial: the thread-serial SM (top baresm_ssm, rtl/ssm) with CONFIG's
#   parameters (rtl/configs.txt `serial`): minutes, its RAMs included.
# --flatten: the ice40 flow flattened (synth_ice40's default): one total, no
#   per-module rows, but constants and unused outputs cross module
#   boundaries (a port tied to 0, such as the FPU's predicate writes when
#   HasFpu=0, removes the logic behind it), as in a board build.
# --budget N: exit 1 when the ice40 LUT4 total of the (last) config exceeds N.
# --blackbox MODULE (repeatable): leave MODULE out (a black box: its instance
#   is counted as one cell of its own type, none of its contents). For the
#   register file, whose 3 write ports keep it out of RAM blocks: as
#   flip-flops it is 32 x RfDepth x NumLanes of them and runs for longer
#   than the rest of the SM together (docs/microarchitecture.md, Area).
# Environment: YOSYS (default yosys), AREA_OUT (default build/area).
# Logs and the stat JSON of each run: $AREA_OUT/<config>-<tech>.{log,json}.
set -euo pipefail
cd "$(dirname "$0")/.."

config_params() { scripts/sm-config.sh "$1"; }   # the named configurations: rtl/configs.txt

techs="ice40 xilinx"
budget=""
blackbox=""
top=baresm_sm
noflatten="-noflatten"
configs=()
while [ $# -gt 0 ]; do
  case "$1" in
    --ice40-only) techs="ice40" ;;
    --xilinx-only) techs="xilinx" ;;
    --budget) budget="$2"; shift ;;
    --blackbox) blackbox+=" *$2"; shift ;;
    --lsu) top=baresm_lsu ;;
    --serial) top=baresm_ssm ;;
    --flatten) noflatten="" ;;
    -h|--help) sed -n '2,28p' "$0"; exit 0 ;;
    *) configs+=("$1") ;;
  esac
  shift
done
[ ${#configs[@]} -gt 0 ] || { echo "usage: scripts/area.sh [--ice40-only|--xilinx-only] [--budget N] [--blackbox MODULE]... [--lsu] [--flatten] CONFIG..." >&2; exit 2; }

YOSYS=${YOSYS:-yosys}
out=${AREA_OUT:-build/area}
mkdir -p "$out"
mapfile -t files < <(scripts/rtl-files.sh '^rtl/(prim|sm|ssm)/')   # the SMs' part of rtl/baresm.f (with the RAM primitives)

status=0
for cfg in "${configs[@]}"; do
  p=$(config_params "$cfg")
  chparam=""
  for kv in $p; do
    k=${kv%%=*}
    if [ "$top" = baresm_lsu ]; then
      case "$k" in
        NumLanes|NumWarps|NumBanks|SharedBytes|MemLineBytes|NumWindows) ;;
        LsuIdWidth) k=MemIdWidth ;;
        *) continue ;;
      esac
    fi
    chparam+=" -set $k ${kv#*=}"
  done
  for tech in $techs; do
    # Each flow as its own script with the one change that makes it finish
    # in minutes: no `share` (SAT-based resource sharing takes most of the
    # run time on the SM's wide multiplexers and changes little; the same
    # choice as scripts/synth.sh -noshare). The other steps are those of
    # Yosys 0.23's `synth_ice40 -dsp -noflatten` / `synth_xilinx -abc9`.
    case "$tech" in
      ice40)
        s="synth_ice40 -dsp $noflatten -top $top"
        run="$s -run :coarse; opt_expr; opt_clean; check; opt -nodffe -nosdff; fsm; opt; \
wreduce; peepopt; opt_clean; techmap -map +/cmp2lut.v -D LUT_WIDTH=4; opt_expr; opt_clean; \
memory_dff; wreduce t:\$mul; techmap -map +/mul2dsp.v -map +/ice40/dsp_map.v -D DSP_A_MAXWIDTH=16 \
-D DSP_B_MAXWIDTH=16 -D DSP_A_MINWIDTH=2 -D DSP_B_MINWIDTH=2 -D DSP_Y_MINWIDTH=11 \
-D DSP_NAME=\$__MUL16X16; select a:mul2dsp; setattr -unset mul2dsp; opt_expr -fine; wreduce; \
select -clear; ice40_dsp; chtype -set \$mul t:\$__soft_mul; alumacc; opt; memory -nomap; \
opt_clean; $s -run map_ram:" ;;
      xilinx)
        s="synth_xilinx -abc9 -top $top"
        run="$s -run :coarse; techmap -map +/cmp2lut.v -map +/cmp2lcu.v -D LUT_WIDTH=6; alumacc; \
opt; memory -nomap; opt_clean; $s -run map_memory:" ;;
    esac
    base="$out/$cfg-$tech"
    [ "$top" = baresm_sm ] || base="$out/$cfg-$top-$tech"
    # A top whose parameters make Yosys derive it keeps its \$paramod name: name it back.
    rentop="rename -top $top;"

    start=$(date +%s)
    bb=""
    [ -z "$blackbox" ] || bb="hierarchy -top $top; rename -top $top; blackbox${blackbox};"
    if ! "$YOSYS" -q -l "$base.log" -p "read_verilog -sv -Irtl/prim ${files[*]}; \
        chparam${chparam} $top; ${bb} ${run}; ${rentop} tee -q -o $base.json stat -json -top $top" \
        >/dev/null 2>&1; then
      echo "area: $cfg $tech: yosys failed (see $base.log)" >&2
      status=1
      continue
    fi
    secs=$(( $(date +%s) - start ))
    echo "== $cfg ($p) -- $tech: $run${blackbox:+, black boxes:$blackbox}, $secs s"
    lut=$(python3 - "$base.json" "$tech" "$top" 2>"$base.lut" <<'EOF'
import json, sys, re
# Yosys 0.23's `stat -json -top` prints the submodules of a submodule as
# plain text lines inside the JSON: drop every line that is not JSON.
stat = json.loads("".join(l for l in open(sys.argv[1]) if l.strip()[:1] in ('{', '}', '[', ']', '"', '')))
tech = sys.argv[2]
def cls(cell):
    if tech == "ice40":
        if cell == "SB_LUT4": return "lut"
        if cell == "SB_CARRY": return "carry"
        if re.match(r"SB_DFF", cell): return "ff"
        if cell in ("SB_RAM40_4K", "SB_RAM40_4KNR", "SB_RAM40_4KNW", "SB_RAM40_4KNRNW"): return "ebr"
        if cell == "SB_SPRAM256KA": return "spram"
        if cell == "SB_MAC16": return "dsp"
    else:
        if re.match(r"LUT[1-6]$", cell): return "lut"
        if cell in ("CARRY4", "CARRY8"): return "carry"
        if re.match(r"FD[CPRSE]*$", cell): return "ff"
        if re.match(r"RAMB(18|36)", cell): return "bram"
        if re.match(r"RAM(16|32|64|128|256)", cell): return "lutram"
        if re.match(r"DSP48", cell): return "dsp"
    return None
cols = ["lut", "carry", "ff", "ebr", "spram", "dsp"] if tech == "ice40" else \
       ["lut", "carry", "ff", "bram", "lutram", "dsp"]
names = {"lut": "LUT4" if tech == "ice40" else "LUT", "carry": "carry", "ff": "FF",
         "ebr": "EBR", "spram": "SPRAM", "bram": "RAMB18/36", "lutram": "LUTRAM", "dsp": "DSP"}
mods = stat["modules"]
def short(m):
    m = m.lstrip("\\")
    g = re.match(r"\$paramod\$[0-9a-f]+\\(\w+)", m) or re.match(r"\$paramod\\(\w+)", m)
    return g.group(1) if g else m
rows = []
for m, s in mods.items():
    c = dict.fromkeys(cols, 0)
    for cell, n in s.get("num_cells_by_type", {}).items():
        k = cls(cell)
        if k == "bram" and cell.startswith("RAMB36"): n *= 2   # in RAMB18 units
        if k: c[k] += n
    rows.append((short(m), c))
rows.sort(key=lambda r: -r[1]["lut"])
print("  %-22s" % "module (own cells)" + "".join("%10s" % names[k] for k in cols))
for name, c in rows:
    print("  %-22s" % name + "".join("%10d" % c[k] for k in cols))
tot = dict.fromkeys(cols, 0)
design = stat.get("design", {})
for cell, n in design.get("num_cells_by_type", {}).items():
    k = cls(cell)
    if k == "bram" and cell.startswith("RAMB36"): n *= 2
    if k: tot[k] += n
print("  %-22s" % ("total (%s)" % sys.argv[3]) + "".join("%10d" % tot[k] for k in cols))
print(tot["lut"], file=sys.stderr)
EOF
    )
    echo "$lut"
    if [ "$tech" = ice40 ] && [ -n "$budget" ]; then
      n=$(cat "$base.lut")
      if ! [[ "$n" =~ ^[0-9]+$ ]]; then
        echo "area: $cfg: no LUT4 total to hold to the budget (see $base.lut)" >&2
        status=1
      elif [ "$n" -gt "$budget" ]; then
        echo "area: $cfg: $n iCE40 LUT4 is over the budget of $budget" >&2
        status=1
      else
        echo "area: $cfg: $n iCE40 LUT4 within the budget of $budget"
      fi
    fi
  done
done
exit $status
