// A kernel with a PTX construct baresm's front end does not translate (a
// recursive device function: calls are inlined, docs/ptx.md "Device
// functions and calls"): the launch is cudaErrorInvalidPtx, with the front
// end's diagnostics (PTX line and column, the chain of calls) on stderr,
// and a launch error is not sticky: host calls keep working.
#include <cstdio>

__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

__global__ void recurse(int* p) { p[threadIdx.x] = fib(p[threadIdx.x] & 15); }

int main() {
  int* d = nullptr;
  std::printf("malloc: %s\n", cudaGetErrorName(cudaMalloc(&d, 32 * sizeof(int))));
  recurse<<<1, 32>>>(d);
  std::printf("launch: %s\n", cudaGetErrorName(cudaGetLastError()));
  std::printf("sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  std::printf("memset: %s\n", cudaGetErrorName(cudaMemset(d, 0, 32 * sizeof(int))));
  return 0;
}
