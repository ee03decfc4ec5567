#!/usr/bin/env bash
# Opens an FST trace of the device in GTKWave with the committed layout
# (sim/gtkw/baresm.gtkw: command processor and rings, memory port, warp
# states, scheduler, barriers, shared-memory banks), with the states, fault
# kinds, error codes and opcodes named and instruction words disassembled.
#
#   scripts/view-wave.sh trace.fst [GTKWAVE_OPTION...]
#
# Options after the trace go to GTKWave as they are (tests/cosim's layout
# test passes --script=sim/gtkw/probe-filters.tcl to read back what it shows).
#
# Make a trace with the co-simulation (docs/cosim.md), e.g.
#   build/sim/baresm run vec_add --backend rtl --trace trace.fst --trace-window 0:20000
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
layout="${BARESM_GTKW:-$here/sim/gtkw/baresm.gtkw}"
if [ $# -lt 1 ]; then
  echo "usage: $0 TRACE.fst [GTKWAVE_OPTION...]" >&2
  exit 2
fi
trace="$1"
shift
if [ ! -f "$trace" ]; then
  echo "$0: no such trace: $trace" >&2
  exit 2
fi
if ! command -v gtkwave >/dev/null; then
  echo "$0: gtkwave is not installed (scripts/install-deps.sh installs it)" >&2
  exit 1
fi
# The layout names its translate filters (sim/gtkw/filters/*.txt, the
# instruction-word filter sim/gtkw/dis-filter.sh) relative to the repository
# root, and GTKWave opens them relative to its working directory: open a copy
# with the paths made absolute, so this works from any directory.
case "$here" in
  *[[:space:]]*) echo "$0: warning: '$here' has a space; GTKWave cannot run the instruction filter from there" >&2 ;;
esac
if [ -z "${BARESM:-}" ] && [ ! -x "$here/build/sim/baresm" ] && ! command -v baresm >/dev/null; then
  echo "$0: warning: no baresm CLI (build/sim/baresm or BARESM): instruction words stay hex" >&2
fi
copy="$(mktemp "${TMPDIR:-/tmp}/baresm-gtkw.XXXXXX")"
trap 'rm -f "$copy"' EXIT
root="$(printf '%s' "$here" | sed 's/[&|\\]/\\&/g')"  # as a sed replacement
sed -e "s|^\^\(>\{0,1\}[0-9]*\) sim/gtkw/|^\1 $root/sim/gtkw/|" "$layout" >"$copy"
gtkwave --dump="$trace" --save="$copy" "$@"
