// prefix_scan: inclusive i32 scan (wrapping), the twin of
// kernels/prefix_scan.s. scan_block scans each CTA's ntid elements (a
// shuffle scan inside each warp, the warp totals through shared memory) and
// writes the CTA total to block_sums[ctaid]; the host scans block_sums the
// same way, recursively; scan_add adds the scanned total of the CTAs before
// to every element of CTAs 1, 2, ... Elements past n count as 0. ntid.x up
// to 1024; a partial last warp is fine (shuffles up only read lower lanes).
extern "C" __global__ void scan_block(const unsigned* in, unsigned* out, unsigned* block_sums, unsigned n) {
  __shared__ unsigned wsum[32];
  const unsigned tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const unsigned i = blockIdx.x * blockDim.x + tid;
  unsigned x = i < n ? in[i] : 0;
#pragma unroll
  for (unsigned d = 1; d < 32; d <<= 1) {
    const unsigned y = __shfl_up_sync(0xffffffffu, x, d);
    if (lane >= d) x += y;
  }
  if (lane == 31 || tid == blockDim.x - 1) wsum[warp] = x;
  __syncthreads();
  if (warp == 0) {
    const unsigned nwarps = (blockDim.x + 31) >> 5;
    unsigned s = lane < nwarps ? wsum[lane] : 0;
#pragma unroll
    for (unsigned d = 1; d < 32; d <<= 1) {
      const unsigned y = __shfl_up_sync(0xffffffffu, s, d);
      if (lane >= d) s += y;
    }
    if (lane < nwarps) wsum[lane] = s;
  }
  __syncthreads();
  if (warp != 0) x += wsum[warp - 1];
  if (i < n) out[i] = x;
  if (tid == blockDim.x - 1) block_sums[blockIdx.x] = x;
}

extern "C" __global__ void scan_add(unsigned* data, const unsigned* offsets, unsigned n) {
  if (blockIdx.x == 0) return;
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  data[i] += offsets[blockIdx.x - 1];
}
