// A kernel with a PTX construct baresm's front end does not translate (an
// indirect call through a function pointer: docs/ptx.md "Device functions
// and calls"): the launch is cudaErrorInvalidPtx, with the front end's
// diagnostics (PTX line and column) on stderr, and a launch error is not
// sticky: host calls keep working.
#include <cstdio>

typedef int (*op_t)(int);
__device__ __noinline__ int twice(int x) { return 2 * x; }
__device__ __noinline__ int thrice(int x) { return 3 * x + 1; }

__global__ void indirect(int* p, int k) {
  const op_t f = (p[threadIdx.x] & k) ? twice : thrice;
  p[threadIdx.x] = f(p[threadIdx.x]);
}

int main() {
  int* d = nullptr;
  std::printf("malloc: %s\n", cudaGetErrorName(cudaMalloc(&d, 32 * sizeof(int))));
  indirect<<<1, 32>>>(d, 1);
  std::printf("launch: %s\n", cudaGetErrorName(cudaGetLastError()));
  std::printf("sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  std::printf("memset: %s\n", cudaGetErrorName(cudaMemset(d, 0, 32 * sizeof(int))));
  return 0;
}
