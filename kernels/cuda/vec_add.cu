// vec_add: c[i] = a[i] + b[i] over n f32 elements (the twin of kernels/vec_add.s).
// One thread per element; the CTA index is linearised over a 1D or 2D grid
// (ctaid.y * nctaid.x + ctaid.x), threads past n leave at once.
extern "C" __global__ void vec_add(const float* a, const float* b, float* c, unsigned n) {
  const unsigned cta = blockIdx.y * gridDim.x + blockIdx.x;
  const unsigned i = cta * blockDim.x + threadIdx.x;
  if (i >= n) return;
  c[i] = a[i] + b[i];
}
