// An ordinary CUDA program, nothing baresm-specific in it: built with
// `nvcc -cudart shared`, it runs on baresm through the project's
// libcudart.so.13 (docs/cuda-runtime.md):
//   LD_LIBRARY_PATH=<build>/cudart ./vec_add
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                  \
  do {                                                                               \
    cudaError_t err_ = (call);                                                       \
    if (err_ != cudaSuccess) {                                                       \
      std::fprintf(stderr, "%s:%d: %s: %s (%s)\n", __FILE__, __LINE__, #call,        \
                   cudaGetErrorName(err_), cudaGetErrorString(err_));                \
      return 1;                                                                      \
    }                                                                                \
  } while (0)

__global__ void vec_add(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1000;
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s, %d SM, warp %d, %d threads/block, %zu bytes global memory\n", prop.name,
              prop.multiProcessorCount, prop.warpSize, prop.maxThreadsPerBlock, prop.totalGlobalMem);

  std::vector<float> a(n), b(n), c(n, -1.0f);
  for (int i = 0; i < n; ++i) {
    a[i] = 0.5f * i;
    b[i] = 1000.0f - 2.0f * i;
  }
  float *da, *db, *dc;
  CHECK(cudaMalloc(&da, n * sizeof(float)));
  CHECK(cudaMalloc(&db, n * sizeof(float)));
  CHECK(cudaMalloc(&dc, n * sizeof(float)));
  CHECK(cudaMemcpy(da, a.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, b.data(), n * sizeof(float), cudaMemcpyHostToDevice));

  const int block = 128, grid = (n + block - 1) / block;
  vec_add<<<grid, block>>>(da, db, dc, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(c.data(), dc, n * sizeof(float), cudaMemcpyDeviceToHost));

  int bad = 0;
  for (int i = 0; i < n; ++i)
    if (c[i] != a[i] + b[i]) {
      if (bad < 5) std::printf("mismatch at %d: %g != %g\n", i, c[i], a[i] + b[i]);
      ++bad;
    }
  CHECK(cudaFree(da));
  CHECK(cudaFree(db));
  CHECK(cudaFree(dc));
  std::printf("vec_add: n=%d grid=%d block=%d: %s\n", n, grid, block, bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
