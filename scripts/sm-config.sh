#!/usr/bin/env bash
# Prints a named SM configuration of rtl/configs.txt (the one table).
#   scripts/sm-config.sh NAME             Name=Value ... (one line)
#   scripts/sm-config.sh NAME --chparam   -set Name Value ... (Yosys chparam)
#   scripts/sm-config.sh --list           the names
#   scripts/sm-config.sh --check          fails when a name repeats, a
#                                         parameter is not one of baresm_sm's,
#                                         or a board top's defaults are not its
#                                         line's (iCEBreaker: serial; ULX3S, Tang Nano: micro; Arty: arty)
set -euo pipefail
cd "$(dirname "$0")/.."
table() { sed -e 's/#.*//' rtl/configs.txt | awk 'NF > 0'; }
if [ "${1:-}" = "--list" ]; then table | awk '{ print $1 }'; exit 0; fi
if [ "${1:-}" = "--check" ]; then
  status=0
  known=$(sed -n 's/^[[:space:]]*parameter \(int\|bit\) \([A-Za-z]*\).*/\2/p' rtl/sm/baresm_sm.sv)
  dups=$(table | awk '{ print $1 }' | sort | uniq -d)
  [ -z "$dups" ] || { echo "rtl/configs.txt: named twice: $dups" >&2; status=1; }
  while read -r name params; do
    for p in $params; do
      grep -qx "${p%%=*}" <<<"$known" || { echo "rtl/configs.txt: $name: ${p%%=*} is not a parameter of baresm_sm" >&2; status=1; }
      [[ "${p#*=}" =~ ^[0-9]+$ ]] || { echo "rtl/configs.txt: $name: $p is not Name=number" >&2; status=1; }
    done
  done < <(table)
  # The board tops synthesize without the table (Yosys and Vivado read their
  # defaults): they must be their line's, parameter by parameter.
  for pair in serial:rtl/fpga/baresm_icebreaker_top.sv arty:rtl/fpga/baresm_arty_top.sv \
              micro:rtl/fpga/baresm_ulx3s_top.sv micro:rtl/fpga/baresm_tangnano20k_top.sv; do
    cfg=${pair%%:*} board=${pair#*:}
    for p in $(table | awk -v c="$cfg" '$1 == c' | cut -d' ' -f2-); do
      n=${p%%=*} v=${p#*=}
      d=$(sed -n "s/^[[:space:]]*parameter \(int\|bit\) $n = \([0-9]*'b\)\?\([0-9]*\).*/\3/p" "$board")
      [ "$d" = "$v" ] || { echo "$board: $n defaults to '${d:-nothing}', rtl/configs.txt $cfg says $v" >&2; status=1; }
    done
  done
  [ $status -eq 0 ] && echo "rtl/configs.txt: $(table | wc -l) configurations, every parameter one of baresm_sm's; the board tops' defaults are serial's (iCEBreaker), micro's (ULX3S, Tang Nano 20K) and arty's (Arty)"
  exit $status
fi
[ $# -ge 1 ] || { echo "usage: scripts/sm-config.sh NAME [--chparam] | --list" >&2; exit 2; }
row=$(table | awk -v n="$1" '$1 == n')
[ -n "$row" ] || { echo "rtl/configs.txt: no configuration named '$1' (have: $(table | awk '{ print $1 }' | tr '\n' ' '))" >&2; exit 2; }
params=$(echo "$row" | cut -d' ' -f2- | xargs)
if [ "${2:-}" = "--chparam" ]; then
  echo "$params" | tr ' ' '\n' | awk -F= '{ printf "%s-set %s %s", (NR > 1 ? " " : ""), $1, $2 } END { print "" }'
else
  echo "$params"
fi
