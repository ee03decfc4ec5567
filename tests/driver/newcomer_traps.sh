#!/usr/bin/env bash
# The traps a newcomer fell into reading the tree (issue 33), each checked so
# it cannot come back:
#   1. a literal "\n//" in a comment (a line break written as two characters)
#      in the driver's sources;
#   2. the dead forwarder host_driver/regs.h (the register map is
#      contract/regs.h), or anything including it;
#   3. baresm_top.sv comparing the command processor's state with a number
#      instead of the state's name (baresm_state_pkg::CP_*);
#   4. comments that say what the code does not do:
#      - baresm_sm.sv names what holds the launch-descriptor layout (the
#        LD_* package, or baresm_launch_t and its table): each must exist;
#      - rtl/lint.vlt explains a waiver by the assertion macros' `disable iff`:
#        the macros must use it;
#      - rtl_device.h says the launch counters are read off the SM's counter
#        pins: the RTL backend must read some;
#      - baresm_cp.sv says the soft reset puts "every register" to its reset
#        value: the soft-reset branch must assign every register the
#        power-on reset does.
#   5. the contract in more than one folder: every .def table lives in
#      contract/ (contract/README.md lists each), every #include of a table
#      names it there, contract/README.md lists every table, and the driver
#      reaches the contract only through contract/ (no cq_model/ header but
#      the functional model's, for the model transport and the registry);
#   6. a second device API: Dim3, LaunchConfig and LaunchReport each defined
#      once, and one parameter packer (isa/params.h: isa::pack_params, which
#      the driver, progen and the bench call), no other function that packs
#      kernel arguments by a parameter table.
#
#   tests/driver/newcomer_traps.sh [SOURCE_DIR]
set -uo pipefail
root="${1:-$(cd "$(dirname "$0")/../.." && pwd)}"
cd "$root" || exit 2
fails=0
fail() {
  echo "newcomer_traps: $*" >&2
  fails=$((fails + 1))
}

# 1. A literal backslash-n inside a // comment.
while IFS= read -r hit; do
  fail "$hit: a literal '\\n' in a comment (write the line break)"
done < <(grep -n -E '//.*\\n//' host_driver/*.cpp host_driver/*.h 2>/dev/null)

# 2. The forwarder and its includes.
[ -e host_driver/regs.h ] && fail "host_driver/regs.h is back: the register map is contract/regs.h"
while IFS= read -r hit; do
  fail "$hit: includes host_driver/regs.h (use contract/regs.h)"
done < <(grep -rn --include='*.cpp' --include='*.h' '#include "host_driver/regs.h"' \
  host_driver cq_model sim samples tests tools bench isa examples 2>/dev/null)

# 3. The command processor's state by name.
while IFS= read -r hit; do
  fail "rtl/baresm_top.sv:$hit: compares cp_state_o with a number (use baresm_state_pkg::CP_*)"
done < <(grep -n -E "cp_state_o *[!=]= *[0-9]" rtl/baresm_top.sv)

# 4a. What the SM's header says holds the launch descriptor's layout exists:
# the LD_* offsets in the package it names, the type baresm_launch_t (the
# typed port) in rtl/prim/baresm_launch_types.svh, generated from the table
# it names. It must say one of them.
said=0
pkg=$(grep -o -E 'baresm_[a-z_]+_pkg, LD_\*' rtl/sm/baresm_sm.sv | head -1 | sed -E 's/, LD_.*//')
if [ -n "$pkg" ]; then
  said=1
  grep -q -E "localparam int LD_" "rtl/sm/$pkg.sv" 2>/dev/null ||
    fail "rtl/sm/baresm_sm.sv: says the LD_* layout is in $pkg, which defines no LD_*"
fi
if grep -q -E '^//.*baresm_launch_t' rtl/sm/baresm_sm.sv; then
  said=1
  grep -q -E '^} *baresm_launch_t;' rtl/prim/baresm_launch_types.svh 2>/dev/null ||
    fail "rtl/sm/baresm_sm.sv: names baresm_launch_t, which rtl/prim/baresm_launch_types.svh does not define"
  table=$(grep -A1 -E '^//.*baresm_launch_t' rtl/sm/baresm_sm.sv | grep -o -E '[a-z_/]+\.def' | head -1)
  [ -z "$table" ] || [ -f "$table" ] ||
    fail "rtl/sm/baresm_sm.sv: says baresm_launch_t is generated from $table, which does not exist"
fi
[ "$said" = 1 ] ||
  fail "rtl/sm/baresm_sm.sv: the header no longer says where the launch-descriptor layout is (LD_* or baresm_launch_t)"

# 4b. lint.vlt's reason quotes `disable iff`: the macros must use it.
if grep -q 'disable iff' rtl/lint.vlt && ! grep -v '^ *//' rtl/prim/baresm_assert.svh | grep -q 'disable iff'; then
  fail "rtl/lint.vlt: explains a waiver by 'disable iff', which rtl/prim/baresm_assert.svh never uses"
fi

# 4c. "counter pins": only if the RTL backend reads counters off pins.
if grep -q -i 'counter pins' sim/systemc/rtl_device.h &&
  ! grep -q -i -E 'counter|stats' sim/systemc/rtl_cli.cpp; then
  fail "sim/systemc/rtl_device.h: says counters are read off the SM's counter pins; the backend reads none"
fi

# 4d. "Every register" on the soft reset: compare the two reset branches.
regs_of_branch() {  # $1: the line that opens the branch
  awk -v open="$1" '
    index($0, open) { inb = 1; next }
    inb && /^    end( |$)/ { exit }
    inb && /^ *[a-z_0-9]+ <=/ { sub(/^ */, ""); sub(/ <=.*/, ""); print }
  ' rtl/cp/baresm_cp.sv | sort -u
}
if grep -q -i -E '// *every register to its reset value' rtl/cp/baresm_cp.sv; then
  missing=$(comm -23 <(regs_of_branch 'if (!rst_ni) begin') <(regs_of_branch 'end else if (soft_reset) begin') | tr '\n' ' ')
  [ -n "$missing" ] &&
    fail "rtl/cp/baresm_cp.sv: the soft reset says 'every register to its reset value' but leaves: $missing"
fi

# 5. The contract has one home.
while IFS= read -r f; do
  fail "$f: a contract table outside contract/ (move it there, contract/README.md)"
done < <(find . -name '*.def' -not -path './contract/*' -not -path './build*' -not -path './.git/*' | sed 's#^\./##' | sort)
while IFS= read -r hit; do
  fail "$hit: includes a table from outside contract/"
done < <(grep -rn -E --include='*.cpp' --include='*.h' --include='*.cu' '#include "[^"]+\.def"' \
  contract host_driver cq_model sim samples tests tools bench isa cudart examples 2>/dev/null | grep -v '#include "contract/')
for f in contract/*.def; do
  grep -q "\`$f\`" contract/README.md 2>/dev/null || fail "contract/README.md does not list $f"
done
while IFS= read -r hit; do
  fail "$hit: the driver reaches into cq_model/ for something other than the functional model"
done < <(grep -n -E '#include "cq_model/' host_driver/*.h host_driver/*.cpp 2>/dev/null | grep -v 'cq_model/model_device.h"')

# 6. One device API, one packer.
src_dirs="contract host_driver cq_model sim samples tests tools bench isa cudart examples"
for t in Dim3 LaunchConfig LaunchReport; do
  defs=$(grep -rn -E --include='*.cpp' --include='*.h' --include='*.cu' "^ *(struct|class) $t *(\{|:|$)" $src_dirs 2>/dev/null)
  n=$(printf '%s' "$defs" | grep -c .)
  [ "$n" -eq 1 ] || fail "$t is defined $n times (once is the API): ${defs//$'\n'/; }"
done
packers=$(grep -rn -E --include='*.cpp' --include='*.h' --include='*.cu' '^[A-Za-z].*[ :*&]pack_?(params|args|arguments)[A-Za-z_]* *\(' \
  $src_dirs 2>/dev/null | grep -v -E '^isa/params\.(h|cpp):')
[ -z "$packers" ] || fail "a parameter packer besides isa::pack_params (isa/params.h): ${packers//$'\n'/; }"
grep -q -E 'isa::pack_params\(' host_driver/driver_launch.cpp ||
  fail "host_driver/driver_launch.cpp: Device::launch does not pack through isa::pack_params"

if [ "$fails" -ne 0 ]; then
  echo "newcomer_traps: $fails trap(s)" >&2
  exit 1
fi
echo "newcomer_traps: none"
