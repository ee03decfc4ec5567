#!/bin/sh
# GTKWave "Translate Filter Process" for 64-bit instruction words: runs
# `baresm dis --gtkwave-filter`. GTKWave execs a filter with at most one
# argument, so the layout names this script rather than the CLI itself.
# The CLI: $BARESM, else build/sim/baresm of this checkout, else baresm on PATH.
here="$(cd "$(dirname "$0")/../.." && pwd)"
cli="${BARESM:-$here/build/sim/baresm}"
[ -x "$cli" ] || cli="$(command -v baresm)" || {
  echo "dis-filter.sh: no baresm CLI (build the baresm target or set BARESM)" >&2
  exit 1
}
exec "$cli" dis --gtkwave-filter
