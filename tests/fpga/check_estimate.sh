#!/usr/bin/env bash
# ctest fpga_estimate_arty / _ulx3s / _tangnano20k / fpga_estimate_planted: the
# bigger boards' Yosys estimates (scripts/fpga.sh BOARD, docs/fpga.md
# "Bigger boards").
#   tests/fpga/check_estimate.sh board BOARD OUT_DIR
#       the board top with the SM left out (--blackbox baresm_sm: the rest in
#       a couple of CPU-minutes; the whole SM takes Yosys far longer): exit 0,
#       the table with the part's counts, every number within the part, and
#       the 256 KB device memory in block RAM (at least its size in RAMB36 /
#       DP16KD, not flip-flops)
#   tests/fpga/check_estimate.sh planted OUT_DIR
#       an over-full estimate must be refused: fpga_overfull_ram.sv (6 Mbit of
#       RAM) through the real flow for both parts, and saved Yosys stats
#       (data/yosys-stat-*.txt: hand-made over-full ones, and the board tops'
#       real ones, which fit) through the checker alone
#   tests/fpga/check_estimate.sh hier OUT_DIR
#       --hier (hierarchical, per-module) on tests/fpga/fpga_hier.sv for both
#       parts: every instance counted, the per-module table adds up
#   tests/fpga/check_estimate.sh ecp5-makefile
#       `make -n -f scripts/ecp5.mk` (the tools are not here): the intended
#       yosys / nextpnr-ecp5 / ecppack / openFPGALoader commands, on files
#       that exist, for the 85F and (DEVICE=25k) the 25F
#   tests/fpga/check_estimate.sh flow OUT_DIR
#       scripts/fpga.sh --flow (the bitstream flows of arty, ulx3s, ulx3s-25f,
#       tangnano20k; their tools are not here): --dry-run prints the intended
#       commands; without a tool it fails with one line naming it; with stub
#       tools that record their calls it runs the commands in order
set -uo pipefail
cd "$(dirname "$0")/../.."
here=tests/fpga
status=0
fail() { echo "FAIL $*"; status=1; }
# expect_fail WHAT REGEX CMD...: CMD must exit non-zero and print REGEX.
expect_fail() {
  local what=$1 re=$2; shift 2
  local out rc
  out=$("$@" 2>&1); rc=$?
  if [ $rc -ne 0 ] && grep -qE "$re" <<<"$out"; then
    echo "ok   $what: $(grep -E "$re" <<<"$out" | head -n1)"
  else
    fail "$what: exit $rc, expected a failure matching /$re/; output:"; echo "$out"
  fi
}
# used ROW_REGEX LOG: the "used" column of the table row starting with ROW_REGEX
# (every row's label ends with ')'; the number follows it).
used() { grep -E "^$1 " "$2" | head -n1 | sed -E 's#^.*[)] +([0-9.]+) .*#\1#'; }

case ${1:-} in
  board)
    board=${2:?usage: check_estimate.sh board BOARD OUT_DIR} out=${3:?usage: check_estimate.sh board BOARD OUT_DIR}
    log=$(mktemp); trap 'rm -f "$log"' EXIT
    # The Tang Nano's top is the whole device as one program, which has no
    # baresm_sm: there the black box only keeps Yosys from elaborating the
    # unused SM (at its 32-lane defaults) as it reads the files.
    scripts/fpga.sh -o "$out" --blackbox baresm_sm "$board" 2>&1 | tee "$log"
    rc=${PIPESTATUS[0]}
    [ "$rc" -eq 0 ] || fail "scripts/fpga.sh --blackbox baresm_sm $board exited $rc"
    grep -q 'ESTIMATE for the .*, not a place-and-route' "$log" || fail "the output does not say it is an estimate"
    grep -q 'left out (black boxes, not counted): \*baresm_sm' "$log" || fail "the output does not say the SM was left out"
    grep -q "fits the .* by this estimate" "$log" || fail "no 'fits' line"
    if [ "$board" = arty ]; then
      rows=('LUT \(LUT1-6 \+ LUT RAM/SRL\)' 'FF \(FDRE/FDSE/FDCE/FDPE\)' 'BRAM \(RAMB36 \+ RAMB18/2\)' 'DSP \(DSP48E1\)')
      avail=(63400 126800 135 240)
      mem_min=57      # 256 KB = 2,097,152 bits / 36,864 per RAMB36
    elif [ "$board" = tangnano20k ]; then
      rows=('LUT4 sites \(LUT\+ALU\+6xSSRAM\)' 'FF \(DFF\*\)' 'BSRAM \(SP/SDP/DP\[X9\], 18 Kbit\)' 'DSP \(MULT18X18\)')
      avail=(20736 15552 46 48)
      mem_min=16      # 32 KB / 2 KB of data per BSRAM (512 x 32 bits of its 18 Kbit)
    else
      rows=('LUT4 sites \(LUT4\+2xCCU2C\+RAM\)' 'FF \(TRELLIS_FF\)' 'EBR \(DP16KD, 18 Kbit\)' 'DSP \(MULT18X18D\)')
      avail=(83640 83640 208 156)
      mem_min=114     # 256 KB / 18,432 bits per DP16KD
    fi
    for i in 0 1 2 3; do
      grep -qE "^${rows[$i]} +[0-9.]+ +${avail[$i]} " "$log" || { fail "no row /${rows[$i]}/ with the part's ${avail[$i]}"; continue; }
      u=$(used "${rows[$i]}" "$log")
      [[ "$u" =~ ^[0-9]+(\.[0-9]+)?$ ]] || { fail "${rows[$i]}: no number in its row"; continue; }
      awk -v u="$u" -v a="${avail[$i]}" 'BEGIN { exit !(u <= a) }' || fail "${rows[$i]}: $u over ${avail[$i]}"
      echo "ok   ${rows[$i]//\\/}: $u of ${avail[$i]}"
    done
    lut=$(used "${rows[0]}" "$log") ff=$(used "${rows[1]}" "$log") mem=$(used "${rows[2]}" "$log")
    # The link, the CP and the memory's control are a few thousand cells: a
    # run that lost them (an empty black box, a failed read) maps far fewer.
    awk -v l="${lut:-0}" -v f="${ff:-0}" 'BEGIN { exit !(l >= 1000 && f >= 1000) }' ||
      fail "implausibly small: $lut LUTs, $ff FFs (was the design read?)"
    awk -v m="${mem:-0}" -v min="$mem_min" 'BEGIN { exit !(m >= min) }' ||
      fail "the device memory is not in block RAM: $mem blocks, at least $mem_min expected"
    ;;
  planted)
    out=${2:?usage: check_estimate.sh planted OUT_DIR}
    for b in xilinx:XC7A100T:'BRAM: Yosys maps [0-9.]+ RAMB36, the XC7A100T has 135' \
             ecp5:LFE5U-85F:'EBR: Yosys maps [0-9]+ DP16KD, the LFE5U-85F has 208' \
             ecp5-25f:LFE5U-25F:'EBR: Yosys maps [0-9]+ DP16KD, the LFE5U-25F has 56' \
             gowin:GW2AR-18:'BSRAM: Yosys maps [0-9]+ BSRAM, the GW2AR-18 has 46'; do
      tech=${b%%:*} rest=${b#*:} part=${rest%%:*} re=${rest#*:}
      expect_fail "6 Mbit of RAM on the $part (real Yosys run)" "^fpga: overfull-$tech: does not fit \(estimate\): $re\$" \
        env FPGA_TOP=fpga_overfull_ram FPGA_TECH=$tech FPGA_FILES=$here/fpga_overfull_ram.sv \
        scripts/fpga.sh -o "$out/$tech" --estimate "overfull-$tech"
    done
    # The checker alone, on saved stats: each resource of each part.
    expect_fail "saved stat: 70,000 LUT6" \
      '^fpga: .*: does not fit \(estimate\): LUT: Yosys maps 70100 LUTs \(100 LUT RAM/SRL\), the XC7A100T has 63400 \(111%\)$' \
      scripts/fpga.sh --check-estimate $here/data/yosys-stat-xilinx-luts.txt xilinx
    expect_fail "saved stat: 130,000 flip-flops" \
      '^fpga: .*: does not fit \(estimate\): FF: Yosys maps 130000 flip-flops, the XC7A100T has 126800' \
      scripts/fpga.sh --check-estimate $here/data/yosys-stat-xilinx-ffs.txt xilinx
    expect_fail "saved stat: 241 DSP48E1" '^fpga: .*: does not fit \(estimate\): DSP: Yosys maps 241 DSP48E1, the XC7A100T has 240$' \
      scripts/fpga.sh --check-estimate $here/data/yosys-stat-xilinx-dsps.txt xilinx
    expect_fail "saved stat: LUT4 + carry over the 85F" \
      '^fpga: .*: does not fit \(estimate\): LUT4: Yosys maps 84000 LUT4 sites, the LFE5U-85F has 83640' \
      scripts/fpga.sh --check-estimate $here/data/yosys-stat-ecp5-luts.txt ecp5
    expect_fail "saved stat: 157 MULT18X18D" '^fpga: .*: does not fit \(estimate\): DSP: Yosys maps 157 MULT18X18D, the LFE5U-85F has 156$' \
      scripts/fpga.sh --check-estimate $here/data/yosys-stat-ecp5-dsps.txt ecp5
    # The LFE5U-25F (ULX3S 25F): LUT4 + 2 per CCU2C just over its 24,288; the
    # 85F's saved stat (the top without the SM, 129 DP16KD) passes the 85F and
    # fails the 25F on its 56 EBR (one synthesis, two parts).
    expect_fail "saved stat: LUT4 + carry over the 25F" \
      '^fpga: .*: does not fit \(estimate\): LUT4: Yosys maps 24290 LUT4 sites, the LFE5U-25F has 24288' \
      scripts/fpga.sh --check-estimate $here/data/yosys-stat-ecp5-25f-luts.txt ecp5-25f
    expect_fail "saved stat: the ULX3S top's 129 DP16KD on the 25F" \
      '^fpga: .*: does not fit \(estimate\): EBR: Yosys maps 129 DP16KD, the LFE5U-25F has 56$' \
      scripts/fpga.sh --check-estimate $here/data/yosys-stat-ecp5-fits.txt ecp5-25f
    # The GW2AR-18 (Tang Nano 20K): each resource, one over, counted the
    # documented way (LUT1-4 + ALU + 6 per shadow-SRAM cell; every DFF*
    # variant; every BSRAM primitive; the 18x18 pieces of mul2dsp).
    expect_fail "saved stat: LUT1-4 + 6 x RAM16SDP4 over the GW2AR-18" \
      '^fpga: .*: does not fit \(estimate\): LUT4: Yosys maps 20738 LUT4 sites, the GW2AR-18 has 20736' \
      scripts/fpga.sh --check-estimate $here/data/yosys-stat-gowin-luts.txt gowin
    expect_fail "saved stat: 15,553 flip-flops of three DFF kinds" \
      '^fpga: .*: does not fit \(estimate\): FF: Yosys maps 15553 flip-flops, the GW2AR-18 has 15552' \
      scripts/fpga.sh --check-estimate $here/data/yosys-stat-gowin-ffs.txt gowin
    expect_fail "saved stat: 47 BSRAM of three kinds" '^fpga: .*: does not fit \(estimate\): BSRAM: Yosys maps 47 BSRAM, the GW2AR-18 has 46$' \
      scripts/fpga.sh --check-estimate $here/data/yosys-stat-gowin-bsram.txt gowin
    expect_fail "saved stat: 49 18x18 multipliers" '^fpga: .*: does not fit \(estimate\): DSP: Yosys maps 49 18x18 multipliers, the GW2AR-18 has 48$' \
      scripts/fpga.sh --check-estimate $here/data/yosys-stat-gowin-dsps.txt gowin
    expect_fail "an unknown part family" "unknown part family 'ecp5-45f'" \
      scripts/fpga.sh --check-estimate $here/data/yosys-stat-ecp5-fits.txt ecp5-45f
    expect_fail "no stat" 'no Yosys stat' scripts/fpga.sh --check-estimate /nonexistent.txt ecp5
    # ... and the same checker passes designs that fit (the saved stats of the
    # board tops without their SM).
    for t in xilinx:XC7A100T ecp5:LFE5U-85F gowin:GW2AR-LV18QN88C8/I7; do
      if out2=$(scripts/fpga.sh --check-estimate $here/data/yosys-stat-${t%%:*}-fits.txt ${t%%:*} 2>&1) &&
         grep -q "fits the ${t#*:}" <<<"$out2"; then
        echo "ok   a saved ${t%%:*} stat that fits passes"
      else
        fail "the fitting ${t%%:*} stat did not pass:"; echo "$out2"
      fi
    done
    ;;
  hier)
    # --hier (the per-module estimate): tests/fpga/fpga_hier.sv, five leaves
    # in two levels, through the real flow for both parts. The total must
    # count every instance (48 flip-flops, 5 RAMs) and the per-module table
    # must list the leaf with its 4 instances and add up to the total.
    out=${2:?usage: check_estimate.sh hier OUT_DIR}
    for t in xilinx:'FF \(FDRE/FDSE/FDCE/FDPE\)':'BRAM \(RAMB36 \+ RAMB18/2\)':2.5 \
             ecp5:'FF \(TRELLIS_FF\)':'EBR \(DP16KD, 18 Kbit\)':5 \
             gowin:'FF \(DFF\*\)':'BSRAM \(SP/SDP/DP\[X9\], 18 Kbit\)':5; do
      IFS=: read -r tech ffrow memrow mem <<<"$t"
      log="$out/$tech.out"; mkdir -p "$out"
      env FPGA_TOP=fpga_hier FPGA_TECH=$tech FPGA_FILES=$here/fpga_hier.sv \
        scripts/fpga.sh -o "$out/$tech" --hier --estimate "hier-$tech" >"$log" 2>&1 ||
        { fail "$tech: scripts/fpga.sh --hier exited non-zero:"; cat "$log"; continue; }
      grep -q 'ESTIMATE for the .*(hierarchical: the sum over all module instances)' "$log" ||
        fail "$tech: the output does not say the estimate is hierarchical"
      ff=$(used "$ffrow" "$log") m=$(used "$memrow" "$log")
      [ "$ff" = 48 ] && echo "ok   $tech: 48 flip-flops (every instance counted)" || fail "$tech: $ff flip-flops, expected 48"
      awk -v m="${m:-0}" -v w="$mem" 'BEGIN { exit !(m == w) }' && echo "ok   $tech: $m RAM blocks" ||
        fail "$tech: $m RAM blocks, expected $mem"
      # The table: "fpga_hier_leaf 4 ..." and its "all" row with the same flip-flops.
      grep -qE '^fpga_hier_leaf<fpga_hier_mid +4 ' "$log" && grep -qE '^fpga_hier_mid +2 ' "$log" &&
        echo "ok   $tech: the per-module table counts 4 leaves in 2 mids (fpga_hier_leaf<fpga_hier_mid)" || { fail "$tech: no per-module table with the instances:"; cat "$log"; }
      awk '$1 == "all" { exit !($4 == 48) }' "$log" && echo "ok   $tech: the table adds up to 48 flip-flops" ||
        fail "$tech: the per-module table's 'all' row does not add up: $(grep '^all ' "$log")"
    done
    # The saved stat of that run goes through the checker alone, table included.
    out2=$(scripts/fpga.sh --check-estimate "$out/xilinx/yosys-stat.txt" xilinx fpga_hier 2>&1)
    grep -q 'hierarchical' <<<"$out2" && grep -qE '^fpga_hier_leaf<fpga_hier_mid +4 ' <<<"$out2" &&
      echo "ok   --check-estimate STAT xilinx TOP: the hierarchical total and the per-module table" ||
      { fail "--check-estimate on the hierarchical stat:"; echo "$out2"; }
    ;;
  ecp5-makefile)
    # scripts/ecp5.mk cannot run here (no nextpnr-ecp5, no ecppack): `make -n`
    # shows that it would run the intended commands on existing files.
    out=$(make -n -f scripts/ecp5.mk DEVICE=25k OUT=/nonexistent/ulx3s-25f 2>&1) || fail "make -n -f scripts/ecp5.mk DEVICE=25k failed: $out"
    for want in 'nextpnr-ecp5 --25k --package CABGA381 --speed 6 --lpf [^ ]*/rtl/fpga/ulx3s.lpf --freq 25' \
                'chparam -set Microprogrammed 1 -set MemBytes 65536 baresm_ulx3s_top; synth_ecp5 -top baresm_ulx3s_top '; do
      grep -qE -- "$want" <<<"$out" && echo "ok   make -n DEVICE=25k: /$want/" || fail "make -n -f scripts/ecp5.mk DEVICE=25k: no /$want/"
    done
    out=$(make -n -f scripts/ecp5.mk OUT=/nonexistent/ulx3s 2>&1) || fail "make -n -f scripts/ecp5.mk failed: $out"
    ! grep -q chparam <<<"$out" && echo "ok   make -n (85k): the top's own parameters" || fail "make -n -f scripts/ecp5.mk (85k) sets parameters: $out"
    for want in 'synth_ecp5 -top baresm_ulx3s_top -json /nonexistent/ulx3s/baresm_ulx3s_top.json' \
                'nextpnr-ecp5 --85k --package CABGA381 --speed 6 --lpf [^ ]*/rtl/fpga/ulx3s.lpf --freq 25' \
                'ecppack --compress /nonexistent/ulx3s/baresm_ulx3s_top.config /nonexistent/ulx3s/baresm_ulx3s_top.bit'; do
      grep -qE -- "$want" <<<"$out" && echo "ok   make -n: /$want/" || fail "make -n -f scripts/ecp5.mk: no /$want/"
    done
    files=$(grep -o 'read_verilog -sv -DSYNTHESIS -Irtl/prim -Irtl/sm [^;]*' <<<"$out" | cut -d' ' -f6-)
    n=0
    for f in $files; do
      n=$((n + 1)); [ -f "$f" ] || fail "scripts/ecp5.mk reads $f, which does not exist"
    done
    [ "$n" -gt 40 ] && grep -qw rtl/fpga/baresm_ulx3s_top.sv <<<"$files" && ! grep -qw baresm_arty_top <<<"$files" &&
      ! grep -q baresm_tangnano20k_top <<<"$files" &&
      echo "ok   it reads $n files of rtl/baresm.f, the ULX3S top and not the others" ||
      fail "scripts/ecp5.mk reads the wrong files: $files"
    prog=$(make -n -f scripts/ecp5.mk OUT=/nonexistent/ulx3s prog flash 2>&1 | grep openFPGALoader)
    grep -q -- '--board ulx3s /nonexistent/ulx3s/baresm_ulx3s_top.bit' <<<"$prog" &&
      grep -q -- '--board ulx3s --write-flash' <<<"$prog" && echo "ok   prog and flash call openFPGALoader --board ulx3s" ||
      fail "prog/flash: $prog"
    ;;
  flow)
    # scripts/fpga.sh --flow: the bitstream flows whose tools are not here.
    out=${2:?usage: check_estimate.sh flow OUT_DIR}
    rm -rf "$out"; mkdir -p "$out/stubs" "$out/partial"
    # A stub tool: records its name and arguments, creates the files under
    # $out that its arguments name (so that make's chain goes on), and
    # answers `help synth_gowin` with a -family option when STUB_FAMILY=1.
    cat >"$out/stubs/stub" <<'STUB'
#!/usr/bin/env bash
echo "$(basename "$0") $*" >>"$STUB_LOG"
if [ "${STUB_FAMILY:-0}" = 1 ] && [[ "$*" == *"help synth_gowin"* ]]; then echo "    -family <family>"; exit 0; fi
for w in $*; do
  w=${w%;}; w=${w%\"}; w=${w#\"}
  case $w in "$STUB_OUT"/*) mkdir -p "$(dirname "$w")"; touch "$w" ;; esac
done
STUB
    chmod +x "$out/stubs/stub"
    for t in yosys vivado nextpnr-ecp5 ecppack nextpnr-himbaechel gowin_pack; do ln -sf stub "$out/stubs/$t"; done
    ln -sf ../stubs/stub "$out/partial/nextpnr-himbaechel"
    export STUB_OUT="$out/run" STUB_LOG="$out/calls.log"
    # --dry-run: the commands, nothing run (the tools need not exist).
    for b in arty:'vivado -mode batch .*-source scripts/vivado-arty.tcl -tclargs /x/arty$' \
             ulx3s:'make -f scripts/ecp5.mk DEVICE=85k OUT=/x/ulx3s ' \
             ulx3s-25f:'make -f scripts/ecp5.mk DEVICE=25k OUT=/x/ulx3s-25f ' \
             tangnano20k:'nextpnr-himbaechel --json /x/tangnano20k/baresm_tangnano20k_top.json .*--device GW2AR-LV18QN88C8/I7 --vopt family=GW2A-18C --vopt cst=rtl/fpga/tangnano20k.cst --freq 27 '; do
      o=$(PATH=/usr/bin:/bin scripts/fpga.sh --flow --dry-run -o /x/${b%%:*} ${b%%:*} 2>&1) && grep -qE -- "^\+ ${b#*:}" <<<"$o" &&
        grep -q 'UNTESTED here' <<<"$o" && echo "ok   --flow --dry-run ${b%%:*}: /${b#*:}/" ||
        { fail "--flow --dry-run ${b%%:*}: no /${b#*:}/:"; echo "$o"; }
    done
    # A missing tool: exit 1 and one line naming it (nextpnr-himbaechel is
    # there, gowin_pack is not; vivado is not). Yosys is the stub here too, so
    # that a broken check cannot start a real synthesis of the whole top.
    o=$(PATH="$out/partial:/usr/bin:/bin" YOSYS="$out/stubs/yosys" scripts/fpga.sh -o "$STUB_OUT/missing" --flow tangnano20k 2>&1); rc=$?
    [ $rc -ne 0 ] && [ "$(wc -l <<<"$o")" = 1 ] &&
      grep -qx 'fpga: tangnano20k: --flow needs gowin_pack: not installed (not on PATH); see docs/fpga.md "Bigger boards" (--dry-run prints the commands)' <<<"$o" &&
      echo "ok   a missing tool: $o" || { fail "a missing gowin_pack: exit $rc:"; echo "$o"; }
    o=$(PATH=/usr/bin:/bin scripts/fpga.sh -o "$STUB_OUT/missing" --flow arty 2>&1); rc=$?
    [ $rc -ne 0 ] && [ "$(wc -l <<<"$o")" = 1 ] && grep -q '^fpga: arty: --flow needs vivado: not installed' <<<"$o" &&
      echo "ok   a missing tool: $o" || { fail "a missing vivado: exit $rc:"; echo "$o"; }
    o=$(scripts/fpga.sh --flow icebreaker 2>&1); rc=$?
    [ $rc -ne 0 ] && grep -q 'no bitstream flow for this board' <<<"$o" && echo "ok   --flow icebreaker is refused" ||
      { fail "--flow icebreaker: exit $rc: $o"; }
    # With stub tools: every command runs, in order, with the intended options.
    for b in arty ulx3s ulx3s-25f tangnano20k; do
      : >"$STUB_LOG"
      o=$(PATH="$out/stubs:/usr/bin:/bin" STUB_FAMILY=1 YOSYS="$out/stubs/yosys" scripts/fpga.sh --flow -o "$STUB_OUT/$b" $b 2>&1) ||
        { fail "--flow $b with stub tools exited non-zero:"; echo "$o"; continue; }
      calls=$(grep -v 'help synth_gowin' "$STUB_LOG" | awk '{ print $1 }' | xargs)
      case $b in
        arty) want_calls="vivado"
              want=('^vivado -mode batch -nojournal -log '"$STUB_OUT"'/arty/vivado.log -source scripts/vivado-arty.tcl -tclargs '"$STUB_OUT"'/arty$') ;;
        ulx3s*) dev=85k param=""; [ $b = ulx3s ] || { dev=25k; param="chparam -set Microprogrammed 1 -set MemBytes 65536 baresm_ulx3s_top; "; }
              want_calls="yosys nextpnr-ecp5 ecppack"
              want=("^yosys .*; +${param}synth_ecp5 -top baresm_ulx3s_top -json $STUB_OUT/$b/baresm_ulx3s_top.json"
                    "^nextpnr-ecp5 --$dev --package CABGA381 --speed 6 --lpf [^ ]*/rtl/fpga/ulx3s.lpf --freq 25 "
                    "^ecppack --compress $STUB_OUT/$b/baresm_ulx3s_top.config $STUB_OUT/$b/baresm_ulx3s_top.bit\$") ;;
        tangnano20k) want_calls="yosys nextpnr-himbaechel gowin_pack"
              want=("^yosys .*rtl/fpga/baresm_tangnano20k_top.sv; synth_gowin -family gw2a -top baresm_tangnano20k_top -json $STUB_OUT/$b/baresm_tangnano20k_top.json"
                    "^nextpnr-himbaechel --json $STUB_OUT/$b/baresm_tangnano20k_top.json --write $STUB_OUT/$b/baresm_tangnano20k_top_pnr.json --device GW2AR-LV18QN88C8/I7 --vopt family=GW2A-18C --vopt cst=rtl/fpga/tangnano20k.cst --freq 27 "
                    "^gowin_pack -d GW2A-18C -o $STUB_OUT/$b/baresm_tangnano20k_top.fs $STUB_OUT/$b/baresm_tangnano20k_top_pnr.json\$") ;;
      esac
      [ "$calls" = "$want_calls" ] && echo "ok   --flow $b runs: $calls" || fail "--flow $b ran '$calls', expected '$want_calls'"
      for w in "${want[@]}"; do grep -qE -- "$w" "$STUB_LOG" || { fail "--flow $b: no call /$w/:"; cat "$STUB_LOG"; }; done
      grep -q "openFPGALoader" <<<"$o" || fail "--flow $b: no flashing hint at the end: $o"
    done
    # The Tang Nano's Yosys reads its top and none of the other tops; every file exists.
    files=$(grep '^yosys .*synth_gowin' "$STUB_LOG" | grep -o 'read_verilog -sv -DSYNTHESIS -Irtl/prim -Irtl/sm [^;]*' | cut -d' ' -f6-)
    n=0; for f in $files; do n=$((n + 1)); [ -f "$f" ] || fail "--flow tangnano20k reads $f, which does not exist"; done
    [ "$n" -gt 40 ] && ! grep -qE 'baresm_(arty|ulx3s|icebreaker)[a-z_]*top' <<<"$files" &&
      echo "ok   --flow tangnano20k reads $n files of rtl/baresm.f, its top and not the others" ||
      fail "--flow tangnano20k reads the wrong files: $files"
    ;;
  *) echo "usage: check_estimate.sh board BOARD OUT_DIR | planted OUT_DIR | hier OUT_DIR | ecp5-makefile | flow OUT_DIR"; exit 2 ;;
esac
[ $status -eq 0 ] && echo "PASS"
exit $status
