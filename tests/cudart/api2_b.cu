// The second compilation unit of api2 (its own fatbinary and module).
__global__ void negate(int* p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = -p[i];
}

void launch_negate(int* p, int n, cudaStream_t s) { negate<<<(n + 31) / 32, 32, 0, s>>>(p, n); }
