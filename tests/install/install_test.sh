#!/bin/sh
# The install as a user sees it (README.md "Install and use from your own
# program"): install this build into a fresh prefix, build
# examples/hello_device against that prefix alone -- with CMake's package,
# then with pkg-config -- and run it on the functional model and, when the
# co-simulation is installed, on the RTL. Any failing step fails the test.
#   install_test.sh <build dir> <source dir>
set -eu
build=$1
src=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/baresm-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix

step() { echo "== $*"; }

step "cmake --install $build --prefix $prefix"
cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" || { cat "$tmp/install.log"; exit 1; }
for f in bin/baresm share/baresm/kernels/vec_add.s include/baresm/host_driver/driver.h include/baresm/isa/assembler.h \
         lib/cmake/baresm/baresmConfig.cmake lib/pkgconfig/baresm.pc lib/libbaresm_driver.a; do
  [ -e "$prefix/$f" ] || { echo "missing after install: $f"; exit 1; }
done
# Private headers (the driver's internals shared by its .cpp files) stay out.
if [ -n "$(find "$prefix/include/baresm" -name '*_impl.h')" ]; then
  echo "private headers installed:"; find "$prefix/include/baresm" -name '*_impl.h'; exit 1
fi
# An installed package must not point back into the checkout or the build.
if grep -n -e "$src/" -e "$build/" "$prefix"/lib/cmake/baresm/*.cmake "$prefix"/lib/pkgconfig/*.pc; then
  echo "the installed package refers to the source or build tree (above)"
  exit 1
fi
"$prefix/bin/baresm" info --backend model >/dev/null
"$prefix/bin/baresm" run vec_add --backend model --kernels "$prefix/share/baresm/kernels" >"$tmp/run.log" ||
  { cat "$tmp/run.log"; exit 1; }

step "every installed driver/toolchain header compiles from the prefix alone"
# One translation unit: an include that was not installed fails here.
(cd "$prefix/include/baresm" && find contract isa cq_model host_driver -name '*.h' | sort) |
  sed 's/.*/#include "&"/' >"$tmp/all_headers.cpp"
[ "$(wc -l <"$tmp/all_headers.cpp")" -gt 20 ] || { echo "too few installed headers"; exit 1; }
c++ -std=c++17 -fsyntax-only -I"$prefix/include/baresm" "$tmp/all_headers.cpp"

step "configure + build examples/hello_device against $prefix"
launcher=""
command -v ccache >/dev/null && launcher=-DCMAKE_CXX_COMPILER_LAUNCHER=ccache
cmake -S "$src/examples/hello_device" -B "$tmp/build" -DCMAKE_PREFIX_PATH="$prefix" $launcher >"$tmp/configure.log" ||
  { cat "$tmp/configure.log"; exit 1; }
cmake --build "$tmp/build" >"$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; exit 1; }

step "hello_device --backend model"
"$tmp/build/hello_device" --backend model
if [ -e "$prefix/include/baresm/sim/systemc/sc_transport.h" ]; then
  step "hello_device --backend rtl"
  "$tmp/build/hello_device" --backend rtl
fi

step "pkg-config build (driver + isa)"
PKG_CONFIG_PATH=$prefix/lib/pkgconfig
export PKG_CONFIG_PATH
# shellcheck disable=SC2046
c++ -std=c++17 -o "$tmp/hello_pc" "$src/examples/hello_device/hello_device.cpp" $(pkg-config --cflags --libs baresm)
"$tmp/hello_pc" --backend model
if [ -e "$prefix/lib/pkgconfig/baresm-cosim.pc" ]; then
  step "pkg-config build (baresm-cosim)"
  # shellcheck disable=SC2046
  c++ -std=c++17 -DHELLO_HAVE_RTL=1 -o "$tmp/hello_pc_rtl" "$src/examples/hello_device/hello_device.cpp" \
    $(pkg-config --cflags --libs baresm-cosim)
  "$tmp/hello_pc_rtl" --backend rtl
fi
