#!/usr/bin/env bash
# ctest fpga_checker_planted / fpga_overfull_design: the FPGA flow's fit and
# timing checks must fail, with one clear line, on designs that do not fit or
# miss their clock (a checker is only done when a planted failure makes it
# fail).
#   tests/fpga/check_planted.sh logs      canned nextpnr-ice40 logs (data/):
#                                         9,041 logic cells of 5,280; 232 MHz
#                                         where 400 were asked; and the
#                                         link top's log, which must pass
#   tests/fpga/check_planted.sh design D  the real flow on fpga_overfull.sv
#                                         (5,600 flip-flops + XORs): Yosys'
#                                         count stops it before nextpnr
#   tests/fpga/check_planted.sh flash     scripts/flash.sh refuses without
#                                         iceprog or without a bitstream
set -uo pipefail
cd "$(dirname "$0")/../.."
here=tests/fpga
status=0
# expect_fail WHAT REGEX CMD...: CMD must exit non-zero and print REGEX.
expect_fail() {
  local what=$1 re=$2; shift 2
  local out rc
  out=$("$@" 2>&1); rc=$?
  if [ $rc -ne 0 ] && grep -qE "$re" <<<"$out"; then
    echo "ok   $what: $(grep -E "$re" <<<"$out" | head -n1)"
  else
    echo "FAIL $what: exit $rc, expected a failure matching /$re/; output:"; echo "$out"; status=1
  fi
}
case ${1:-} in
  logs)
    expect_fail "over-full placement" \
      '^fpga: .*: does not fit: ICESTORM_LC: 9041 used, 5280 available \(171%\)$' \
      scripts/fpga.sh --check-log $here/data/nextpnr-overfull.log 12
    expect_fail "missed clock" \
      '^fpga: .*: misses timing: clock .* reaches 232\.23 MHz, the target is 400\.00 MHz$' \
      scripts/fpga.sh --check-log $here/data/nextpnr-slow.log 12
    expect_fail "no nextpnr log" 'no nextpnr log' scripts/fpga.sh --check-log /nonexistent.log
    # ... and the same checker passes a design that fits and meets its clock.
    if out=$(scripts/fpga.sh --check-log $here/data/nextpnr-link.log 12 2>&1) &&
       grep -qE '^Fmax .* \(target 12\.00 MHz\): PASS' <<<"$out"; then
      echo "ok   a design that fits and meets 12 MHz passes"
    else
      echo "FAIL the link top's log did not pass:"; echo "$out"; status=1
    fi
    ;;
  design)
    out=${2:?usage: check_planted.sh design OUT_DIR}
    expect_fail "over-full design (Yosys count)" \
      '^fpga: overfull: does not fit: LUT4: Yosys maps [0-9]+ SB_LUT4, the UP5K has 5280' \
      env FPGA_TOP=fpga_overfull FPGA_FILES=$here/fpga_overfull.sv FPGA_PCF=$here/fpga_overfull.pcf \
      scripts/fpga.sh -o "$out" overfull
    [ ! -e "$out/nextpnr.log" ] || { echo "FAIL nextpnr ran although Yosys' count was over"; status=1; }
    ;;
  flash)
    # scripts/flash.sh cannot program a board here; it must refuse clearly.
    expect_fail "flash without iceprog" '^flash: .* is not installed' \
      env ICEPROG=/nonexistent/iceprog scripts/flash.sh icebreaker-link
    expect_fail "flash without a bitstream" '^flash: no bitstream at /nonexistent/fpga/icebreaker/icebreaker\.bin' \
      env BUILD=/nonexistent ICEPROG=true scripts/flash.sh icebreaker
    # The whole device needs its firmware in the flash too.
    fake=$(mktemp -d)
    mkdir -p "$fake/fpga/icebreaker" && echo bitstream > "$fake/fpga/icebreaker/icebreaker.bin"
    expect_fail "flash without the firmware" "^flash: no firmware image at $fake/fpga/icebreaker/firmware\.bin" \
      env BUILD="$fake" ICEPROG=true scripts/flash.sh icebreaker
    rm -rf "$fake"
    ;;
  *) echo "usage: check_planted.sh logs | design OUT_DIR | flash"; exit 2 ;;
esac
[ $status -eq 0 ] && echo "PASS"
exit $status
