#!/usr/bin/env bash
# The whole device's firmware as the iCEBreaker's flash holds it at 1 MiB
# (rtl/fpga/baresm_flash_loader.sv reads it into the control core's SPRAM
# after reset; docs/fpga.md "Flashing"):
#   word 0  "BSFW" (0x57465342), word 1  N, words 2..N+1  the image,
# each word little-endian.
#   scripts/fw-flash-image.sh HEX OUT    HEX: one 32-bit word per line
#                                        (fw/build.sh's .hex, fw/dev/dev.hex)
# The board simulation (sim/serial) reads the same file as its flash.
set -euo pipefail
hex="$1"; out="$2"
[ -s "$hex" ] || { echo "fw-flash-image: no firmware image at $hex" >&2; exit 1; }
perl -e '
  my @w;
  while (<STDIN>) { s/\s+//g; next if $_ eq ""; die "fw-flash-image: line $.: not a hex word: $_\n" unless /^[0-9a-fA-F]{1,8}$/; push @w, hex($_); }
  die "fw-flash-image: ".scalar(@w)." words: more than the 16384 of the firmware RAM\n" if @w > 16384;
  print pack("V*", 0x57465342, scalar(@w), @w);
' < "$hex" > "$out.tmp"
mv "$out.tmp" "$out"
