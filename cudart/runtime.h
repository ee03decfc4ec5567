// Internals of baresm's libcudart.so.13 shared between its files (none of
// it is exported: cudart/libcudart.map exports only the CUDA names).
#pragma once

namespace baresm::cudart {

// Called by every CUDA runtime function the library does not implement
// (cudart/unsupported.cpp, generated from cudart/exports.txt): one line on
// stderr naming the function (once per function), the last error set, and
// cudaErrorNotSupported returned.
int unsupported(const char* name);

}  // namespace baresm::cudart
