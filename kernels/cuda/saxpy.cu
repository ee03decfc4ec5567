// saxpy: y[i] = a * x[i] + y[i] over n f32 elements (the twin of kernels/saxpy.s).
// A grid-stride loop; a*x+y is one fused multiply-add (fmaf), rounded once.
extern "C" __global__ void saxpy(float a, const float* x, float* y, unsigned n) {
  const unsigned stride = gridDim.x * blockDim.x;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) y[i] = fmaf(a, x[i], y[i]);
}
