#!/bin/bash
# Checks the committed binaries (bin/) and PTX (ptx/) of the suite:
#  - always: the PTX each binary embeds (FATBIN_PTX, comments and white space
#    aside) is the committed ptx/NAME.ptx;
#  - with nvcc: ptx/NAME.ptx is what nvcc makes of the sources now, with the
#    flags of programs.txt (else run build-bins.sh).
#   check-bins.sh FATBIN_PTX [NVCC]
set -u
tool=$1
NVCC=${2:-${NVCC:-/usr/local/cuda/bin/nvcc}}
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
have_nvcc=0; command -v "$NVCC" >/dev/null 2>&1 && have_nvcc=1
norm() { sed -E 's|//.*||; s/[[:space:]]+/ /g; s/^ //; s/ $//' "$1"; }
stale=0
while IFS='|' read -r name srcs flags args out status; do
  if [ ! -f "ptx/$name.ptx" ] || ! "$tool" "bin/$name" > "$tmp/have.ptx"; then
    echo "MISSING: bin/$name or ptx/$name.ptx"; stale=1; continue
  fi
  if ! cmp -s <(norm "ptx/$name.ptx") <(norm "$tmp/have.ptx"); then
    echo "STALE: bin/$name does not embed ptx/$name.ptx (run build-bins.sh)"; stale=1; continue
  fi
  if [ $have_nvcc = 1 ]; then
    : > "$tmp/want.ptx"
    for f in $srcs; do
      case $f in *.cu) "$NVCC" -O3 -arch=sm_90 $flags -ptx "$f" -o - >> "$tmp/want.ptx" 2>/dev/null || { echo "nvcc failed on $f"; stale=1; } ;; esac
    done
    if ! cmp -s <(norm "ptx/$name.ptx") <(norm "$tmp/want.ptx"); then
      echo "STALE: ptx/$name.ptx is not nvcc's PTX of $srcs now (run build-bins.sh $name)"; stale=1; continue
    fi
    echo "current: bin/$name, ptx/$name.ptx (embedded; nvcc of the sources)"
  else
    echo "current: bin/$name embeds ptx/$name.ptx (no nvcc: the sources not recompiled)"
  fi
done < <(grep -v '^#' programs.txt)
exit $stale
