// A kernel with a PTX construct baresm's front end does not translate yet
// (a 64-bit division: docs/ptx.md): the launch is cudaErrorInvalidPtx, with
// the front end's diagnostics (PTX line and column) on stderr, and a
// launch error is not sticky: host calls keep working.
#include <cstdio>

__global__ void div64(long long* p, long long d) { p[threadIdx.x] = p[threadIdx.x] / d; }

int main() {
  long long* d = nullptr;
  std::printf("malloc: %s\n", cudaGetErrorName(cudaMalloc(&d, 32 * sizeof(long long))));
  div64<<<1, 32>>>(d, 7);
  std::printf("launch: %s\n", cudaGetErrorName(cudaGetLastError()));
  std::printf("sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  std::printf("memset: %s\n", cudaGetErrorName(cudaMemset(d, 0, 32 * sizeof(long long))));
  return 0;
}
