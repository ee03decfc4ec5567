#!/bin/bash
# Runs an nvcc-built program through baresm's libcudart.so.13 and checks it:
#   run-app.sh LIBDIR EXPECTED_EXIT APP [ARGS...] -- PATTERN...
# The dynamic linker must resolve libcudart.so.13 to LIBDIR's (ldd, and
# LD_DEBUG=libs of the run itself); the program must exit with EXPECTED_EXIT;
# every PATTERN (an extended regular expression) must match a line of its
# stdout+stderr. The environment (BARESM_BACKEND, ...) passes through; with
# BARESM_BACKEND=rtl and a library built without the verilated device, exit
# 77 (skipped). RUN_APP_EXPECT=FILE: stdout+stderr must also equal FILE.
set -u
libdir=$(cd "$1" && pwd); want_rc=$2; shift 2
cmd=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do cmd+=("$1"); shift; done
[ $# -gt 0 ] && shift
fail() { echo "run-app.sh: FAIL: $*"; exit 1; }

export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
resolved=$(ldd "${cmd[0]}" | awk '$1 == "libcudart.so.13" {print $3}')
[ "$resolved" = "$libdir/libcudart.so.13" ] || fail "ldd resolves libcudart.so.13 to '$resolved', not $libdir/libcudart.so.13"

log=$(mktemp); dbg=$(mktemp)
trap 'rm -f "$log" "$dbg"' EXIT
LD_DEBUG=libs LD_DEBUG_OUTPUT="$dbg" "${cmd[@]}" >"$log" 2>&1
rc=$?
cat "$log"
grep -q "calling init: $libdir/libcudart.so.13" "$dbg".* || fail "LD_DEBUG=libs shows no initialisation of $libdir/libcudart.so.13"
if grep -q "/usr/local/cuda.*libcudart" "$dbg".*; then fail "NVIDIA's libcudart was loaded"; fi
rm -f "$dbg".*
if [ "${BARESM_BACKEND:-}" = rtl ] && grep -q "^baresm cudart: BARESM_BACKEND=rtl: .*not built into this library" "$log"; then
  echo "run-app.sh: SKIP: the library has no verilated device"; exit 77
fi
[ "$rc" = "$want_rc" ] || fail "${cmd[*]} exited with $rc, expected $want_rc"
for p in "$@"; do
  grep -Eq -- "$p" "$log" || fail "no line matches: $p"
done
if [ -n "${RUN_APP_EXPECT:-}" ]; then
  diff "$RUN_APP_EXPECT" "$log" > /dev/null || { diff "$RUN_APP_EXPECT" "$log" | head -20; fail "the output differs from $RUN_APP_EXPECT (< expected, > this run)"; }
fi
echo "run-app.sh: ok (${cmd[*]}: exit $rc, ${#} patterns, libcudart.so.13 from $libdir)"
