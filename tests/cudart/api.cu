// Exercises the CUDA runtime API through baresm's libcudart.so.13: every
// memcpy direction, memset, streams, events, properties, error queries and
// a function the library does not implement. Prints one line per check;
// tests/cudart/CMakeLists.txt matches the lines. Built by build-bins.sh.
#include <cstdio>
#include <cstring>
#include <vector>

static int failures = 0;
#define EXPECT(cond, ...)                              \
  do {                                                 \
    if (!(cond)) {                                     \
      ++failures;                                      \
      std::printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
      std::printf(__VA_ARGS__);                        \
      std::printf("\n");                               \
    }                                                  \
  } while (0)
#define OK(call)                                                                         \
  do {                                                                                   \
    cudaError_t e_ = (call);                                                             \
    EXPECT(e_ == cudaSuccess, "%s -> %s", #call, cudaGetErrorName(e_));                  \
  } while (0)

__global__ void scale(int* p, int k, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = p[i] * k + i;
}

__global__ void busy(int* p, int iters) {
  int v = threadIdx.x;
  for (int i = 0; i < iters; ++i) v = v * 3 + 1;
  p[threadIdx.x] = v;
}

int main() {
  int count = -1;
  OK(cudaGetDeviceCount(&count));
  std::printf("device count: %d\n", count);
  OK(cudaSetDevice(0));
  EXPECT(cudaSetDevice(1) == cudaErrorInvalidDevice, "cudaSetDevice(1)");
  cudaGetLastError();
  int dev = -1;
  OK(cudaGetDevice(&dev));
  EXPECT(dev == 0, "device %d", dev);
  cudaDeviceProp prop;
  std::memset(&prop, 0, sizeof prop);
  OK(cudaGetDeviceProperties(&prop, 0));
  std::printf("props: name=%s cc=%d.%d warp=%d maxThreadsPerBlock=%d sharedMemPerBlock=%zu regsPerBlock=%d mem=%zu\n",
              prop.name, prop.major, prop.minor, prop.warpSize, prop.maxThreadsPerBlock, prop.sharedMemPerBlock,
              prop.regsPerBlock, prop.totalGlobalMem);
  EXPECT(prop.warpSize == 32 && prop.maxThreadsPerBlock > 0 && prop.totalGlobalMem > 0, "props");

  // error strings
  std::printf("names: %s / %s / %s\n", cudaGetErrorName(cudaSuccess), cudaGetErrorName(cudaErrorIllegalAddress),
              cudaGetErrorString(cudaErrorInvalidConfiguration));

  // memory, every direction
  const int n = 300;
  std::vector<int> h(n), back(n, 0), h2(n, 7);
  for (int i = 0; i < n; ++i) h[i] = i * 11 - 5;
  int *d1 = nullptr, *d2 = nullptr;
  OK(cudaMalloc(&d1, n * sizeof(int)));
  OK(cudaMalloc(&d2, n * sizeof(int)));
  OK(cudaMemcpy(d1, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  OK(cudaMemcpy(d2, d1, n * sizeof(int), cudaMemcpyDeviceToDevice));
  OK(cudaMemcpy(back.data(), d2, n * sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT(back == h, "HtoD -> DtoD -> DtoH round trip");
  OK(cudaMemcpy(h2.data(), h.data(), n * sizeof(int), cudaMemcpyHostToHost));
  EXPECT(h2 == h, "HtoH");
  OK(cudaMemset(d2, 0xA5, n * sizeof(int)));
  OK(cudaMemcpy(back.data(), d2, n * sizeof(int), cudaMemcpyDefault));  // direction from the pointers
  EXPECT(back[0] == int(0xA5A5A5A5) && back[n - 1] == int(0xA5A5A5A5), "memset: %08x", back[0]);
  OK(cudaMemcpy(d2 + 10, h.data(), 4 * sizeof(int), cudaMemcpyDefault));
  OK(cudaMemcpy(back.data(), d2, n * sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT(back[9] == int(0xA5A5A5A5) && back[10] == h[0] && back[13] == h[3] && back[14] == int(0xA5A5A5A5),
         "offset copy");
  EXPECT(cudaMemcpy(d1, h.data(), (n + 1) * sizeof(int), cudaMemcpyHostToDevice) == cudaErrorInvalidValue,
         "copy past the allocation");
  EXPECT(cudaGetLastError() == cudaErrorInvalidValue, "last error");
  EXPECT(cudaGetLastError() == cudaSuccess, "last error cleared");
  size_t free_b = 0, total_b = 0;
  OK(cudaMemGetInfo(&free_b, &total_b));
  EXPECT(free_b > 0 && free_b <= total_b, "meminfo %zu %zu", free_b, total_b);

  // a kernel on a stream, timed with events
  cudaStream_t s;
  OK(cudaStreamCreate(&s));
  cudaEvent_t e0, e1;
  OK(cudaEventCreate(&e0));
  OK(cudaEventCreate(&e1));
  OK(cudaEventRecord(e0, s));
  scale<<<(n + 63) / 64, 64, 0, s>>>(d1, 3, n);
  OK(cudaGetLastError());
  busy<<<1, 32, 0, s>>>(d2, 200);
  OK(cudaEventRecord(e1, s));
  OK(cudaStreamSynchronize(s));
  OK(cudaEventSynchronize(e1));
  OK(cudaEventQuery(e1));
  OK(cudaStreamQuery(s));
  float ms = -1;
  OK(cudaEventElapsedTime(&ms, e0, e1));
  std::printf("elapsed: %s\n", ms > 0 ? "positive" : "NOT positive");
  EXPECT(ms > 0, "elapsed %f ms", ms);
  OK(cudaMemcpy(back.data(), d1, n * sizeof(int), cudaMemcpyDeviceToHost));
  bool good = true;
  for (int i = 0; i < n; ++i) good = good && back[i] == h[i] * 3 + i;
  EXPECT(good, "scale kernel result");
  OK(cudaMemcpy(back.data(), d2, 32 * sizeof(int), cudaMemcpyDeviceToHost));
  for (int t = 0; t < 32; ++t) {
    int v = t;
    for (int i = 0; i < 200; ++i) v = v * 3 + 1;
    good = good && back[t] == v;
  }
  EXPECT(good, "busy kernel result");
  OK(cudaEventDestroy(e0));
  OK(cudaEventDestroy(e1));
  OK(cudaStreamDestroy(s));

  cudaFuncAttributes fa;
  OK(cudaFuncGetAttributes(&fa, scale));
  std::printf("scale: %d registers, %zu bytes shared, ptx %d\n", fa.numRegs, fa.sharedSizeBytes, fa.ptxVersion);
  EXPECT(fa.numRegs > 0 && fa.maxThreadsPerBlock > 0, "attributes");
  int blocks = 0;
  OK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, scale, 64, 0));
  EXPECT(blocks > 0, "occupancy %d", blocks);
  std::printf("occupancy of scale at 64 threads: %d blocks\n", blocks);

  // the default stream, no explicit synchronisation: cudaMemcpy waits
  scale<<<(n + 63) / 64, 64>>>(d1, 0, n);
  OK(cudaMemcpy(back.data(), d1, n * sizeof(int), cudaMemcpyDeviceToHost));
  good = true;
  for (int i = 0; i < n; ++i) good = good && back[i] == i;
  EXPECT(good, "default-stream ordering");

  // a function the library does not implement fails loudly
  cudaGraph_t g;
  cudaError_t ge = cudaGraphCreate(&g, 0);
  std::printf("cudaGraphCreate: %s\n", cudaGetErrorName(ge));
  EXPECT(ge == cudaErrorNotSupported, "unimplemented -> %s", cudaGetErrorName(ge));
  cudaGetLastError();

  OK(cudaFree(d1));
  OK(cudaFree(d2));
  EXPECT(cudaFree(d1) == cudaErrorInvalidValue, "double free");
  cudaGetLastError();
  OK(cudaDeviceSynchronize());
  std::printf("api: %s (%d failures)\n", failures ? "FAILED" : "PASSED", failures);
  return failures ? 1 : 0;
}
