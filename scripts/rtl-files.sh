#!/usr/bin/env bash
# Prints the RTL's files from rtl/baresm.f (the one ordered list), one per
# line, relative to the repository root: packages first, the top last.
#   scripts/rtl-files.sh [REGEX]   only the paths that match REGEX (grep -E),
#                                  in the list's order
#   scripts/rtl-files.sh --check   fails when an entry does not exist, or an
#                                  .sv file under rtl/ is not in the list
set -euo pipefail
cd "$(dirname "$0")/.."
entries() {
  sed -e 's|//.*||' -e 's/[[:space:]]*$//' -e 's/^[[:space:]]*//' rtl/baresm.f | grep -v -e '^$' -e '^+'
}
if [ "${1:-}" = "--check" ]; then
  status=0
  while read -r f; do
    [ -f "$f" ] || { echo "rtl/baresm.f: $f does not exist" >&2; status=1; }
  done < <(entries)
  dups=$(entries | sort | uniq -d)
  [ -z "$dups" ] || { echo "rtl/baresm.f: listed twice: $dups" >&2; status=1; }
  while read -r f; do
    entries | grep -qxF "$f" || { echo "rtl/baresm.f: $f is not in the list" >&2; status=1; }
  done < <(find rtl -name '*.sv' | sort)
  [ $status -eq 0 ] && echo "rtl/baresm.f: $(entries | wc -l) files, every .sv under rtl/ listed"
  exit $status
fi
entries | while read -r f; do
  if [ -n "${1:-}" ] && ! grep -qE "$1" <<<"$f"; then continue; fi
  [ -f "$f" ] || { echo "rtl/baresm.f: $f does not exist" >&2; exit 1; }
  echo "$f"
done
