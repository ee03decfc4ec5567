#!/usr/bin/env bash
# Coverage-guided fuzzing of the toolchain with libFuzzer (tests/fuzz;
# docs/verification.md, "Fuzzing"). The targets are built with clang, ASan and
# UBSan in their own directory ($BUILD/fuzz), as scripts/sanitize.sh does for
# the unit tests. Targets: asm (source text -> module), module (image bytes ->
# module -> disassembly -> module), disasm (instruction words -> module ->
# disassembly -> module), ptx (PTX text -> translated module -> disassembly
# -> module).
#
#   scripts/fuzz.sh build [JOBS]            configure and build the targets
#   scripts/fuzz.sh run TARGET SECONDS      bounded run (ctest, `make test`): replay
#                                           tests/fuzz/regressions/TARGET, then fuzz
#                                           SECONDS from the committed corpus
#   scripts/fuzz.sh long SECONDS [TARGET..] longer runs (`make fuzz FUZZ_TIME=...`),
#                                           their corpus kept in $BUILD/fuzz/work/TARGET
#   scripts/fuzz.sh replay TARGET FILE..    run inputs once (a crash artifact, say)
#   scripts/fuzz.sh merge TARGET            add the work corpus's new coverage to
#                                           tests/fuzz/corpus/TARGET (then commit it)
#   scripts/fuzz.sh seeds                   regenerate the committed seed corpora
#
# Exit status 1 when clang or the libFuzzer runtime is missing (that is a
# failure, not a skip: scripts/install-deps.sh installs both) or when a target
# finds a crash, a leak, a sanitizer report, a timeout or a broken property;
# the input is then saved under $BUILD/fuzz/artifacts/TARGET/.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BUILD=${BUILD:-build}
case "$BUILD" in /*) ;; *) BUILD="$ROOT/$BUILD" ;; esac
OUT="$BUILD/fuzz"
TARGETS=(asm module disasm ptx)

die() {
  echo "fuzz.sh: $*" >&2
  exit 1
}

known_target() {
  local t
  for t in "${TARGETS[@]}"; do [ "$t" = "$1" ] && return 0; done
  die "unknown target '$1' (${TARGETS[*]})"
}

build() {
  local jobs=${1:-$(nproc)}
  command -v clang++ >/dev/null ||
    die "clang++ not found: the fuzz targets need clang and its libFuzzer runtime (scripts/install-deps.sh)"
  cmake -S tests/fuzz -B "$OUT" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Debug >/dev/null ||
    die "configuring $OUT failed (see above)"
  cmake --build "$OUT" -j "$jobs" || die "building the fuzz targets failed"
}

binary() {
  local bin="$OUT/fuzz_$1"
  [ -x "$bin" ] || die "$bin is not built (scripts/fuzz.sh build)"
  echo "$bin"
}

# libFuzzer options every run shares: a per-input timeout, a memory limit,
# where crashing inputs go, and the assembler's and the PTX front end's
# generated dictionaries (PTX inputs at most 8 KiB: the largest seed is 4.6).
options() {
  local t=$1
  mkdir -p "$OUT/artifacts/$t"
  echo "-timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix=$OUT/artifacts/$t/"
  if [ "$t" = asm ]; then
    [ -f "$OUT/asm.dict" ] || die "$OUT/asm.dict is not built (scripts/fuzz.sh build)"
    echo "-dict=$OUT/asm.dict"
  fi
  if [ "$t" = ptx ]; then
    [ -f "$OUT/ptx.dict" ] || die "$OUT/ptx.dict is not built (scripts/fuzz.sh build)"
    echo "-dict=$OUT/ptx.dict -max_len=8192"
  fi
}

export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}

# One line from libFuzzer's log: runs, exec/s, cov, ft, corpus.
summary() {
  local t=$1 log=$2 done_line runs
  done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -1 || true)
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  echo "fuzz $t: ${runs:-?} runs; ${done_line:-no DONE line}"
}

failed() {
  local t=$1 log=$2
  tail -n 80 "$log" >&2
  local a
  a=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
  echo >&2
  echo "fuzz.sh: target $t FAILED; the input: ${a:-(see the log above)}" >&2
  echo "  replay:   scripts/fuzz.sh replay $t ${a:-FILE}" >&2
  echo "  then fix, and keep it: cp ${a:-FILE} tests/fuzz/regressions/$t/<what-it-is>" >&2
  exit 1
}

replay_regressions() {
  local t=$1 bin=$2 log=$3
  local files=()
  if [ -d "tests/fuzz/regressions/$t" ]; then
    while IFS= read -r -d '' f; do files+=("$f"); done < <(find "tests/fuzz/regressions/$t" -type f -print0 | sort -z)
  fi
  if [ ${#files[@]} -gt 0 ]; then
    local opts
    opts=$(options "$t")
    # shellcheck disable=SC2086
    "$bin" $opts "${files[@]}" >"$log" 2>&1 || failed "$t" "$log"
  fi
  echo "fuzz $t: ${#files[@]} regression inputs replayed"
}

run_bounded() {
  local t=$1 secs=$2 bin
  known_target "$t"
  bin=$(binary "$t")
  local work="$OUT/bounded/$t"
  rm -rf "$work" && mkdir -p "$work/corpus"
  replay_regressions "$t" "$bin" "$work/replay.log"
  local opts
  opts=$(options "$t")
  # New inputs go to the first (scratch) directory; the committed corpus is only read.
  # A fixed seed (FUZZ_SEED, default 1): the bounded run of make test tries the
  # same inputs in the same order on every machine, so what it finds is
  # reproducible and a clean tree stays clean; long runs (run_long) draw one.
  # shellcheck disable=SC2086
  "$bin" $opts -seed="${FUZZ_SEED:-1}" -max_total_time="$secs" "$work/corpus" "tests/fuzz/corpus/$t" >"$work/fuzz.log" 2>&1 ||
    failed "$t" "$work/fuzz.log"
  grep -qE '^#[0-9]+[[:space:]]+DONE' "$work/fuzz.log" || failed "$t" "$work/fuzz.log"
  summary "$t" "$work/fuzz.log"
}

run_long() {
  local secs=$1
  shift
  local t bin
  [ $# -gt 0 ] || set -- "${TARGETS[@]}"
  for t in "$@"; do
    known_target "$t"
    bin=$(binary "$t")
    local work="$OUT/work/$t"
    mkdir -p "$work/corpus"
    replay_regressions "$t" "$bin" "$work/replay.log"
    echo "fuzz $t: $secs s, corpus $work/corpus (kept between runs), log $work/fuzz.log"
    local opts
    opts=$(options "$t")
    # shellcheck disable=SC2086
    "$bin" $opts -max_total_time="$secs" "$work/corpus" "tests/fuzz/corpus/$t" >"$work/fuzz.log" 2>&1 ||
      failed "$t" "$work/fuzz.log"
    summary "$t" "$work/fuzz.log"
  done
}

cmd=${1:-}
[ $# -gt 0 ] && shift
case "$cmd" in
  build) build "${1:-}" ;;
  run)
    [ $# -eq 2 ] || die "usage: scripts/fuzz.sh run TARGET SECONDS"
    run_bounded "$1" "$2"
    ;;
  long)
    [ $# -ge 1 ] || die "usage: scripts/fuzz.sh long SECONDS [TARGET...]"
    run_long "$@"
    ;;
  replay)
    [ $# -ge 2 ] || die "usage: scripts/fuzz.sh replay TARGET FILE..."
    t=$1
    shift
    known_target "$t"
    bin=$(binary "$t")
    opts=$(options "$t")
    # Directories stand for their files (given a directory, libFuzzer would fuzz).
    files=()
    for a in "$@"; do
      if [ -d "$a" ]; then
        while IFS= read -r -d '' f; do files+=("$f"); done < <(find "$a" -type f -print0 | sort -z)
      else
        files+=("$a")
      fi
    done
    [ ${#files[@]} -gt 0 ] || die "no inputs in $*"
    # shellcheck disable=SC2086
    "$bin" $opts "${files[@]}"
    ;;
  merge)
    [ $# -eq 1 ] || die "usage: scripts/fuzz.sh merge TARGET"
    known_target "$1"
    [ -d "$OUT/work/$1/corpus" ] || die "no work corpus in $OUT/work/$1 (run scripts/fuzz.sh long first)"
    bin=$(binary "$1")
    opts=$(options "$1")
    # shellcheck disable=SC2086
    "$bin" $opts -merge=1 "tests/fuzz/corpus/$1" "$OUT/work/$1/corpus"
    ;;
  seeds)
    [ -x "$OUT/make_seeds" ] || die "$OUT/make_seeds is not built (scripts/fuzz.sh build)"
    "$OUT/make_seeds" "$ROOT" "$ROOT/tests/fuzz/corpus"
    ;;
  *) die "usage: scripts/fuzz.sh build|run|long|replay|merge|seeds ... (see the top of this script)" ;;
esac
