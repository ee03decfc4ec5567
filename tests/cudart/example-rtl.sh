#!/bin/bash
# `make run-rtl` of examples/cuda_app, as its README shows it: the committed
# vec_add on the verilated device through the build's libcudart.so.13, its
# waveform and its warp timeline, which must pass `baresm timeline --check`.
#   example-rtl.sh EXAMPLE_DIR BUILD OUT
# Exit 77 (skipped) when the library was built without the verilated device.
set -u
ex=$1; build=$2; out=$3
fail() { echo "example-rtl.sh: FAIL: $*"; exit 1; }
rm -rf "$out"; mkdir -p "$out"
log=$out/make.log
make -s -C "$ex" run-rtl BUILD="$build" OUT="$out" >"$log" 2>&1
rc=$?
cat "$log"
if grep -q "not built into this library" "$log"; then echo "example-rtl.sh: SKIP: the library has no verilated device"; exit 77; fi
[ $rc = 0 ] || fail "make run-rtl exited with $rc"
grep -q "^device: baresm SM (rtl, " "$log" || fail "not run on the rtl backend"
grep -q "^vec_add: n=1000 grid=8 block=128: PASSED$" "$log" || fail "vec_add did not pass"
grep -Eq "^baresm cudart: kernel _Z7vec_addPKfS0_Pfi: 1 launches, [1-9][0-9]* device cycles, 608 warp-instructions" "$log" ||
  fail "no cycle count of the kernel (BARESM_CUDART_STATS)"
grep -q "vec_add.json: valid timeline: .* 1 SM launches" "$log" || fail "the timeline is not valid"
[ -s "$out/vec_add.fst" ] || fail "no waveform $out/vec_add.fst"
[ -s "$out/vec_add.png" ] || fail "no picture $out/vec_add.png"
echo "example-rtl.sh: ok (waveform $(wc -c < "$out/vec_add.fst") bytes, timeline and picture in $out)"
