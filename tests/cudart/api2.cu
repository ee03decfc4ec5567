// More of the CUDA runtime API through baresm's libcudart.so.13, in a
// program of two compilation units (two fatbinaries, two modules): pitched
// memory and 2-D copies, host functions and callbacks on streams, pointer
// attributes, cache preferences, device flags. Built by build-bins.sh.
#include <cstdio>
#include <cstring>
#include <vector>

void launch_negate(int* p, int n, cudaStream_t s);  // api2_b.cu

static int failures = 0;
#define EXPECT(cond, ...)                                                   \
  do {                                                                      \
    if (!(cond)) {                                                          \
      ++failures;                                                           \
      std::printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);           \
      std::printf(__VA_ARGS__);                                             \
      std::printf("\n");                                                    \
    }                                                                       \
  } while (0)
#define OK(call)                                                            \
  do {                                                                      \
    cudaError_t e_ = (call);                                                \
    EXPECT(e_ == cudaSuccess, "%s -> %s", #call, cudaGetErrorName(e_));     \
  } while (0)

__global__ void add_rows(int* p, size_t pitch, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y;
  if (x < w && y < h) {
    int* row = (int*)((char*)p + y * pitch);
    row[x] += 1000 * y;
  }
}

static int host_fn_calls = 0;
static void CUDART_CB host_fn(void* user) { host_fn_calls += *static_cast<int*>(user); }
static void CUDART_CB callback(cudaStream_t, cudaError_t status, void* user) {
  *static_cast<int*>(user) = status == cudaSuccess ? 7 : -1;
}

int main() {
  OK(cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync));
  unsigned flags = 0;
  OK(cudaGetDeviceFlags(&flags));
  EXPECT(flags & cudaDeviceScheduleBlockingSync, "flags %x", flags);
  OK(cudaDeviceSetCacheConfig(cudaFuncCachePreferShared));
  enum cudaFuncCache cc;
  OK(cudaDeviceGetCacheConfig(&cc));
  OK(cudaFuncSetCacheConfig(add_rows, cudaFuncCachePreferL1));

  // pitched memory, 2-D copies and memset
  const int w = 37, h = 5;
  int* d = nullptr;
  size_t pitch = 0;
  OK(cudaMallocPitch((void**)&d, &pitch, w * sizeof(int), h));
  std::printf("pitch: %zu bytes for %zu\n", pitch, w * sizeof(int));
  EXPECT(pitch >= w * sizeof(int) && pitch % 4 == 0, "pitch %zu", pitch);
  std::vector<int> host(w * h), back(w * h, 0);
  for (int i = 0; i < w * h; ++i) host[i] = i;
  OK(cudaMemset2D(d, pitch, 0xFF, w * sizeof(int), h));
  OK(cudaMemcpy2D(d, pitch, host.data(), w * sizeof(int), (w - 1) * sizeof(int), h, cudaMemcpyHostToDevice));
  add_rows<<<dim3((w + 31) / 32, h), 32>>>(d, pitch, w, h);
  OK(cudaGetLastError());
  OK(cudaMemcpy2D(back.data(), w * sizeof(int), d, pitch, w * sizeof(int), h, cudaMemcpyDeviceToHost));
  bool good = true;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) good = good && back[y * w + x] == (x < w - 1 ? host[y * w + x] : -1) + 1000 * y;
  EXPECT(good, "2-D copy, memset and kernel");
  std::printf("2d: %s\n", good ? "ok" : "WRONG");

  // a kernel of the other compilation unit, a host function and a callback on a stream
  cudaStream_t s;
  OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  int* v = nullptr;
  OK(cudaMalloc(&v, 64 * sizeof(int)));
  std::vector<int> vh(64);
  for (int i = 0; i < 64; ++i) vh[i] = i;
  OK(cudaMemcpyAsync(v, vh.data(), 64 * sizeof(int), cudaMemcpyHostToDevice, s));
  launch_negate(v, 64, s);
  OK(cudaGetLastError());
  int three = 3, cb = 0;
  OK(cudaLaunchHostFunc(s, host_fn, &three));
  OK(cudaStreamAddCallback(s, callback, &cb, 0));
  OK(cudaStreamSynchronize(s));
  EXPECT(host_fn_calls == 3 && cb == 7, "host fn %d, callback %d", host_fn_calls, cb);
  OK(cudaMemcpy(vh.data(), v, 64 * sizeof(int), cudaMemcpyDeviceToHost));
  good = true;
  for (int i = 0; i < 64; ++i) good = good && vh[i] == -i;
  EXPECT(good, "negate from the second compilation unit");
  std::printf("second unit: %s, host function %d, callback %d\n", good ? "ok" : "WRONG", host_fn_calls, cb);

  // pointer attributes
  cudaPointerAttributes a;
  OK(cudaPointerGetAttributes(&a, v + 3));
  EXPECT(a.type == cudaMemoryTypeDevice && a.devicePointer == v + 3 && a.device == 0, "device pointer");
  int local = 0;
  OK(cudaPointerGetAttributes(&a, &local));
  EXPECT(a.type == cudaMemoryTypeUnregistered, "host pointer: type %d", int(a.type));
  std::printf("pointer attributes: ok\n");

  // events on the default stream; one without timing
  cudaEvent_t t0, t1, nt;
  OK(cudaEventCreate(&t0));
  OK(cudaEventCreate(&t1));
  OK(cudaEventCreateWithFlags(&nt, cudaEventDisableTiming));
  OK(cudaEventRecord(t0));
  launch_negate(v, 64, 0);
  OK(cudaEventRecord(t1));
  OK(cudaEventRecord(nt));
  OK(cudaEventSynchronize(t1));
  OK(cudaEventSynchronize(nt));
  float ms = -1;
  OK(cudaEventElapsedTime(&ms, t0, t1));
  const cudaError_t nte = cudaEventElapsedTime(&ms, t0, nt);
  EXPECT(nte == cudaErrorInvalidResourceHandle, "elapsed time of a DisableTiming event: %s", cudaGetErrorName(nte));
  cudaGetLastError();
  std::printf("events: timed %s, untimed %s\n", ms > 0 ? "positive" : "NOT positive", cudaGetErrorName(nte));
  OK(cudaEventDestroy(t0));
  OK(cudaEventDestroy(t1));
  OK(cudaEventDestroy(nt));

  OK(cudaStreamDestroy(s));
  OK(cudaFree(v));
  OK(cudaFree(d));
  std::printf("api2: %s (%d failures)\n", failures ? "FAILED" : "PASSED", failures);
  return failures ? 1 : 0;
}
