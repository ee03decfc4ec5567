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
# The bigger boards have no place-and-route here (no Vivado, and Debian has
# no nextpnr-ecp5): for them the script makes a Yosys utilization ESTIMATE of
# the board top and checks it against the part (docs/fpga.md "Bigger boards"):
#   scripts/fpga.sh [-o DIR] [--hier] [--blackbox MODULE]... BOARD
#       BOARD  arty    baresm_arty_top, synth_xilinx -family xc7 -> XC7A100T
#                      (63,400 LUT6, 126,800 FF, 135 RAMB36, 240 DSP48E1)
#              ulx3s   baresm_ulx3s_top, synth_ecp5 -> LFE5U-85F (83,640 LUT4,
#                      83,640 FF, 208 DP16KD EBR, 156 MULT18X18D)
#       --blackbox MODULE  leave MODULE out (a black box, e.g. baresm_sm: the
#                      rest of the top in a few minutes instead of hours)
#       --hier         keep the hierarchy (no flatten): each module is
#                      synthesized once per parameter set, however many
#                      instances it has (the SM's 8 FPU lanes: one), and the
#                      table is Yosys' `stat -top` total (every module times
#                      its instances), after a per-module table of own
#                      cells x instances. Far less memory and time than the
#                      flattened run; no optimisation across module
#                      boundaries (a flattened run is a few percent smaller)
#       --estimate     the same for FPGA_TOP/FPGA_FILES with FPGA_TECH
#                      (xilinx or ecp5); FPGA_CHPARAM="Name=Value ..." sets
#                      the top's parameters
#   scripts/fpga.sh --check-estimate STAT TECH [TOP]
#       only the estimate's checker on a saved Yosys `stat` (xilinx or ecp5);
#       with TOP, a hierarchical one's per-module table too
#   The estimate is Yosys' mapped cell count (without Yosys' `share` pass,
#   as scripts/area.sh, unless FPGA_SHARE=1), not a place-and-route: the
#   vendor tools pack and optimise differently (CONVENTIONS.md: Yosys LUT
#   counts run about 1.0-1.6x a vendor tool's). Exit 1 when a resource is
#   over the part.
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

# ---- estimates for the bigger boards (Yosys only) ------------------------------------
# The parts (vendor data sheets; nextpnr-ecp5 counts the same for the 85k:
# 41,820 slices of 2 LUT4 + 2 FF, 208 DP16KD, 156 MULT18X18D; the 25F: 24,288
# LUT4 (12,144 slices; a Lattice Diamond map report for an LFE5U-25F says
# LUTS_avail 24288, EBR_avail 56, DSP_MULT_avail 56 9x9 = 28 18x18; its
# FF_avail 24406 counts I/O registers too, the slices have 24,288); the
# GW2AR-LV18QN88C8/I7 of the Tang Nano 20K: Sipeed's board page, 20,736 LUT4,
# 15,552 FF, 46 BSRAM of 18 Kbit, 48 18x18 multipliers).
A7_LUT=63400 A7_FF=126800 A7_BRAM36=135 A7_DSP=240
ECP5_LUT=83640 ECP5_FF=83640 ECP5_EBR=208 ECP5_MULT=156
ECP5_25_LUT=24288 ECP5_25_FF=24288 ECP5_25_EBR=56 ECP5_25_MULT=28
GW2A18_LUT=20736 GW2A18_FF=15552 GW2A18_BSRAM=46 GW2A18_MULT=48

# check_estimate STAT TECH NAME: the utilization table of a mapped Yosys
# netlist (its `stat`) against the part of TECH (xilinx: XC7A100T; ecp5 or
# ecp5-85f: LFE5U-85F; ecp5-25f: LFE5U-25F; gowin: GW2AR-18); fails when a
# resource is over.
check_estimate() {
  local stat=$1 tech=$2 name=$3
  [ -s "$stat" ] || die "$name: no Yosys stat at $stat"
  local part="" elut=0 eff=0 eebr=0 emult=0
  case $tech in
    xilinx) ;;
    ecp5|ecp5-85f) part="LFE5U-85F (ULX3S 85F)" elut=$ECP5_LUT eff=$ECP5_FF eebr=$ECP5_EBR emult=$ECP5_MULT ;;
    ecp5-25f) part="LFE5U-25F (ULX3S 25F)" elut=$ECP5_25_LUT eff=$ECP5_25_FF eebr=$ECP5_25_EBR emult=$ECP5_25_MULT ;;
    gowin) ;;
    *) die "$name: unknown part family '$tech' (xilinx, ecp5, ecp5-85f, ecp5-25f, gowin)" ;;
  esac
  awk -v name="$name" -v tech="$tech" -v epart="$part" \
      -v a7lut="$A7_LUT" -v a7ff="$A7_FF" -v a7bram="$A7_BRAM36" -v a7dsp="$A7_DSP" \
      -v elut="$elut" -v eff="$eff" -v eebr="$eebr" -v emult="$emult" \
      -v glut="$GW2A18_LUT" -v gff="$GW2A18_FF" -v gbsram="$GW2A18_BSRAM" -v gmult="$GW2A18_MULT" '
    # "     LUT6                        1234"; a hierarchical `stat -top`
    # ends with "=== design hierarchy ===" and the totals: count only those.
    /^=== design hierarchy ===/ { split("", n); cells = 0; hier = 1; next }
    NF == 2 && $2 ~ /^[0-9]+$/ { n[$1] += $2; cells++ }
    END {
      if (cells == 0) { printf "fpga: %s: the Yosys stat lists no cells\n", name; exit 1 }
      if (tech == "xilinx") {
        part = "XC7A100T (Arty A7-100T)"
        lut = n["LUT1"] + n["LUT2"] + n["LUT3"] + n["LUT4"] + n["LUT5"] + n["LUT6"]
        # LUT RAM and shift registers use SLICEM LUTs (UG474): LUTs per cell.
        lutram = 4 * (n["RAM32M"] + n["RAM64M"] + n["RAM128X1D"] + n["RAM256X1S"]) + \
                 2 * (n["RAM32X1D"] + n["RAM64X1D"] + n["RAM128X1S"]) + \
                 n["RAM32X1S"] + n["RAM64X1S"] + n["SRL16E"] + n["SRLC16E"] + n["SRLC32E"]
        ff = n["FDRE"] + n["FDSE"] + n["FDCE"] + n["FDPE"] + n["LDCE"] + n["LDPE"]
        bram = n["RAMB36E1"] + 0.5 * n["RAMB18E1"]
        dsp = n["DSP48E1"]
        carry = n["CARRY4"]; io = n["IBUF"] + n["OBUF"] + n["IOBUF"] + n["OBUFT"]
        printf "fpga: %s: Yosys synth_xilinx ESTIMATE for the %s, not a place-and-route%s\n", name, part, hier ? " (hierarchical: the sum over all module instances)" : ""
        printf "%-30s %9s %8s %7s\n", "resource", "used", "avail", "use"
        row("LUT (LUT1-6 + LUT RAM/SRL)", lut + lutram, a7lut)
        printf "%-30s %9d %8s\n", "  of which LUT RAM/SRL", lutram, ""
        row("FF (FDRE/FDSE/FDCE/FDPE)", ff, a7ff)
        rowf("BRAM (RAMB36 + RAMB18/2)", bram, a7bram)
        row("DSP (DSP48E1)", dsp, a7dsp)
        printf "%-30s %9d %8s\n", "CARRY4", carry, ""
        # Yosys leaves inverters as INV cells (mostly on the active-low resets of
        # the flops); Vivado folds them into LUTs or the inverting pins of flops.
        printf "%-30s %9d %8s\n", "INV (not counted above)", n["INV"], ""
        printf "%-30s %9d %8s\n", "IO buffers", io, ""
        over = ""
        if (lut + lutram > a7lut) over = sprintf("LUT: Yosys maps %d LUTs (%d LUT RAM/SRL), the XC7A100T has %d (%.0f%%)", lut + lutram, lutram, a7lut, 100.0 * (lut + lutram) / a7lut)
        else if (ff > a7ff) over = sprintf("FF: Yosys maps %d flip-flops, the XC7A100T has %d (%.0f%%)", ff, a7ff, 100.0 * ff / a7ff)
        else if (bram > a7bram) over = sprintf("BRAM: Yosys maps %.1f RAMB36, the XC7A100T has %d", bram, a7bram)
        else if (dsp > a7dsp) over = sprintf("DSP: Yosys maps %d DSP48E1, the XC7A100T has %d", dsp, a7dsp)
      } else if (tech == "gowin") {
        part = "GW2AR-LV18QN88C8/I7 (Tang Nano 20K)"
        # Gowin counts logic elements as LUTs + ALUs (each one LUT4 site of a
        # slice in arithmetic mode) + 6 per 16x4 shadow-SRAM cell (RAM16S*,
        # RAM16SDP*); MUX2_LUT5-8 are the dedicated muxes of the slices, no LUT.
        lut = n["LUT1"] + n["LUT2"] + n["LUT3"] + n["LUT4"]; alu = n["ALU"]
        ssram = n["RAM16S1"] + n["RAM16S2"] + n["RAM16S4"] + n["RAM16SDP1"] + n["RAM16SDP2"] + n["RAM16SDP4"]
        luts = lut + alu + 6 * ssram
        ff = 0; for (c in n) if (c ~ /^DFF/) ff += n[c]
        bsram = n["SP"] + n["SPX9"] + n["SDP"] + n["SDPX9"] + n["DP"] + n["DPX9"] + n["pROM"] + n["pROMX9"]
        # Multipliers: Yosys 0.23 has no Gowin DSP mapping; the estimate
        # splits them with mul2dsp into 18x18 pieces ($__MUL18X18, one
        # MULT18X18 each, as newer Yosys maps them for nextpnr-himbaechel).
        mult = n["$__MUL18X18"] + n["MULT18X18"]
        mux = n["MUX2_LUT5"] + n["MUX2_LUT6"] + n["MUX2_LUT7"] + n["MUX2_LUT8"]
        io = n["IBUF"] + n["OBUF"] + n["IOBUF"] + n["TBUF"]
        printf "fpga: %s: Yosys synth_gowin ESTIMATE for the %s, not a place-and-route%s\n", name, part, hier ? " (hierarchical: the sum over all module instances)" : ""
        printf "%-30s %9s %8s %7s\n", "resource", "used", "avail", "use"
        row("LUT4 sites (LUT+ALU+6xSSRAM)", luts, glut)
        printf "  of which %d LUT1-4 (%d LUT1), %d ALU (carry), %d RAM16S*/RAM16SDP* (shadow SRAM)\n", lut, n["LUT1"], alu, ssram
        row("FF (DFF*)", ff, gff)
        row("BSRAM (SP/SDP/DP[X9], 18 Kbit)", bsram, gbsram)
        row("DSP (MULT18X18)", mult, gmult)
        printf "%-30s %9d %8s\n", "MUX2_LUT5-8 (not counted)", mux, ""
        printf "%-30s %9d %8s\n", "IO buffers", io, ""
        over = ""
        if (luts > glut) over = sprintf("LUT4: Yosys maps %d LUT4 sites, the GW2AR-18 has %d (%.0f%%)", luts, glut, 100.0 * luts / glut)
        else if (ff > gff) over = sprintf("FF: Yosys maps %d flip-flops, the GW2AR-18 has %d (%.0f%%)", ff, gff, 100.0 * ff / gff)
        else if (bsram > gbsram) over = sprintf("BSRAM: Yosys maps %d BSRAM, the GW2AR-18 has %d", bsram, gbsram)
        else if (mult > gmult) over = sprintf("DSP: Yosys maps %d 18x18 multipliers, the GW2AR-18 has %d", mult, gmult)
      } else {
        part = epart; pname = epart; sub(/ .*/, "", pname)
        # A CCU2C (2-bit carry) is two LUT4 sites; a 16x4 distributed RAM takes
        # three slices (ECP5 family data sheet), six LUT4 sites.
        lut = n["LUT4"]; carry = n["CCU2C"]; dpr = n["TRELLIS_DPR16X4"]
        luts = lut + 2 * carry + 6 * dpr
        ff = n["TRELLIS_FF"]; ebr = n["DP16KD"]; mult = n["MULT18X18D"]; alu = n["ALU54B"]
        io = n["TRELLIS_IO"]
        printf "fpga: %s: Yosys synth_ecp5 ESTIMATE for the %s, not a place-and-route%s\n", name, part, hier ? " (hierarchical: the sum over all module instances)" : ""
        printf "%-30s %9s %8s %7s\n", "resource", "used", "avail", "use"
        row("LUT4 sites (LUT4+2xCCU2C+RAM)", luts, elut)
        printf "  of which %d LUT4, %d CCU2C (carry), %d TRELLIS_DPR16X4 (LUT RAM)\n", lut, carry, dpr
        row("FF (TRELLIS_FF)", ff, eff)
        row("EBR (DP16KD, 18 Kbit)", ebr, eebr)
        row("DSP (MULT18X18D)", mult, emult)
        printf "%-30s %9d %8s\n", "ALU54B", alu, ""
        printf "%-30s %9d %8s\n", "IO (TRELLIS_IO)", io, ""
        over = ""
        if (luts > elut) over = sprintf("LUT4: Yosys maps %d LUT4 sites, the %s has %d (%.0f%%)", luts, pname, elut, 100.0 * luts / elut)
        else if (ff > eff) over = sprintf("FF: Yosys maps %d flip-flops, the %s has %d (%.0f%%)", ff, pname, eff, 100.0 * ff / eff)
        else if (ebr > eebr) over = sprintf("EBR: Yosys maps %d DP16KD, the %s has %d", ebr, pname, eebr)
        else if (mult > emult) over = sprintf("DSP: Yosys maps %d MULT18X18D, the %s has %d", mult, pname, emult)
      }
      if (over != "") { printf "fpga: %s: does not fit (estimate): %s\n", name, over; exit 1 }
      printf "fpga: %s: fits the %s by this estimate\n", name, part
    }
    function row(what, used, avail) { printf "%-30s %9d %8d %6.1f%%\n", what, used, avail, 100.0 * used / avail }
    function rowf(what, used, avail) { printf "%-30s %9.1f %8d %6.1f%%\n", what, used, avail, 100.0 * used / avail }
  ' "$stat"
}

# report_modules STAT TECH TOP: the per-module table of a hierarchical
# `stat -top` (--hier): each module's own cells (its submodules not
# included), its instance count under TOP, and that times the instances;
# the "all" row equals the table above (Yosys' own sum).
report_modules() {
  python3 - "$@" <<'PYEOF'
import re, sys
stat, tech, top = sys.argv[1], sys.argv[2], sys.argv[3]
mods, cur = {}, None
for line in open(stat):
    m = re.match(r"^=== (.*) ===$", line.strip())
    if m:
        cur = m.group(1)
        if cur == "design hierarchy": break
        mods[cur] = {}
        continue
    f = line.split()
    if cur and len(f) == 2 and f[1].isdigit() and not line.lstrip().startswith("Number"):
        mods[cur][f[0]] = mods[cur].get(f[0], 0) + int(f[1])
def res(c):
    n = lambda *k: sum(c.get(x, 0) for x in k)
    if tech == "xilinx":
        lut = n("LUT1", "LUT2", "LUT3", "LUT4", "LUT5", "LUT6") + 4 * n("RAM32M", "RAM64M", "RAM128X1D", "RAM256X1S") \
            + 2 * n("RAM32X1D", "RAM64X1D", "RAM128X1S") + n("RAM32X1S", "RAM64X1S", "SRL16E", "SRLC16E", "SRLC32E")
        return lut, n("FDRE", "FDSE", "FDCE", "FDPE", "LDCE", "LDPE"), n("RAMB36E1") + 0.5 * n("RAMB18E1"), n("DSP48E1")
    if tech == "gowin":
        return n("LUT1", "LUT2", "LUT3", "LUT4", "ALU") + 6 * n("RAM16S1", "RAM16S2", "RAM16S4", "RAM16SDP1", "RAM16SDP2", "RAM16SDP4"), \
            sum(v for k, v in c.items() if k.startswith("DFF")), n("SP", "SPX9", "SDP", "SDPX9", "DP", "DPX9", "pROM", "pROMX9"), \
            n("$__MUL18X18", "MULT18X18")
    return n("LUT4") + 2 * n("CCU2C") + 6 * n("TRELLIS_DPR16X4"), n("TRELLIS_FF"), n("DP16KD"), n("MULT18X18D")
def short(m):
    g = re.match(r"\$paramod\$[0-9a-f]+\\(\w+)", m) or re.match(r"\$paramod\\(\w+)", m)
    return g.group(1) if g else m.lstrip("\\")
if top not in mods:
    print("fpga: %s: no module %s in the stat, no per-module table" % (stat, top)); sys.exit(0)
inst, parent = {}, {}
def walk(m, k):
    inst[m] = inst.get(m, 0) + k
    for c, cnt in mods[m].items():
        if c in mods:
            parent.setdefault(c, set()).add(short(m))
            walk(c, k * cnt)
walk(top, 1)
# Parameter sets of one module (their names are hashes): told apart by where they are.
seen = {}
for m in inst: seen[short(m)] = seen.get(short(m), 0) + 1
def label(m):
    s = short(m)
    return s if seen[s] == 1 else "%s<%s" % (s, ",".join(sorted(parent.get(m, ()))))
rows = sorted(((label(m), i, res(mods[m])) for m, i in inst.items()), key=lambda r: -r[1] * r[2][0])
hdr = {"xilinx": ("LUT", "FF", "BRAM36", "DSP48"), "gowin": ("LUT4site", "FF", "BSRAM", "MULT18")}.get(tech, ("LUT4site", "FF", "DP16KD", "MULT18"))
print("per module (own cells, without submodules; x = instances; total = own x instances; M<P: M's")
print("parameter set instantiated in P):")
print("%-36s %4s %9s %9s %7s %6s | %9s %9s %7s %6s" % (("module", "x") + hdr + hdr))
tot = [0, 0, 0, 0]
for name, i, r in rows:
    print("%-36s %4d %9d %9d %7.1f %6d | %9d %9d %7.1f %6d" % ((name, i) + r + tuple(i * v for v in r)))
    tot = [t + i * v for t, v in zip(tot, r)]
print("%-36s %4s %9s %9s %7s %6s | %9d %9d %7.1f %6d" % (("all", "", "", "", "", "") + tuple(tot)))
PYEOF
}

# run_estimate TECH TOP NAME OUT FILES...: Yosys synth_xilinx / synth_ecp5 of
# TOP (flattened, or not with --hier), its stat in OUT/yosys-stat.txt, then check_estimate.
run_estimate() {
  local tech=$1 top=$2 name=$3 dir=$4; shift 4
  local chparam="" flow s
  for kv in ${board_chparam:-} ${FPGA_CHPARAM:-}; do chparam+=" -set ${kv%%=*} ${kv#*=}"; done
  [ -z "$chparam" ] || chparam="chparam${chparam} $top;"
  local libread=""
  if [ -n "$blackbox" ]; then
    # A black box is read as an interface only (read_verilog -lib: its ports
    # and parameters), and the files that only it needs are not read at all:
    # Yosys then never elaborates what is inside (for the SM, minutes).
    local keep lib
    keep=$(python3 - "$top" "$blackbox" "$@" <<'PYEOF'
import re, sys, os
top, boxes, files = sys.argv[1], sys.argv[2].split(), sys.argv[3:]
boxes = {b.lstrip("*") for b in boxes}
mod_file, insts = {}, {}
for f in files:
    text = re.sub(r"//.*", "", open(f).read())
    for m in re.finditer(r"^\s*module\s+(\w+)", text, re.M):
        mod_file[m.group(1)] = f
        insts[m.group(1)] = set(re.findall(r"^\s*(\w+)\s*(?:#\s*\(|\w+\s*\()", text, re.M))
need, lib, todo = set(), set(), [top]
while todo:
    m = todo.pop()
    if m in need or m not in mod_file: continue
    if m in boxes: lib.add(mod_file[m]); continue
    need.add(m); todo.extend(insts[m])
want = {mod_file[m] for m in need}
for f in files:
    if f in lib: print("lib", f)
    elif f in want or not re.search(r"^\s*module\s", re.sub(r"//.*", "", open(f).read()), re.M): print("read", f)
PYEOF
)
    set -- $(awk '$1 == "read" { print $2 }' <<<"$keep")
    lib=$(awk '$1 == "lib" { printf " %s", $2 }' <<<"$keep")
    [ -n "$lib" ] || die "$name: no file declares the black box(es)$blackbox"
    libread="read_verilog -sv -lib -DSYNTHESIS -Irtl/prim -Irtl/sm$lib;"
  fi
  case $tech in
    xilinx)
      s="synth_xilinx -family xc7 -flatten -top $top"
      [ $hier = 0 ] || s="synth_xilinx -family xc7 -top $top"
      if [ "${FPGA_SHARE:-0}" = 1 ]; then flow="$s"
      else
        # synth_xilinx's script, its coarse step without `share`.
        flow="$s -run :coarse; techmap -map +/cmp2lut.v -map +/cmp2lcu.v -D LUT_WIDTH=6; alumacc; opt; \
memory -nomap; opt_clean; $s -run map_memory:"
      fi ;;
    ecp5|ecp5-85f|ecp5-25f)
      s="synth_ecp5 -top $top" fl="flatten;"
      [ $hier = 0 ] || s="synth_ecp5 -noflatten -top $top" fl=""
      if [ "${FPGA_SHARE:-0}" = 1 ]; then flow="$s"
      else
        # synth_ecp5's script (Yosys 0.23), its coarse step without `share`,
        # and its last step without `autoname` (names only: on the whole
        # boards top with --hier it took the run from 6.6 to 9.9 GB and was
        # killed at the 11 GB address-space cap, 2026-12-02).
        flow="$s -run :coarse; proc; $fl tribuf -logic; deminout; opt_expr; opt_clean; check; \
opt -nodffe -nosdff; fsm; opt; wreduce; peepopt; opt_clean; techmap -map +/cmp2lut.v -D LUT_WIDTH=4; \
opt_expr; opt_clean; techmap -map +/mul2dsp.v -map +/ecp5/dsp_map.v -D DSP_A_MAXWIDTH=18 \
-D DSP_B_MAXWIDTH=18 -D DSP_A_MINWIDTH=2 -D DSP_B_MINWIDTH=2 -D DSP_NAME=\$__MUL18X18; \
chtype -set \$mul t:\$__soft_mul; alumacc; opt; memory -nomap; opt_clean; $s -run map_ram:check; hierarchy -check"
      fi ;;
    gowin)
      # synth_gowin (Yosys 0.23) has no DSP mapping: a 32x32 multiplier
      # becomes about 8,700 LUTs and muxes. The estimate runs its script
      # with synth_ecp5's multiplier split inserted before alumacc (mul2dsp
      # to 18x18 pieces, left as \$__MUL18X18 cells and counted as the part's
      # 18x18 multipliers, as newer Yosys maps them to MULT18X18 for
      # nextpnr-himbaechel), its coarse step without `share` (unless
      # FPGA_SHARE=1), and its map_cells step without `autoname` (names only).
      local shr=""
      s="synth_gowin -top $top"
      [ $hier = 0 ] || s="synth_gowin -noflatten -top $top"
      [ "${FPGA_SHARE:-0}" != 1 ] || shr="share;"
      flow="$s -run :coarse; proc; opt_expr; opt_clean; check; opt -nodffe -nosdff; fsm; opt; wreduce; peepopt; \
opt_clean; techmap -map +/mul2dsp.v -D DSP_A_MAXWIDTH=18 -D DSP_B_MAXWIDTH=18 -D DSP_A_MINWIDTH=2 \
-D DSP_B_MINWIDTH=2 -D DSP_NAME=\$__MUL18X18; chtype -set \$mul t:\$__soft_mul; alumacc; $shr opt; \
memory -nomap; opt_clean; $s -run map_ram:map_cells; techmap -map +/gowin/cells_map.v; \
opt_lut_ins -tech gowin; setundef -undriven -params -zero; hilomap -singleton -hicell VCC V -locell GND G; \
clean; hierarchy -check" ;;
    *) die "$name: unknown FPGA_TECH '$tech' (xilinx, ecp5, ecp5-85f, ecp5-25f, gowin)" ;;
  esac
  mkdir -p "$dir"
  echo "fpga: $name: yosys ${s%% *} -top $top${blackbox:+, black boxes:$blackbox} ($# files) -> $dir/yosys-stat.txt"
  local t0; t0=$(date +%s)
  # Hierarchical: a top that chparam derived keeps its \$paramod name (name it
  # back), and `stat -top` multiplies each module by its instances.
  local pre="" stattop=""
  [ $hier = 0 ] || pre="rename -top $top;" stattop="-top $top"
  if ! "$YOSYS" -q -l "$dir/yosys.log" -p "read_verilog -sv -DSYNTHESIS -Irtl/prim -Irtl/sm $*; \
       $libread $chparam $flow; $pre tee -q -o $dir/yosys-stat.txt stat $stattop" >/dev/null 2>&1; then
    die "$name: Yosys failed: $(grep -m1 'ERROR' "$dir/yosys.log" || tail -n1 "$dir/yosys.log") (log $dir/yosys.log)"
  fi
  if grep -q 'ABC: execution of command.*failed' "$dir/yosys.log"; then
    die "$name: ABC aborted during technology mapping (Yosys went on with a partial result; see $dir/yosys.log)"
  fi
  echo "fpga: $name: yosys took $(( $(date +%s) - t0 )) s"
  [ -z "$blackbox" ] || echo "fpga: $name: left out (black boxes, not counted):$blackbox"
  # Hierarchical: the per-module table first (most useful when it does not fit).
  [ $hier = 0 ] || report_modules "$dir/yosys-stat.txt" "$tech" "$top"
  check_estimate "$dir/yosys-stat.txt" "$tech" "$name"
}

# ---- command line ------------------------------------------------------------------
if [ "${1:-}" = "--check-estimate" ]; then
  [ $# -ge 3 ] || die "usage: scripts/fpga.sh --check-estimate YOSYS_STAT xilinx|ecp5|ecp5-85f|ecp5-25f|gowin [TOP]"
  # A hierarchical stat (`stat -top`) and its TOP: the per-module table too.
  if [ $# -ge 4 ] && grep -q '^=== design hierarchy ===' "$2"; then report_modules "$2" "$3" "$4"; fi
  check_estimate "$2" "$3" "$(basename "$2")" || exit 1
  exit 0
fi
if [ "${1:-}" = "--check-log" ]; then
  [ $# -ge 2 ] || die "usage: scripts/fpga.sh --check-log NEXTPNR_LOG [FREQ_MHZ]"
  check_pnr "$2" "${3:-12}" "$(basename "$2")" || exit 1
  exit 0
fi

out="" synth_only=0 board="" estimate=0 blackbox="" hier=0 flow=0 dry=0
while [ $# -gt 0 ]; do
  case $1 in
    -o) out=$2; shift 2 ;;
    --flow) flow=1; shift ;;
    --dry-run) dry=1; shift ;;
    --synth-only) synth_only=1; shift ;;
    --estimate) estimate=1; shift ;;
    --hier) hier=1; shift ;;
    --blackbox) blackbox+=" *${2:?--blackbox needs a module name}"; shift 2 ;;
    -h|--help) sed -n '2,/^set -e/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
    -*) die "unknown option $1 (scripts/fpga.sh --help)" ;;
    *) board=$1; shift ;;
  esac
done
[ -n "$board" ] || die "usage: scripts/fpga.sh [-o DIR] [--synth-only] [--estimate] [--hier] [--blackbox MODULE]... BOARD (icebreaker, icebreaker-link, arty, ulx3s, ulx3s-25f, tangnano20k); scripts/fpga.sh --flow [--dry-run] [-o DIR] BOARD"

# ---- the bigger boards: a Yosys estimate, no place-and-route here ---------------------
case $board in
  arty|ulx3s|ulx3s-85f|ulx3s-25f|tangnano20k)
    case $board in
      arty) top=baresm_arty_top tech=xilinx ;;
      ulx3s|ulx3s-85f) top=baresm_ulx3s_top tech=ecp5-85f ;;
      # The 25F's parameters are scripts/ecp5.mk's PARAMS (the whole device as one program, 64 KB).
      ulx3s-25f) top=baresm_ulx3s_top tech=ecp5-25f board_chparam=$(make -s -f scripts/ecp5.mk DEVICE=25k params) ;;
      tangnano20k) top=baresm_tangnano20k_top tech=gowin ;;
    esac
    # The board's top and what rtl/baresm.f lists before it (not the other tops).
    mapfile -t files < <(scripts/rtl-files.sh | grep -v -e 'baresm_icebreaker' -e 'baresm_arty_top' -e 'baresm_ulx3s_top' \
                         -e 'baresm_tangnano20k_top')
    files+=("rtl/fpga/$top.sv")
    files_board=1
    [ $flow = 1 ] || estimate=1 ;;
esac

# ---- the bigger boards' bitstream flows: the vendor / open tools (not on this machine) --
# run_flow BOARD TOP OUT FILES...: the commands, printed with --dry-run, else
# run after checking that every tool is installed (one line naming the
# missing ones). UNTESTED here: none of these tools can be installed on the
# project's machines (docs/fpga.md "Bigger boards").
run_flow() {
  local b=$1 t=$2 o=$3; shift 3
  local -a tools cmds
  case $b in
    arty)
      tools=("${VIVADO:-vivado}")
      cmds=("${VIVADO:-vivado} -mode batch -nojournal -log $o/vivado.log -source scripts/vivado-arty.tcl -tclargs $o") ;;
    ulx3s|ulx3s-85f|ulx3s-25f)
      local dev=85k; [ "$b" != ulx3s-25f ] || dev=25k
      tools=("${MAKE:-make}" "$YOSYS" "${NEXTPNR_ECP5:-nextpnr-ecp5}" "${ECPPACK:-ecppack}")
      cmds=("${MAKE:-make} -f scripts/ecp5.mk DEVICE=$dev OUT=$o FREQ=${FPGA_FREQ:-25} SEED=${FPGA_SEED:-1} YOSYS=$YOSYS NEXTPNR=${NEXTPNR_ECP5:-nextpnr-ecp5} ECPPACK=${ECPPACK:-ecppack}") ;;
    tangnano20k)
      local himb=${NEXTPNR_GOWIN:-nextpnr-himbaechel} pack=${GOWIN_PACK:-gowin_pack} fam=""
      tools=("$YOSYS" "$himb" "$pack")
      # Yosys after 0.23 takes the family (gw2a: the GW2A(R)-18's cells); 0.23 has no -family.
      if command -v "$YOSYS" >/dev/null && "$YOSYS" -p 'help synth_gowin' 2>/dev/null | grep -q -- '-family'; then
        fam="-family gw2a "
      fi
      cmds=("$YOSYS -l $o/yosys.log -p \"read_verilog -sv -DSYNTHESIS -Irtl/prim -Irtl/sm $*; synth_gowin ${fam}-top $t -json $o/$t.json; tee -o $o/yosys-stat.txt stat\""
            "$himb --json $o/$t.json --write $o/${t}_pnr.json --device GW2AR-LV18QN88C8/I7 --vopt family=GW2A-18C --vopt cst=rtl/fpga/tangnano20k.cst --freq ${FPGA_FREQ:-27} --seed ${FPGA_SEED:-1} --report $o/nextpnr-report.json --log $o/nextpnr.log"
            "$pack -d GW2A-18C -o $o/$t.fs $o/${t}_pnr.json") ;;
    *) die "$b: no bitstream flow for this board (--flow: arty, ulx3s, ulx3s-25f, tangnano20k)" ;;
  esac
  local banner="fpga: $b: the bitstream flow (UNTESTED here: these tools are not on the project's machines; docs/fpga.md \"Bigger boards\")"
  if [ $dry = 1 ]; then
    echo "$banner"
    printf '+ %s\n' "mkdir -p $o" "${cmds[@]}"
    return 0
  fi
  local missing="" x
  for x in "${tools[@]}"; do command -v "$x" >/dev/null || missing+="${missing:+, }$x"; done
  [ -z "$missing" ] || die "$b: --flow needs $missing: not installed (not on PATH); see docs/fpga.md \"Bigger boards\" (--dry-run prints the commands)"
  echo "$banner"
  mkdir -p "$o"
  for x in "${cmds[@]}"; do
    echo "+ $x"
    eval "$x" || die "$b: failed: $x"
  done
  case $b in
    arty) echo "fpga: $b: $o/baresm_arty.bit, $o/baresm_arty.mcs (openFPGALoader -b arty_a7_100t [-f] $o/baresm_arty.bit)" ;;
    tangnano20k) echo "fpga: $b: $o/$t.fs (openFPGALoader -b tangnano20k [-f] $o/$t.fs)" ;;
    *) echo "fpga: $b: $o/$t.bit (openFPGALoader --board ulx3s [--write-flash] $o/$t.bit)" ;;
  esac
}
if [ $flow = 1 ]; then
  [ -n "${files_board:-}" ] || die "$board: no bitstream flow for this board (--flow: arty, ulx3s, ulx3s-25f, tangnano20k)"
  # The vendor flows build the top as its parameters say (to flow the new
  # SM, set Microprogrammed's default in the top); refuse what they would drop.
  [ -z "${FPGA_CHPARAM:-}" ] || die "$board: FPGA_CHPARAM applies to the Yosys estimate, not to --flow (set the top's parameter defaults instead)"
  run_flow "$board" "$top" "${out:-build/fpga/$board-pnr}" "${files[@]}"
  exit 0
fi
[ $dry = 0 ] || die "$board: --dry-run goes with --flow"

if [ $estimate = 1 ]; then
  command -v "$YOSYS" >/dev/null || die "$YOSYS is not installed (scripts/install-deps.sh installs yosys)"
  top=${FPGA_TOP:-${top:-}} tech=${FPGA_TECH:-${tech:-}}
  [ -n "$top" ] || die "$board: --estimate needs FPGA_TOP and FPGA_TECH (xilinx, ecp5, ecp5-25f or gowin)"
  if [ -n "${FPGA_FILES:-}" ]; then read -r -a files <<<"$FPGA_FILES"; fi
  [ ${#files[@]} -gt 0 ] || die "$board: no RTL files"
  out=${out:-build/fpga/$board}
  run_estimate "$tech" "$top" "$board" "$out" "${files[@]}" || exit 1
  case $tech in
    xilinx) pnr="Vivado" ;;
    gowin) pnr="nextpnr-himbaechel and gowin_pack" ;;
    *) pnr="nextpnr-ecp5 and ecppack" ;;
  esac
  flowcmd="scripts/fpga.sh --flow $board"
  [ -n "${files_board:-}" ] || flowcmd="the board's flow"
  echo "fpga: $board: an estimate only; place and route with $pnr: $flowcmd (docs/fpga.md; not run here)"
  exit 0
fi
[ -z "$blackbox" ] || die "$board: --blackbox is for the estimates (arty, ulx3s, ulx3s-25f, tangnano20k, --estimate), not a bitstream"
[ $hier = 0 ] || die "$board: --hier is for the estimates (arty, ulx3s, ulx3s-25f, tangnano20k, --estimate), not a bitstream"

# ---- boards --------------------------------------------------------------------------
case $board in
  icebreaker)
    top=baresm_icebreaker_top pcf=rtl/fpga/icebreaker.pcf freq=12
    mapfile -t files < <(scripts/rtl-files.sh | grep -v -e 'baresm_icebreaker_link_top' -e 'baresm_arty_top' \
                         -e 'baresm_ulx3s_top')
    ;;
  icebreaker-link)
    top=baresm_icebreaker_link_top pcf=rtl/fpga/icebreaker.pcf freq=12
    # Only what the link top instantiates: the packages, the RAM primitive
    # (the bridge's buffer), the register block, the atomic ALU of
    # baresm_fpga_mem, and rtl/fpga (not the full top).
    mapfile -t files < <(scripts/rtl-files.sh '_pkg\.sv$|^rtl/prim/|baresm_cp_regs|baresm_lsu_amo|^rtl/fpga/' |
                         grep -v -e 'baresm_icebreaker_top\.sv$' -e 'baresm_fpga_board' -e 'baresm_arty_top' \
                              -e 'baresm_ulx3s_top')
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
# The whole device fills the UP5K: two ABC passes map it into 5,262 logic
# cells where one gives 5,301 (2026-12-06, docs/fpga.md), the difference
# between placing and not.
[ "$board" = icebreaker ] && abc="$abc -abc2"
# FPGA_CHPARAM="Name=Value ..." sets the top's parameters here too (the netlist
# simulation's shorter link timeout and LED hold, sim/serial/CMakeLists.txt).
chparam=""
for kv in ${FPGA_CHPARAM:-}; do chparam+=" -set ${kv%%=*} ${kv#*=}"; done
[ -z "$chparam" ] || chparam="chparam${chparam} $top;"
echo "fpga: $board: yosys synth_ice40 -top $top -dsp -spram $abc (${#files[@]} files) -> $out/$top.json, $out/$top.net.v"
t0=$(date +%s)
# The same run writes the gate-level netlist the bitstream is made from
# ($top.net.v: SB_LUT4, SB_DFF*, SB_CARRY, SB_RAM40_4K, SB_SPRAM256KA, SB_MAC16),
# which the netlist simulation runs with Yosys' cell models (docs/fpga.md).
if ! "$YOSYS" -q -l "$out/yosys.log" -p "read_verilog -sv -DSYNTHESIS -Irtl/prim -Irtl/sm ${files[*]}; \
     $chparam synth_ice40 -top $top -dsp -spram $abc -json $out/$top.json; \
     write_verilog -noattr $out/$top.net.v; tee -q -o $out/yosys-stat.txt stat" \
     >/dev/null 2>&1; then
  die "$board: Yosys failed: $(grep -m1 'ERROR' "$out/yosys.log" || tail -n1 "$out/yosys.log") (log $out/yosys.log)"
fi
if grep -q 'ABC: execution of command.*failed' "$out/yosys.log"; then
  die "$board: ABC aborted during technology mapping (Yosys went on with a partial result; see $out/yosys.log)"
fi
echo "fpga: $board: yosys took $(( $(date +%s) - t0 )) s"
check_synth "$out/yosys-stat.txt" "$board" || exit 1
# Per module, from this run's netlist (docs/fpga.md): the whole table in
# modules.txt, the largest blocks here.
if command -v python3 >/dev/null; then
  python3 scripts/fpga-modules.py "$out/$top.json" >"$out/modules.txt" ||
    die "$board: scripts/fpga-modules.py failed on $out/$top.json"
  echo "fpga: $board: per module (this run; a cell counts to the block whose net it drives): $out/modules.txt"
  head -n 9 "$out/modules.txt"
else
  echo "fpga: $board: no python3: the per-module table (scripts/fpga-modules.py) is skipped"
fi
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
if [ "$board" = icebreaker ]; then
  # The firmware device's program, for the flash at 1 MiB (baresm_flash_loader).
  scripts/fw-flash-image.sh fw/dev/dev.hex "$out/firmware.bin"
  echo "fpga: $board: firmware for the flash at 1 MiB: $out/firmware.bin ($(stat -c %s "$out/firmware.bin") bytes)"
fi
