#!/usr/bin/env bash
# ctest fpga_flow_icebreaker_link: the whole FPGA flow (scripts/fpga.sh) on the
# link bring-up top; passes when the script says the design fits and meets
# the 12 MHz clock, printed the utilization table and the Fmax, and left a
# non-empty bitstream.
#   tests/fpga/check_flow.sh OUT_DIR [BOARD]
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${1:?usage: check_flow.sh OUT_DIR [BOARD]}
board=${2:-icebreaker-link}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
scripts/fpga.sh -o "$out" "$board" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
status=0
fail() { echo "FAIL: $*"; status=1; }
[ "$rc" -eq 0 ] || fail "scripts/fpga.sh $board exited $rc"
for want in 'LUT4\+FF \(ICESTORM_LC\) +[0-9]+ +5280 ' 'EBR \(ICESTORM_RAM\) +[0-9]+ +30 ' \
            'SPRAM \(ICESTORM_SPRAM\) +[0-9]+ +4 ' 'DSP \(ICESTORM_DSP\) +[0-9]+ +8 ' 'IO \(SB_IO\) +[0-9]+ ' \
            '^Fmax .* MHz \(target 12\.00 MHz\): PASS' 'fits and meets 12 MHz'; do
  grep -qE "$want" "$log" || fail "no line matching /$want/ in the output"
done
[ -s "$out/$board.bin" ] || fail "no bitstream, or an empty one, at $out/$board.bin"
[ $status -eq 0 ] && echo "PASS: $board: $(stat -c %s "$out/$board.bin")-byte bitstream, fits, meets timing"
exit $status
