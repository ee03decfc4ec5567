// The run functions of the samples (internal to samples/), registered in
// samples.cpp.
#pragma once

#include "samples/context.h"

namespace baresm::samples {

void run_vec_add(SampleContext& c);
void run_saxpy(SampleContext& c);
void run_reduce_sum(SampleContext& c);
void run_nested_divergence(SampleContext& c);
void run_matmul_tiled(SampleContext& c);
void run_histogram(SampleContext& c);
void run_prefix_scan(SampleContext& c);
void run_transpose(SampleContext& c);
void run_warp_stats(SampleContext& c);  // CUDA only
void run_local_sort(SampleContext& c);  // CUDA only

void run_fault_endless_loop(SampleContext& c);
void run_fault_barrier_deadlock(SampleContext& c);
void run_fault_out_of_window(SampleContext& c);
void run_fault_misaligned(SampleContext& c);
void run_fault_illegal_opcode(SampleContext& c);
void run_fault_trap(SampleContext& c);

}  // namespace baresm::samples
