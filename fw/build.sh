#!/usr/bin/env bash
# Builds a control-core firmware image (docs/mcu.md): clang for rv32i, ld.lld
# with fw/common/link.ld, llvm-objcopy to a flat binary, then one 32-bit word
# per line in hex ($readmemh and tests/rtl_mcu read it).
#   fw/build.sh PROGRAM OUT_DIR   fw/PROGRAM/*.{c,cpp} + fw/common -> OUT_DIR/PROGRAM.{elf,bin,hex}
# fw/PROGRAM/link.ld, when there, replaces fw/common/link.ld; fw/PROGRAM/sources
# lists sources of other programs it shares (fw/dev: the SM's control).
# The committed image is fw/PROGRAM/PROGRAM.hex (cmake targets mcu_fw_update and fwsm_image copy a new one there).
set -euo pipefail
fw="$(cd "$(dirname "$0")" && pwd)"
prog="$1"; out="$2"
CLANG=${CLANG:-clang}; LLD=${LLD:-ld.lld}; OBJCOPY=${OBJCOPY:-llvm-objcopy}
mkdir -p "$out"
flags=(--target=riscv32 -march=rv32i -mabi=ilp32 -O2 -flto -ffreestanding -nostdlib -fno-pic -Wall -Werror -I"$fw/..")
objs=()
# fw/PROGRAM/sources, when there, names more sources (paths under fw/) the program shares.
extra=()
[ -f "$fw/$prog/sources" ] && for s in $(grep -v '^#' "$fw/$prog/sources"); do extra+=("$fw/$s"); done
# C++ sources (fw/sm/fwsm_fpu.cpp, the model's isa/fp32.cpp): freestanding, no C++ library.
cxxflags=(-std=c++17 -nostdinc++ -fno-exceptions -fno-rtti -Os)  # -Os: the 32 KB RAM
shopt -s nullglob
for src in "$fw/common/crt0.S" "$fw/common/mini.c" "$fw/$prog"/*.c "$fw/$prog"/*.cpp "${extra[@]}"; do
  o="$out/$(basename "$src").o"
  case "$src" in
    *.cpp) "$CLANG" "${flags[@]}" "${cxxflags[@]}" -c "$src" -o "$o";;
    *) "$CLANG" "${flags[@]}" -c "$src" -o "$o";;
  esac
  objs+=("$o")
done
ld="$fw/common/link.ld"
[ -f "$fw/$prog/link.ld" ] && ld="$fw/$prog/link.ld"   # a program's own memory map
"$LLD" -T "$ld" --no-relax -o "$out/$prog.elf" "${objs[@]}"
"$OBJCOPY" -O binary "$out/$prog.elf" "$out/$prog.bin"
# Pad to whole words, then one little-endian word per line.
size=$(stat -c %s "$out/$prog.bin")
pad=$(( (4 - size % 4) % 4 ))
head -c "$pad" /dev/zero >> "$out/$prog.bin"
od -An -v -tx4 -w4 "$out/$prog.bin" | tr -d ' ' > "$out/$prog.hex"
echo "fw/$prog: $(wc -l < "$out/$prog.hex") words -> $out/$prog.hex"
