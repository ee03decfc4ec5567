#!/bin/bash
# Runs one program of the suite (programs.txt) through baresm's
# libcudart.so.13 and compares what it prints with an NVIDIA GPU's reference run
# (ref/NAME.*, made by gpu-run.sh with NVIDIA's runtime):
#   run-suite.sh LIBDIR NAME [BACKEND]
# stdout, stderr, the exit status and the output file the program writes (if
# any) must equal the reference byte for byte once both go through the same
# filter (filters/common.sed, then filters/NAME.sed where there is one), which
# only blanks what names the device or measures time. As run-app.sh, it checks
# that the dynamic linker resolved libcudart.so.13 to LIBDIR's. BACKEND
# (default: the library's, the functional model) is BARESM_BACKEND for the
# run: `rtl` runs it on the verilated device; exit 77 (skipped) when the
# library was built without it.
#   run-suite.sh --raw OUTDIR NAME   runs it with whatever libcudart the loader
#                                    finds, writing the raw files (gpu-run.sh)
set -u
here=$(cd "$(dirname "$0")" && pwd)
raw=0
if [ "$1" = "--raw" ]; then raw=1; shift; outdir=$(mkdir -p "$1" && cd "$1" && pwd); else libdir=$(cd "$1" && pwd); fi
name=$2
backend=${3:-}
fail() { echo "run-suite.sh: FAIL: $name: $*"; exit 1; }
line=$(grep -v '^#' "$here/programs.txt" | awk -F'|' -v n="$name" '$1 == n')
[ -n "$line" ] || fail "not in programs.txt"
IFS="|" read -r _ _ _ args outfile _ <<<"$line"
bin=$here/bin/$name
[ -x "$bin" ] || fail "no binary $bin (build-bins.sh)"

work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
if [ $raw = 0 ]; then
  [ -n "$backend" ] && export BARESM_BACKEND=$backend
  export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  resolved=$(ldd "$bin" | awk '$1 == "libcudart.so.13" {print $3}')
  [ "$resolved" = "$libdir/libcudart.so.13" ] || fail "ldd resolves libcudart.so.13 to '$resolved', not $libdir/libcudart.so.13"
  outdir=$work/out; mkdir -p "$outdir"
fi
mkdir -p "$work/cwd"
# shellcheck disable=SC2086
(cd "$work/cwd" && LD_DEBUG=libs LD_DEBUG_OUTPUT="$work/dbg" "$bin" $args >"$outdir/$name.stdout" 2>"$outdir/$name.stderr" </dev/null)
echo $? > "$outdir/$name.rc"
if [ "$outfile" != "-" ]; then
  cp "$work/cwd/$outfile" "$outdir/$name.$outfile" 2>/dev/null || echo "(no $outfile written)" > "$outdir/$name.$outfile"
fi
if [ $raw = 0 ] && grep -q "^baresm cudart: BARESM_BACKEND=$backend: no such backend in this library.*not built into this library" "$outdir/$name.stderr" 2>/dev/null; then
  echo "run-suite.sh: SKIP: $name: $(head -1 "$outdir/$name.stderr")"
  exit 77
fi
if [ $raw = 1 ]; then
  grep -h 'calling init: .*libcudart' "$work"/dbg.* | head -1 | sed -E 's/^ *[0-9]+: *//' > "$outdir/$name.loaded"
  exit 0
fi
grep -q "calling init: $libdir/libcudart.so.13" "$work"/dbg.* || fail "LD_DEBUG=libs shows no initialisation of $libdir/libcudart.so.13"
if grep -q "/usr/local/cuda.*libcudart" "$work"/dbg.*; then fail "NVIDIA's libcudart was loaded"; fi

filt() {
  if [ -f "$here/filters/$name.sed" ]; then sed -E -f "$here/filters/common.sed" "$1" | sed -E -f "$here/filters/$name.sed"
  else sed -E -f "$here/filters/common.sed" "$1"; fi
}
bad=0
exts="stdout stderr rc"; [ "$outfile" != "-" ] && exts="$exts $outfile"
for e in $exts; do
  ref=$here/ref/$name.$e
  [ -f "$ref" ] || { echo "run-suite.sh: no reference $ref"; bad=1; continue; }
  if diff <(filt "$ref") <(filt "$outdir/$name.$e") > "$work/diff"; then
    echo "same as the GPU: $name.$e ($(wc -c < "$ref") bytes)"
  else
    echo "DIFFERENT from the GPU: $name.$e (< GPU, > baresm):"
    head -40 "$work/diff"
    bad=1
  fi
done
[ $bad = 0 ] || fail "output differs from the GPU's"
echo "run-suite.sh: ok ($name $args: the GPU's output, libcudart.so.13 from $libdir${backend:+, BARESM_BACKEND=$backend})"
