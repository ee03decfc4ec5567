// The source of recursion.ptx (nvcc -O3 -arch=sm_90 -ptx recursion.cu):
// recursive device functions whose depth differs lane by lane
// (PtxFeature.RecursionUnderDivergence, docs/ptx.md "Recursion").
__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
// Not a tail call with an accumulator (nvcc would make that a loop).
__device__ __noinline__ unsigned deep(unsigned n) { return n == 0 ? 1u : deep(n - 1) * 3u + n; }

extern "C" __global__ void recursion(const unsigned* in, unsigned* out) {
  const unsigned t = threadIdx.x;
  out[2 * t] = fib(in[t] % 16);
  out[2 * t + 1] = deep(in[32 + t] % 120);
}
