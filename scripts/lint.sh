#!/usr/bin/env bash
# Lints all of rtl/ with `verilator --lint-only -Wall` (waivers, each with its
# reason, in rtl/lint.vlt). Packages go first; every top-level module (one
# that no other file instantiates) is linted as its own top so nothing is
# left out. Exit status 0 only when every run is clean.
set -euo pipefail
cd "$(dirname "$0")/.."

VERILATOR=${VERILATOR:-verilator}
# Every file of rtl/baresm.f, in its order (packages first).
mapfile -t files < <(scripts/rtl-files.sh)
mapfile -t mods < <(printf '%s\n' "${files[@]}" | grep -v '_pkg\.sv$')

# Modules declared, and modules instantiated somewhere.
declared=()
for f in "${mods[@]}"; do
  m=$(sed -n 's/^module[[:space:]]\+\([A-Za-z0-9_]\+\).*/\1/p' "$f" | head -n1)
  [ -n "$m" ] && declared+=("$m")
done
tops=()
for m in "${declared[@]}"; do
  if ! grep -qE "^[[:space:]]*${m}([[:space:]]*#|[[:space:]]+[a-zA-Z_])" --include='*.sv' -r rtl \
       --exclude="${m}.sv"; then
    tops+=("$m")
  fi
done

status=0
for t in "${tops[@]}"; do
  echo "lint: ${t}"
  if ! "$VERILATOR" --lint-only -Wall -Irtl/sm -Irtl/prim rtl/lint.vlt ${EXTRA_VLT:-} "${files[@]}" \
       --top-module "$t"; then
    status=1
  fi
done
[ $status -eq 0 ] && echo "lint: clean (${#tops[@]} top(s): ${tops[*]})"
exit $status
