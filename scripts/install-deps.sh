#!/usr/bin/env bash
# Installs the Debian packages baresm needs. Idempotent: does nothing when
# every package is already present. Run as root (CI and the dev machines are).
set -euo pipefail

packages=(
  build-essential cmake ccache pkg-config
  libgtest-dev googletest libbenchmark-dev
  libboost-program-options-dev
  libzstd-dev                # cudart: nvcc 13 compresses the fatbinary's PTX with zstd
  verilator libsystemc-dev
  clang libclang-rt-14-dev   # scripts/fuzz.sh: clang++ and the libFuzzer runtime; fw/build.sh: clang for rv32i
  lld llvm                   # fw/build.sh: ld.lld and llvm-objcopy (the control core's firmware images)
  yosys iverilog z3 cvc5
  nextpnr-ice40 fpga-icestorm
  tcl                        # tests/fpga: scripts/vivado-arty.tcl's dry run under tclsh
  gtkwave xvfb               # scripts/view-wave.sh; test_cosim_layout runs GTKWave under xvfb-run
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
