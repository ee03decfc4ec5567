#!/usr/bin/env bash
# Mutation score of the RTL checks: how many planted bugs the assertions,
# the lockstep co-simulation, the random programs and the formal proofs catch.
#
#   scripts/mutate.sh [--count N] [--seed S] [--work DIR] [--dirs "rtl/sm rtl/cp rtl/ssm rtl/msm rtl/mcu"]
#                     [--only I] [--list] [--jobs J]
#
# Seeded source-level mutations of rtl/sm, rtl/cp, rtl/ssm, rtl/msm and
# rtl/mcu (--dirs picks some; the models of the others are not built) (operator swaps,
# off-by-one constants, inverted conditions, dropped assignments), each
# applied alone to a scratch copy of the tree (DIR, default /tmp/baresm-mutate;
# the checkout is never touched). The first failing check kills a mutant:
#   rtl/sm: the smallest SM configuration (c1w8) is rebuilt, then
#     1. the directed kernels in lockstep      (test_rtl_sm_kernels_c1w8)
#     2. the samples in lockstep, fast memory  (test_rtl_sm_c1w8)
#     3. one random program per profile        (test_rtl_sm_random_c1w8)
#     4. the formal proof of the mutated block, when it has one
#   rtl/ssm: the thread-serial SM (`serial`) is rebuilt, then its directed
#     kernels, samples and one random program per profile, in lockstep
#   rtl/cp: first the formal proofs of the command processor and its memory
#     arbiter (seconds); a survivor then gets the SystemC top rebuilt (minutes)
#     and the command-processor and driver co-simulation tests.
#   rtl/msm, rtl/mcu (the microprogrammed SM, `msm`: the control core runs
#     the SM firmware): the msm models are rebuilt, then
#     1. rtl/mcu: the core in lockstep with the ISS        (test_rtl_mcu)
#     2. the directed kernels in lockstep                  (test_rtl_sm_kernels_msm)
#     3. the samples in lockstep                           (test_rtl_sm_msm)
#     4. one random program per profile                    (test_rtl_sm_random_msm)
#     5. rtl/msm/baresm_mdev*.sv (the whole iCEBreaker device): the serial
#        link's slice on the board model                   (test_serial_link)
#     6. the formal proof of the mutated block, when it has one (msm_lsu)
#     leaving out what fails on the unmutated tree by cycle budget (the
#     firmware's control is 15-60x slower than the kernels' budgets, which
#     were sized for the hardwired SMs: they end in WATCHDOG or time out).
#   --jobs J: build with J jobs (default: every core).
# A mutant that does not build is reported as stillborn and not counted;
# `<` -> `<=` is not applied to `for` headers (the extra iteration is out of
# range: equivalent under Verilator). --only I runs the I-th mutant of the
# seeded list alone (--list prints it). Output: one line per mutant, then
# "killed K / total T (P%)" and every survivor with its diff, in
# DIR/report.txt. Not part of `make test` (minutes per mutant); `make mutate`
# runs it.
set -uo pipefail
cd "$(dirname "$0")/.."
SRC=$(pwd)
COUNT=40
SEED=1
WORK=/tmp/baresm-mutate
LIST=0
ONLY=0
DIRS="rtl/sm rtl/cp rtl/ssm rtl/msm rtl/mcu"
JOBS=$(nproc)
while [ $# -gt 0 ]; do
  case "$1" in
    --count) COUNT=$2; shift 2 ;;
    --seed) SEED=$2; shift 2 ;;
    --work) WORK=$2; shift 2 ;;
    --list) LIST=1; shift ;;
    --only) ONLY=$2; shift 2 ;;
    --dirs) DIRS=$2; shift 2 ;;
    --jobs) JOBS=$2; shift 2 ;;
    *) echo "mutate: unknown argument $1" >&2; exit 2 ;;
  esac
done

# ---- the mutants: (file, line, description, sed expression) ---------------------
# Candidate lines are RTL statements (not comments, declarations or
# parameters); each operator kind has its own rewrite.
candidates() {
  local d f
  for f in $(for d in $DIRS; do echo "$d"/baresm_*.sv; done); do
    case "$f" in *_pkg.sv|*baresm_fpu*.sv) continue ;; esac
    awk -v F="$f" '
      /^[[:space:]]*\/\// { next }
      /^[[:space:]]*(logic|localparam|parameter|input|output|module|typedef|`)/ { next }
      {
        line = $0; sub(/\/\/.*/, "", line)
        if (line ~ / == /) print F "\t" NR "\tswap == for !=\ts/ == / != /"
        if (line ~ / != /) print F "\t" NR "\tswap != for ==\ts/ != / == /"
        if (line ~ / && /) print F "\t" NR "\tswap && for ||\ts/ \\&\\& / || /"
        if (line ~ / \|\| /) print F "\t" NR "\tswap || for &&\ts/ || / \\&\\& /"
        if (line ~ / \+ [A-Za-z0-9_]+'\''\(1\)/ || line ~ /'\''d1[^0-9]/) print F "\t" NR "\toff by one (1 -> 2)\ts/'\''d1\\([^0-9]\\)/'\''d2\\1/"
        if (line ~ /if \(/ && line !~ /else/) print F "\t" NR "\tinvert an if condition\ts/if (/if (!/"
        if (line ~ /[a-z_]+_q(\[[^]]*\])? <= / && line ~ /;[[:space:]]*$/ && line !~ /(if|else|for|case)/) print F "\t" NR "\tdrop a flop assignment\ts/^\\([[:space:]]*\\)\\(.*<=.*;\\)/\\1begin end \\/\\/ MUTANT dropped/"
        if (line ~ / < / && line !~ /<</ && line !~ /for \(/) print F "\t" NR "\tswap < for <=\ts/ < / <= /"
        if (line ~ / >= /) print F "\t" NR "\tswap >= for >\ts/ >= / > /"
      }' "$f"
  done
}

# Everything works on a snapshot of the tree taken now (the checkout may
# change while the run goes on).
mkdir -p "$WORK"
rm -rf "$WORK/src" "$WORK/orig"
mkdir -p "$WORK/src"
tar -C "$SRC" --exclude=./build --exclude=./.git -cf - . | tar -C "$WORK/src" -xf -
cp -a "$WORK/src" "$WORK/orig"
cd "$WORK/orig"
mapfile -t all < <(candidates)
cd "$SRC"
if [ ${#all[@]} -eq 0 ]; then
  echo "mutate: no candidate lines found" >&2
  exit 1
fi
# A seeded choice of COUNT distinct candidates.
mapfile -t chosen < <(printf '%s\n' "${all[@]}" | awk -v seed="$SEED" 'BEGIN { srand(seed) } { print rand() "\t" $0 }' |
                      sort -n | head -n "$COUNT" | cut -f2-)
if [ $LIST -eq 1 ]; then
  printf '%s\n' "${chosen[@]}" | cat -n
  exit 0
fi

# ---- the scratch tree and its build -----------------------------------------------
# (No gate-level device netlist: no check here runs it, and it costs a
# synthesis at configure.)
cmake -S "$WORK/src" -B "$WORK/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBARESM_DEVICE_NETLIST=OFF \
  > "$WORK/configure.log" 2>&1 || {
  echo "mutate: configure failed (see $WORK/configure.log)" >&2; exit 1; }
# The models to build: those of the SMs whose directories are mutated.
HW=0 MSM=0
for d in $DIRS; do
  case "$d" in rtl/msm|rtl/mcu) MSM=1 ;; *) HW=1 ;; esac
done
TARGETS=""
[ $HW -eq 1 ] && TARGETS="test_rtl_sm_kernels_c1w8 test_rtl_sm_c1w8 test_rtl_sm_random_c1w8 test_rtl_sm_kernels_serial test_rtl_sm_serial test_rtl_sm_random_serial"
[ $MSM -eq 1 ] && TARGETS="$TARGETS test_rtl_mcu test_rtl_sm_kernels_msm test_rtl_sm_msm test_rtl_sm_random_msm test_serial_link"
build() { cmake --build "$WORK/build" -j "$JOBS" --target $TARGETS > "$WORK/build.log" 2>&1; }
echo "mutate: baseline build"
build || { echo "mutate: the unmutated tree does not build (see $WORK/build.log)" >&2; exit 1; }

T="$WORK/build/tests/rtl_sm"
C="$WORK/build/tests/cosim"
run_cp_checks() {  # rtl/cp: prints what killed the mutant, or nothing
  local p
  for p in cp_engine cp_queues cp mem_arb; do
    (cd "$WORK/src" && timeout 600 scripts/formal.sh -o "$WORK/formal" "$p" > "$WORK/t4.log" 2>&1) || {
      echo "formal proof $p"; return; }
  done
  cmake --build "$WORK/build" -j "$JOBS" --target test_cosim_cp test_cosim_driver > "$WORK/build_cp.log" 2>&1 || {
    echo "stillborn"; return; }
  timeout 600 "$C/test_cosim_cp" > "$WORK/t5.log" 2>&1 || { echo "command-processor co-simulation"; return; }
  timeout 900 "$C/test_cosim_driver" > "$WORK/t6.log" 2>&1 || { echo "driver co-simulation"; return; }
}
run_ssm_checks() {  # rtl/ssm: prints what killed the mutant, or nothing
  timeout 300 "$T/test_rtl_sm_kernels_serial" --gtest_filter='-*Minimal:*EveryIntegerOp:*EveryOpcodeModifierAndGuard:*EveryConflictDegreeAndLineCount:*RegisterBankConflicts*' \
    > "$WORK/t1.log" 2>&1 || { echo "directed kernels (serial)"; return; }
  timeout 300 "$T/test_rtl_sm_serial" > "$WORK/t2.log" 2>&1 || { echo "samples (serial)"; return; }
  BARESM_SOAK_SEEDS=${SEED}000:1 timeout 300 "$T/test_rtl_sm_random_serial" > "$WORK/t3.log" 2>&1 || {
    echo "random programs (serial)"; return; }
}
# The msm runs that fail on the unmutated tree by cycle budget (WATCHDOG or
# the kernels' 2M-cycle limit; tests/rtl_sm/CMakeLists.txt): left out.
MSM_KERNELS_OUT='SmKernels.Minimal:SmKernels.EveryIntegerOp:SmKernels.EveryOpcodeModifierAndGuard:SmKernels.EveryConflictDegreeAndLineCount:SmKernels.RegisterBankConflictsCostCyclesNotResults:SmKernels.WatchdogAndInvalidPc:SmKernels.SharedAtomicsManyCtas:SmKernels.ThreadIdsIn3D:SmKernels.NestedDivergenceAndLoops:SmKernels.OccupancyFollowsSharedMemory'
MSM_SAMPLES_OUT='*fault_endless_loop_fast'
MSM_RANDOM_OUT='*/mixed:*/control:*/memory:*/fault_STACK_OVERFLOW'
run_msm_checks() {  # rtl/msm, rtl/mcu: prints what killed the mutant, or nothing
  case "$1" in rtl/mcu/*|none)
    timeout 300 "$WORK/build/tests/rtl_mcu/test_rtl_mcu" > "$WORK/t0.log" 2>&1 || { echo "control core lockstep (mcu)"; return; } ;;
  esac
  timeout 300 "$T/test_rtl_sm_kernels_msm" --gtest_filter="-$MSM_KERNELS_OUT" > "$WORK/t1.log" 2>&1 || {
    echo "directed kernels (msm)"; return; }
  timeout 300 "$T/test_rtl_sm_msm" --gtest_filter="-$MSM_SAMPLES_OUT" > "$WORK/t2.log" 2>&1 || { echo "samples (msm)"; return; }
  BARESM_SOAK_SEEDS=${SEED}000:1 timeout 300 "$T/test_rtl_sm_random_msm" --gtest_filter="-$MSM_RANDOM_OUT" \
    > "$WORK/t3.log" 2>&1 || { echo "random programs (msm)"; return; }
  case "$1" in rtl/msm/baresm_mdev*|none)
    timeout 300 "$WORK/build/tests/serial/test_serial_link" > "$WORK/t5.log" 2>&1 || {
      echo "serial link (device)"; return; } ;;
  esac
  local proof=""
  case "$(basename "$1" .sv)" in
    baresm_msm_lsu) proof=msm_lsu ;;
  esac
  if [ -n "$proof" ]; then
    (cd "$WORK/src" && timeout 300 scripts/formal.sh -o "$WORK/formal" "$proof" > "$WORK/t4.log" 2>&1) || {
      echo "formal proof $proof"; return; }
  fi
}
run_checks() {  # prints what killed the mutant, or nothing
  case "$1" in rtl/cp/*) run_cp_checks; return ;; rtl/ssm/*) run_ssm_checks; return ;;
               rtl/msm/*|rtl/mcu/*) run_msm_checks "$1"; return ;; esac
  timeout 300 "$T/test_rtl_sm_kernels_c1w8" > "$WORK/t1.log" 2>&1 || { echo "directed kernels"; return; }
  timeout 300 "$T/test_rtl_sm_c1w8" --gtest_filter='*vec_add_fast:*nested_divergence_fast:*histogram_fast:*transpose_fast:*fault_*' > "$WORK/t2.log" 2>&1 || { echo "samples"; return; }
  BARESM_SOAK_SEEDS=${SEED}000:1 timeout 300 "$T/test_rtl_sm_random_c1w8" > "$WORK/t3.log" 2>&1 || {
    echo "random programs"; return; }
  local proof=""
  case "$(basename "$1" .sv)" in
    baresm_mem_arb) proof=mem_arb ;;
    baresm_sm_sched) proof=sched ;;
    baresm_sm_stacks) proof=stack ;;
    baresm_sm_barrier) proof=barrier ;;
  esac
  if [ -n "$proof" ]; then
    (cd "$WORK/src" && timeout 300 scripts/formal.sh -o "$WORK/formal" "$proof" > "$WORK/t4.log" 2>&1) || {
      echo "formal proof $proof"; return; }
  fi
}
echo "mutate: baseline checks"
why=""
[ $HW -eq 1 ] && why=$(run_checks none)$(run_ssm_checks)
[ $MSM -eq 1 ] && why="$why$(run_msm_checks none)"
if [ -n "$why" ]; then
  echo "mutate: the unmutated tree fails its own checks ($why)" >&2
  exit 1
fi

killed=0 total=0 stillborn=0
report="$WORK/report.txt"
: > "$report"
i=0
for c in "${chosen[@]}"; do
  i=$((i + 1))
  [ "$ONLY" -eq 0 ] || [ "$ONLY" -eq "$i" ] || continue
  IFS=$'\t' read -r file line desc expr <<< "$c"
  cp "$WORK/orig/$file" "$WORK/src/$file"
  sed -i "${line}${expr}" "$WORK/src/$file"
  if cmp -s "$WORK/orig/$file" "$WORK/src/$file"; then
    echo "[$i] $file:$line $desc: no change, skipped"
    continue
  fi
  diff=$(diff -u "$WORK/orig/$file" "$WORK/src/$file" | tail -n +3)
  if ! build; then
    stillborn=$((stillborn + 1))
    echo "[$i] $file:$line $desc: STILLBORN (does not build)"
  else
    total=$((total + 1))
    why=$(run_checks "$file")
    if [ "$why" = stillborn ]; then
      total=$((total - 1))
      stillborn=$((stillborn + 1))
      echo "[$i] $file:$line $desc: STILLBORN (does not build)"
    elif [ -n "$why" ]; then
      killed=$((killed + 1))
      echo "[$i] $file:$line $desc: killed by $why"
    else
      echo "[$i] $file:$line $desc: SURVIVED"
      { echo "survivor: $file:$line $desc"; echo "$diff"; echo; } >> "$report"
    fi
  fi
  cp "$WORK/orig/$file" "$WORK/src/$file"
done
pct=0
[ $total -gt 0 ] && pct=$((100 * killed / total))
summary="mutate: killed $killed / total $total ($pct%), stillborn $stillborn, seed $SEED"
echo "$summary"
sed -i "1i $summary\n" "$report"
echo "mutate: survivors in $report"
