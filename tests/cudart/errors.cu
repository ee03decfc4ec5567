// The error paths of the CUDA runtime, as a GPU reports them:
//   errors config  -- <<<1, 1025>>>: cudaErrorInvalidConfiguration at the launch, not sticky
//   errors oob     -- a store far outside every allocation: the launch succeeds,
//                     cudaErrorIllegalAddress at the next synchronizing call, sticky
//   errors stream  -- the same fault in a kernel on a created stream: reported by
//                     cudaStreamSynchronize of that stream, then by every call
//   errors reset   -- a fault, then cudaDeviceReset: the device works again
//   errors misaligned -- a 4-byte store at an odd address: cudaErrorMisalignedAddress
//   errors timeout -- a kernel that outruns the watchdog (BARESM_WATCHDOG): cudaErrorLaunchTimeout
// Prints what each call returned; tests/cudart/CMakeLists.txt matches it.
#include <cstdio>
#include <cstring>

__global__ void fill(int* p, int v) { p[threadIdx.x] = v; }

__global__ void oob(int* p, int far) { p[far + threadIdx.x] = 1; }

__global__ void spin(int* p, int iters) {
  int v = threadIdx.x;
  for (int i = 0; i < iters; ++i) v = v * 3 + 1;
  p[threadIdx.x] = v;
}

__global__ void misaligned(char* p) { *(int*)(p + 4 * threadIdx.x) = 1; }

static void show(const char* what, cudaError_t e) { std::printf("%s: %s\n", what, cudaGetErrorName(e)); }

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "";
  int* d = nullptr;
  show("malloc", cudaMalloc(&d, 1024 * sizeof(int)));
  if (!std::strcmp(mode, "config")) {
    fill<<<1, 1025>>>(d, 1);
    show("launch<<<1,1025>>> peek", cudaPeekAtLastError());
    show("launch<<<1,1025>>> last", cudaGetLastError());
    show("after last", cudaGetLastError());
    fill<<<1, 32>>>(d, 5);
    show("launch<<<1,32>>>", cudaGetLastError());
    show("sync", cudaDeviceSynchronize());
    int h[32] = {};
    show("memcpy", cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    std::printf("h[31] = %d\n", h[31]);
    return 0;
  }
  if (!std::strcmp(mode, "oob")) {
    oob<<<1, 32>>>(d, 1 << 26);
    show("launch oob", cudaGetLastError());
    show("sync", cudaDeviceSynchronize());
    show("sync again (sticky)", cudaDeviceSynchronize());
    show("last", cudaGetLastError());
    int* e = nullptr;
    show("malloc after fault (sticky)", cudaMalloc(&e, 16));
    fill<<<1, 32>>>(d, 5);
    show("launch after fault (sticky)", cudaGetLastError());
    return 0;
  }
  if (!std::strcmp(mode, "stream")) {
    cudaStream_t s1, s2;
    show("stream create", cudaStreamCreate(&s1));
    show("stream create", cudaStreamCreate(&s2));
    fill<<<1, 32, 0, s2>>>(d, 3);
    show("s2 sync", cudaStreamSynchronize(s2));
    oob<<<1, 32, 0, s1>>>(d, 1 << 26);
    show("launch oob on s1", cudaGetLastError());
    show("s1 sync", cudaStreamSynchronize(s1));
    show("s2 sync after the fault", cudaStreamSynchronize(s2));
    show("device sync", cudaDeviceSynchronize());
    return 0;
  }
  if (!std::strcmp(mode, "reset")) {
    oob<<<1, 32>>>(d, 1 << 26);
    show("sync", cudaDeviceSynchronize());
    show("reset", cudaDeviceReset());
    show("last after reset", cudaGetLastError());
    int* e = nullptr;
    show("malloc after reset", cudaMalloc(&e, 32 * sizeof(int)));
    fill<<<1, 32>>>(e, 9);
    show("launch after reset", cudaGetLastError());
    int h[32] = {};
    show("memcpy after reset", cudaMemcpy(h, e, sizeof h, cudaMemcpyDeviceToHost));
    std::printf("h[0] = %d, h[31] = %d\n", h[0], h[31]);
    return 0;
  }
  if (!std::strcmp(mode, "misaligned")) {
    misaligned<<<1, 32>>>((char*)d + 1);
    show("launch misaligned", cudaGetLastError());
    show("sync", cudaDeviceSynchronize());
    show("sync again (sticky)", cudaDeviceSynchronize());
    return 0;
  }
  if (!std::strcmp(mode, "timeout")) {
    spin<<<1, 32>>>(d, 1 << 30);
    show("launch spin", cudaGetLastError());
    show("sync", cudaDeviceSynchronize());
    show("sync again (sticky)", cudaDeviceSynchronize());
    return 0;
  }
  std::printf("usage: errors config|oob|stream|reset|misaligned|timeout\n");
  return 2;
}
