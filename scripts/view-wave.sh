#!/usr/bin/env bash
# Opens an FST trace of the device in GTKWave with the committed layout
# (sim/gtkw/baresm.gtkw: command processor and rings, memory port, warp
# states, scheduler, barriers, shared-memory banks).
#
#   scripts/view-wave.sh trace.fst
#
# Make a trace with the co-simulation (docs/cosim.md), e.g.
#   build/sim/baresm run vec_add --backend rtl --trace trace.fst --trace-window 0:20000
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
layout="${BARESM_GTKW:-$here/sim/gtkw/baresm.gtkw}"
if [ $# -ne 1 ]; then
  echo "usage: $0 TRACE.fst" >&2
  exit 2
fi
trace="$1"
if [ ! -f "$trace" ]; then
  echo "$0: no such trace: $trace" >&2
  exit 2
fi
if ! command -v gtkwave >/dev/null; then
  echo "$0: gtkwave is not installed (scripts/install-deps.sh installs it)" >&2
  exit 1
fi
exec gtkwave --dump="$trace" --save="$layout"
