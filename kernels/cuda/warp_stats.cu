// warp_stats: what hand-written kernels do not exercise: byte loads, a
// warp-shuffle reduction (__shfl_xor_sync), a ballot counted with __popc,
// and 64-bit index arithmetic (size_t: mul.wide, add.s64; the warp index
// is computed in 32 bits: nvcc would turn i >> 5 on a size_t into a 64-bit
// shift right, which needs the high word the PTX front end does not keep
// yet). For each warp w of the grid (32
// consecutive bytes of in, bytes past n count as 0):
//   sums[w] = the sum of its bytes, odd[w] = how many of them are odd.
// A CUDA-only sample: it has no assembly twin. Blocks are whole warps.
#include <cstddef>

extern "C" __global__ void warp_stats(const unsigned char* in, unsigned* sums, unsigned* odd, unsigned n) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const bool live = unsigned(i) < n;
  unsigned v = live ? in[i] : 0;
  const unsigned odd_lanes = __ballot_sync(0xffffffffu, live && (v & 1));
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  if ((threadIdx.x & 31) == 0) {
    const unsigned w = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    sums[w] = v;
    odd[w] = __popc(odd_lanes);
  }
}
