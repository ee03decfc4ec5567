#!/usr/bin/env bash
# The traps a newcomer fell into reading the tree (issue 33), each checked so
# it cannot come back:
#   1. a literal "\n//" in a comment (a line break written as two characters)
#      in the driver's sources;
#   2. the dead forwarder host_driver/regs.h (the register map is
#      cq_model/regs.h), or anything including it;
#   3. baresm_top.sv comparing the command processor's state with a number
#      instead of the state's name (baresm_state_pkg::CP_*);
#   4. comments that say what the code does not do:
#      - baresm_sm.sv names the package holding the launch-descriptor
#        layout (LD_*): that package must define LD_*;
#      - rtl/lint.vlt explains a waiver by the assertion macros' `disable iff`:
#        the macros must use it;
#      - rtl_device.h says the launch counters are read off the SM's counter
#        pins: the RTL backend must read some;
#      - baresm_cp.sv says the soft reset puts "every register" to its reset
#        value: the soft-reset branch must assign every register the
#        power-on reset does.
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
[ -e host_driver/regs.h ] && fail "host_driver/regs.h is back: the register map is cq_model/regs.h"
while IFS= read -r hit; do
  fail "$hit: includes host_driver/regs.h (use cq_model/regs.h)"
done < <(grep -rn --include='*.cpp' --include='*.h' '#include "host_driver/regs.h"' \
  host_driver cq_model sim samples tests tools bench isa examples 2>/dev/null)

# 3. The command processor's state by name.
while IFS= read -r hit; do
  fail "rtl/baresm_top.sv:$hit: compares cp_state_o with a number (use baresm_state_pkg::CP_*)"
done < <(grep -n -E "cp_state_o *[!=]= *[0-9]" rtl/baresm_top.sv)

# 4a. The package the SM's header names for LD_* defines them.
pkg=$(grep -o -E 'baresm_[a-z_]+_pkg, LD_\*' rtl/sm/baresm_sm.sv | head -1 | sed -E 's/, LD_.*//')
if [ -z "$pkg" ]; then
  fail "rtl/sm/baresm_sm.sv: the header no longer says where the launch-descriptor layout (LD_*) is"
elif ! grep -q -E "localparam int LD_" "rtl/sm/$pkg.sv" 2>/dev/null; then
  fail "rtl/sm/baresm_sm.sv: says the LD_* layout is in $pkg, which defines no LD_*"
fi

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

if [ "$fails" -ne 0 ]; then
  echo "newcomer_traps: $fails trap(s)" >&2
  exit 1
fi
echo "newcomer_traps: none"
