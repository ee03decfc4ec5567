#!/usr/bin/env bash
# Simulation speed of the verilated design (docs/cosim.md): for the bare SM
# harness (c32w16) and the SystemC top, the idle design, vec_add and
# matmul_tiled, prints
#   cycles/s      wall clock, native run (noisy on a shared machine);
#   Ir/cycle      host instructions per simulated cycle, counted by
#                 `valgrind --tool=callgrind` (repeats exactly). Idle:
#                 (Ir(idle 3000) - Ir(idle 1000)) / 2000, no set-up included.
#                 Samples: (Ir(sample) - Ir(idle 0)) / cycles of a run whose
#                 launches the SM's watchdog stops after SIM_SPEED_CG_CYCLES
#                 (default 3000) cycles, so the host side of the sample
#                 (driver, set-up) is included.
# Usage: scripts/sim-speed.sh SIM_SPEED_SM SIM_SPEED_TOP   (cmake target sim_speed)
# SIM_SPEED_CASES="idle vec_add" narrows the list; SIM_SPEED_NO_CALLGRIND=1
# skips callgrind; SIM_SPEED_OUT=dir keeps the callgrind files (one per
# generated C++ function, so callgrind_annotate shows which module costs what).
set -euo pipefail
sm=${1:?sim_speed_sm}
top=${2:?sim_speed_top}
cases=${SIM_SPEED_CASES:-"idle vec_add matmul_tiled"}
out=${SIM_SPEED_OUT:-$(mktemp -d)}
mkdir -p "$out"
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1

field() { sed -n "s/.*$1=\([0-9.]*\).*/\1/p"; }
ir() {  # total instructions of one callgrind run of "$@"
  local f
  f="$out/cg.$(basename "$1").$2.$3${4:+.$4}.out"
  valgrind --tool=callgrind --callgrind-out-file="$f" "$@" > /dev/null 2>&1 || true
  sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$f" | head -n1
}

printf '%-5s %-14s %10s %12s %12s\n' design case cycles cycles/s Ir/cycle
for name in sm top; do
  prog=$sm; [ $name = top ] && prog=$top
  base=""
  for c in $cases; do
    if [ "$c" = idle ]; then line=$("$prog" idle 200000); else line=$("$prog" sample "$c" || true); fi
    cyc=$(echo "$line" | field cycles)
    cps=$(echo "$line" | field cycles_per_s)
    ipc="-"
    if [ -z "${SIM_SPEED_NO_CALLGRIND:-}" ]; then
      if [ "$c" = idle ]; then
        a=$(ir "$prog" idle 1000); b=$(ir "$prog" idle 3000)
        ipc=$(( (b - a) / 2000 ))
      else
        [ -n "$base" ] || base=$(ir "$prog" idle 0)
        n=${SIM_SPEED_CG_CYCLES:-3000}
        t=$(ir "$prog" sample "$c" "$n")
        ccyc=$("$prog" sample "$c" "$n" | field cycles || true)
        ipc=$(( (t - base) / ccyc ))
      fi
    fi
    printf '%-5s %-14s %10s %12s %12s\n' "$name" "$c" "$cyc" "$cps" "$ipc"
  done
done
echo "callgrind files: $out"
