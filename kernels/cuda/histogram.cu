// histogram: hist[v & 63] += 1 for every v in data[0..n), 64 u32 bins (the
// twin of kernels/histogram.s). Per-CTA bins in shared memory counted with
// shared atomics, then each non-empty bin added to the global histogram with
// one global atomic. The host zeroes hist before the launch.
extern "C" __global__ void histogram(const unsigned* data, unsigned* hist, unsigned n) {
  __shared__ unsigned bins[64];
  for (unsigned b = threadIdx.x; b < 64; b += blockDim.x) bins[b] = 0;
  __syncthreads();
  const unsigned stride = gridDim.x * blockDim.x;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) atomicAdd(&bins[data[i] & 63], 1u);
  __syncthreads();
  for (unsigned b = threadIdx.x; b < 64; b += blockDim.x) {
    const unsigned v = bins[b];
    if (v != 0) atomicAdd(&hist[b], v);
  }
}
