// reduce_sum: out[ctaid.x] = sum of in[base .. base + 2*ntid), i32 wrapping
// (the twin of kernels/reduce_sum.s). Each thread adds two elements ntid
// apart, then a shared-memory tree with __syncthreads() after every step;
// thread 0 writes the CTA's total. ntid.x a power of two, at most 256.
extern "C" __global__ void reduce_sum(const unsigned* in, unsigned* out, unsigned n) {
  __shared__ unsigned sdata[256];
  const unsigned tid = threadIdx.x;
  const unsigned i = blockIdx.x * 2 * blockDim.x + tid;
  unsigned sum = 0;
  if (i < n) sum = in[i];
  if (i + blockDim.x < n) sum += in[i + blockDim.x];
  sdata[tid] = sum;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s != 0; s >>= 1) {
    if (tid < s) {
      sum += sdata[tid + s];
      sdata[tid] = sum;
    }
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sum;
}
