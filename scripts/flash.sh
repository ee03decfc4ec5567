#!/usr/bin/env bash
# Programs an iCEBreaker with the bitstream scripts/fpga.sh built
# (docs/fpga.md "Flashing"): iceprog writes it to the board's SPI flash
# through the FT2232H's first channel, and the FPGA configures from it; for
# the whole device (icebreaker) first its firmware, at 1 MiB.
#
#   scripts/flash.sh [-S] [BOARD]    BOARD: icebreaker-link (default) or
#                                    icebreaker; the .bin is
#                                    $BUILD/fpga/BOARD/BOARD.bin (BUILD=build)
#       -S   configure the FPGA's RAM directly (SRAM mode, lost at power-off;
#            needs the board's jumpers set for it) instead of the flash
#
# NOT TESTED HERE: no board is attached to the machines this project is built
# on; the script only checks that iceprog and the bitstream are there. On a
# board the host's UART is then /dev/ttyUSB1 (the FT2232H's second channel):
#   build/sim/baresm info --backend serial --port /dev/ttyUSB1
# Linux needs read/write access to the FTDI device (a udev rule or the
# plugdev/dialout group) for iceprog and the port.
set -euo pipefail
cd "$(dirname "$0")/.."
ICEPROG=${ICEPROG:-iceprog}
sram=()
if [ "${1:-}" = "-S" ]; then sram=(-S); shift; fi
board=${1:-icebreaker-link}
bin=${BUILD:-build}/fpga/$board/$board.bin

command -v "$ICEPROG" >/dev/null ||
  { echo "flash: $ICEPROG is not installed (Debian: fpga-icestorm; scripts/install-deps.sh)" >&2; exit 1; }
[ -s "$bin" ] ||
  { echo "flash: no bitstream at $bin: build it first with \`make fpga BOARD=$board\` (scripts/fpga.sh $board)" >&2; exit 1; }
# The firmware device (icebreaker) reads its program from the flash at 1 MiB
# (rtl/fpga/baresm_flash_loader.sv): without it the board lights its fault
# and link LEDs and answers nothing.
fw=${BUILD:-build}/fpga/$board/firmware.bin
if [ "$board" = icebreaker ]; then
  [ -s "$fw" ] || { echo "flash: no firmware image at $fw (scripts/fpga.sh icebreaker writes it)" >&2; exit 1; }
  [ ${#sram[@]} = 0 ] || echo "flash: -S configures the FPGA only; the firmware must already be in the flash at 1 MiB" >&2
  echo "flash: $ICEPROG -o 1M $fw ($(stat -c %s "$fw") bytes)"
  [ ${#sram[@]} = 0 ] && "$ICEPROG" -o 1M "$fw"
fi
echo "flash: $ICEPROG ${sram[*]} $bin ($(stat -c %s "$bin") bytes)"
exec "$ICEPROG" "${sram[@]}" "$bin"
