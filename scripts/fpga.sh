#!/usr/bin/env bash
# The FPGA flow (docs/fpga.md): Yosys synth_ice40 -> nextpnr-ice40 -> icepack,
# a bitstream under build/fpga/BOARD/, a utilization table and the Fmax
# against the board's clock. Exit status 0 only when the design fits and
# meets timing; otherwise one line "fpga: BOARD: ..." names the resource (or
# the clock) and the numbers.
#
#   scripts/fpga.sh [-o DIR] [--synth-only] BOARD
#       BOARD  icebreaker       baresm_icebreaker_top: the whole device (the
#                               `micro` SM does not fit the UP5K yet; Yosys'
#                               count stops it before place-and-route)
#              icebreaker-link  baresm_icebreaker_link_top: UART, frame bridge,
#                               registers and the 128 KB SPRAM, no SM
#       -o DIR         outputs (default build/fpga/BOARD)
#       --synth-only   stop after Yosys (its count and the early fit check)
#   scripts/fpga.sh --check-log NEXTPNR_LOG [FREQ_MHZ]
#       only the place-and-route checker on an existing nextpnr log (the
#       tests feed it canned logs of an over-full design and a missed clock)
#
# Environment: FPGA_TOP, FPGA_FILES (space-separated .sv), FPGA_PCF, FPGA_FREQ
# override the board's; FPGA_ABC9=1 maps with ABC9 (Debian's berkeley-abc
# aborts in &mfs on these designs with Yosys 0.23, so it is off by default,
# and a mapping whose ABC run failed is refused); FPGA_SEED (nextpnr's seed,
# default 1); YOSYS, NEXTPNR, ICEPACK name the tools.
set -euo pipefail
cd "$(dirname "$0")/.."

YOSYS=${YOSYS:-yosys}
NEXTPNR=${NEXTPNR:-nextpnr-ice40}
ICEPACK=${ICEPACK:-icepack}

# The UP5K's resources (iCE40 UltraPlus family data sheet; nextpnr says the same).
UP5K_LC=5280 UP5K_EBR=30 UP5K_SPRAM=4 UP5K_DSP=8

die() { echo "fpga: $*" >&2; exit 1; }

# check_pnr LOG FREQ NAME: the utilization table and Fmax from a nextpnr-ice40
# log; fails when a resource is over its count, placement ran out of cells,
# or a clock misses FREQ MHz.
check_pnr() {
  local log=$1 freq=$2 name=$3
  [ -s "$log" ] || die "$name: no nextpnr log at $log"
  awk -v name="$name" -v freq="$freq" '
    # "Info: \t         ICESTORM_LC:  1234/ 5280    23%"
    /Device utilisation:/ { in_util = 1; n = 0; next }
    in_util && /^Info:[ \t]+[A-Za-z0-9_]+:[ \t]*[0-9]+\/[ \t]*[0-9]+/ {
      line = $0; sub(/^Info:[ \t]+/, "", line)
      split(line, a, ":"); res = a[1]; gsub(/[ \t]/, "", res)
      split(a[2], b, "/"); used[res] = b[1] + 0; avail[res] = b[2] + 0
      if (!(res in seen)) { seen[res] = 1; order[++n] = res }
      next
    }
    in_util { in_util = 0 }
    /Max frequency for clock/ {
      clk = $0; sub(/.*clock +\x27/, "", clk); sub(/\x27.*/, "", clk)
      mhz = $0; sub(/.*\x27: +/, "", mhz); sub(/ .*/, "", mhz)
      # "(PASS at 12.00 MHz)": the target nextpnr was given
      tgt = freq; if ($0 ~ / at [0-9.]+ MHz/) { tgt = $0; sub(/.* at /, "", tgt); sub(/ MHz.*/, "", tgt) }
      fmax[clk] = mhz + 0; target[clk] = tgt + 0; if (!(clk in cseen)) { cseen[clk] = 1; corder[++nc] = clk }
    }
    /^ERROR:/ && err == "" { err = $0 }
    END {
      want["ICESTORM_LC"] = "LUT4+FF (ICESTORM_LC)"; want["ICESTORM_RAM"] = "EBR (ICESTORM_RAM)"
      want["ICESTORM_SPRAM"] = "SPRAM (ICESTORM_SPRAM)"; want["ICESTORM_DSP"] = "DSP (ICESTORM_DSP)"
      want["SB_IO"] = "IO (SB_IO)"; want["SB_GB"] = "global buffers (SB_GB)"
      split("ICESTORM_LC ICESTORM_RAM ICESTORM_SPRAM ICESTORM_DSP SB_IO SB_GB", show, " ")
      if (n == 0) { printf "fpga: %s: nextpnr printed no utilization table%s\n", name, (err != "" ? " (" err ")" : ""); exit 1 }
      printf "%-26s %8s %8s %7s\n", "resource", "used", "avail", "use"
      over = ""
      for (i = 1; i <= 6; i++) {
        r = show[i]; if (!(r in used)) continue
        pct = avail[r] ? 100.0 * used[r] / avail[r] : 0
        printf "%-26s %8d %8d %6.1f%%\n", want[r], used[r], avail[r], pct
      }
      for (i = 1; i <= n; i++) {
        r = order[i]
        if (used[r] > avail[r] && over == "")
          over = sprintf("%s: %d used, %d available (%.0f%%)", r, used[r], avail[r], 100.0 * used[r] / avail[r])
      }
      if (over != "") { printf "fpga: %s: does not fit: %s\n", name, over; exit 1 }
      if (err != "") { printf "fpga: %s: place-and-route failed: %s\n", name, err; exit 1 }
      if (nc == 0) { printf "fpga: %s: nextpnr reported no clock frequency (is the clock constrained?)\n", name; exit 1 }
      bad = ""
      for (i = 1; i <= nc; i++) {
        c = corder[i]
        t = target[c] > freq ? target[c] : freq
        ok = fmax[c] >= t
        printf "Fmax %-40s %8.2f MHz (target %.2f MHz): %s\n", c, fmax[c], t, ok ? "PASS" : "FAIL"
        if (!ok && bad == "") bad = sprintf("clock %s reaches %.2f MHz, the target is %.2f MHz", c, fmax[c], t)
      }
      if (bad != "") { printf "fpga: %s: misses timing: %s\n", name, bad; exit 1 }
    }' "$log"
}

# check_synth STAT NAME: the early fit check on Yosys' stat of the mapped
# netlist (a design far over the part fails here, before nextpnr runs).
check_synth() {
  local stat=$1 name=$2
  awk -v name="$name" -v lc="$UP5K_LC" -v ebr="$UP5K_EBR" -v spram="$UP5K_SPRAM" -v dsp="$UP5K_DSP" '
    $1 == "SB_LUT4" { lut += $2 } $1 ~ /^SB_DFF/ { ff += $2 } $1 == "SB_CARRY" { carry += $2 }
    $1 == "SB_RAM40_4K" { ram += $2 } $1 == "SB_SPRAM256KA" { sp += $2 } $1 == "SB_MAC16" { mac += $2 }
    END {
      printf "yosys: %d SB_LUT4, %d flip-flops, %d SB_CARRY, %d SB_RAM40_4K, %d SB_SPRAM256KA, %d SB_MAC16\n",
        lut, ff, carry, ram, sp, mac
      if (lut > lc) { printf "fpga: %s: does not fit: LUT4: Yosys maps %d SB_LUT4, the UP5K has %d (%.0f%%)\n", name, lut, lc, 100.0 * lut / lc; exit 1 }
      if (ff > lc) { printf "fpga: %s: does not fit: flip-flops: Yosys maps %d, the UP5K has %d logic cells (%.0f%%)\n", name, ff, lc, 100.0 * ff / lc; exit 1 }
      if (ram > ebr) { printf "fpga: %s: does not fit: EBR: Yosys maps %d SB_RAM40_4K, the UP5K has %d\n", name, ram, ebr; exit 1 }
      if (sp > spram) { printf "fpga: %s: does not fit: SPRAM: Yosys maps %d SB_SPRAM256KA, the UP5K has %d\n", name, sp, spram; exit 1 }
      if (mac > dsp) { printf "fpga: %s: does not fit: DSP: Yosys maps %d SB_MAC16, the UP5K has %d\n", name, mac, dsp; exit 1 }
    }' "$stat"
}

# ---- command line ------------------------------------------------------------------
if [ "${1:-}" = "--check-log" ]; then
  [ $# -ge 2 ] || die "usage: scripts/fpga.sh --check-log NEXTPNR_LOG [FREQ_MHZ]"
  check_pnr "$2" "${3:-12}" "$(basename "$2")" || exit 1
  exit 0
fi

out="" synth_only=0 board=""
while [ $# -gt 0 ]; do
  case $1 in
    -o) out=$2; shift 2 ;;
    --synth-only) synth_only=1; shift ;;
    -h|--help) sed -n '2,/^set -e/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
    -*) die "unknown option $1 (scripts/fpga.sh --help)" ;;
    *) board=$1; shift ;;
  esac
done
[ -n "$board" ] || die "usage: scripts/fpga.sh [-o DIR] [--synth-only] BOARD (icebreaker, icebreaker-link)"

# ---- boards --------------------------------------------------------------------------
case $board in
  icebreaker)
    top=baresm_icebreaker_top pcf=rtl/fpga/icebreaker.pcf freq=12
    mapfile -t files < <(scripts/rtl-files.sh | grep -v 'baresm_icebreaker_link_top')
    ;;
  icebreaker-link)
    top=baresm_icebreaker_link_top pcf=rtl/fpga/icebreaker.pcf freq=12
    # Only what the link top instantiates: the packages, the RAM primitive
    # (the bridge's buffer), the register block, the atomic ALU of
    # baresm_fpga_mem, and rtl/fpga (not the full top).
    mapfile -t files < <(scripts/rtl-files.sh '_pkg\.sv$|^rtl/prim/|baresm_cp_regs|baresm_lsu_amo|^rtl/fpga/' |
                         grep -v 'baresm_icebreaker_top\.sv$')
    ;;
  *) [ -n "${FPGA_TOP:-}" ] || die "unknown board '$board' (icebreaker, icebreaker-link; or set FPGA_TOP, FPGA_FILES, FPGA_PCF)"
     top="" pcf="" freq=12 files=() ;;
esac
top=${FPGA_TOP:-$top}
pcf=${FPGA_PCF:-$pcf}
freq=${FPGA_FREQ:-$freq}
if [ -n "${FPGA_FILES:-}" ]; then read -r -a files <<<"$FPGA_FILES"; fi
[ ${#files[@]} -gt 0 ] || die "$board: no RTL files"
[ -f "$pcf" ] || die "$board: no pin constraints at '$pcf'"
out=${out:-build/fpga/$board}
mkdir -p "$out"

for t in "$YOSYS" "$NEXTPNR" "$ICEPACK"; do
  command -v "$t" >/dev/null || die "$t is not installed (scripts/install-deps.sh installs yosys, nextpnr-ice40, fpga-icestorm)"
done

# ---- synthesis ---------------------------------------------------------------------------
abc=""
[ "${FPGA_ABC9:-0}" = 1 ] && abc="-abc9"
echo "fpga: $board: yosys synth_ice40 -top $top -dsp -spram $abc (${#files[@]} files) -> $out/$top.json"
t0=$(date +%s)
if ! "$YOSYS" -q -l "$out/yosys.log" -p "read_verilog -sv -DSYNTHESIS -Irtl/prim -Irtl/sm ${files[*]}; \
     synth_ice40 -top $top -dsp -spram $abc -json $out/$top.json; tee -q -o $out/yosys-stat.txt stat" \
     >/dev/null 2>&1; then
  die "$board: Yosys failed: $(grep -m1 'ERROR' "$out/yosys.log" || tail -n1 "$out/yosys.log") (log $out/yosys.log)"
fi
if grep -q 'ABC: execution of command.*failed' "$out/yosys.log"; then
  die "$board: ABC aborted during technology mapping (Yosys went on with a partial result; see $out/yosys.log)"
fi
echo "fpga: $board: yosys took $(( $(date +%s) - t0 )) s"
check_synth "$out/yosys-stat.txt" "$board" || exit 1
[ $synth_only = 1 ] && exit 0

# ---- place and route, bitstream ----------------------------------------------------------------
echo "fpga: $board: nextpnr-ice40 --up5k --package sg48 --pcf $pcf --freq $freq"
t0=$(date +%s)
# Timing is checked here (check_pnr), with a message; nextpnr only reports it.
"$NEXTPNR" --up5k --package sg48 --pcf "$pcf" --freq "$freq" --timing-allow-fail \
  --seed "${FPGA_SEED:-1}" --json "$out/$top.json" --asc "$out/$top.asc" \
  --report "$out/nextpnr-report.json" >"$out/nextpnr.log" 2>&1 || true
echo "fpga: $board: nextpnr took $(( $(date +%s) - t0 )) s"
check_pnr "$out/nextpnr.log" "$freq" "$board" || exit 1
[ -s "$out/$top.asc" ] || die "$board: nextpnr wrote no $out/$top.asc (log $out/nextpnr.log)"

"$ICEPACK" "$out/$top.asc" "$out/$board.bin" || die "$board: icepack failed"
[ -s "$out/$board.bin" ] || die "$board: icepack wrote an empty $out/$board.bin"
echo "fpga: $board: fits and meets ${freq} MHz: $out/$board.bin ($(stat -c %s "$out/$board.bin") bytes)"
