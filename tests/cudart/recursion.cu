// Recursive device functions (issue 35, docs/ptx.md "Recursion"): nvcc keeps
// them as .func and call, and baresm's PTX front end emits each once with a
// per-thread call stack in local memory. Every thread recurses to its own
// depth, so the threads of a warp diverge inside the recursion: factorial
// (64-bit result), fibonacci (two calls per activation), mutual recursion
// (three functions in one cycle), a recursive function with a local array
// live across its call, 64-bit and struct parameters and a struct result,
// recursion inside a divergent branch and from two call sites of one
// kernel, one cycle's recursion inside another's, a float and a short live
// across a call. The results are checked against the host's; every output word is
// hashed. `recursion overflow` recurses past the call stack (a fault, not a
// wrong answer).
#include <cstdint>
#include <cstdio>
#include <cstring>

#define CHECK(call)                                         \
  do {                                                      \
    cudaError_t e_ = (call);                                \
    if (e_ != cudaSuccess) {                                \
      std::printf("%s: %s\n", #call, cudaGetErrorName(e_)); \
      return 1;                                             \
    }                                                       \
  } while (0)

#define HD __host__ __device__ __noinline__

// Not a tail call with an accumulator (LLVM would make that a loop).
HD unsigned long long fact(int n) { return n <= 1 ? 1ull : fact(n - 1) * (unsigned)n + (unsigned)(n & 1); }

HD int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

// Three functions in one cycle, each changing the value on its way.
HD int ping(int n, int acc);
HD int pong(int n, int acc) { return n <= 0 ? acc : ping(n - 1, acc * 3 + n) ^ 5; }
HD int pang(int n, int acc) { return n <= 0 ? -acc : pong(n - 2, acc + 7) + 1; }
HD int ping(int n, int acc) { return n <= 0 ? acc + 1 : ((n & 1) ? pong(n - 1, acc) : pang(n - 1, acc - n)); }

// A local array indexed by data, filled before the call and read after it.
HD int with_array(int n, unsigned seed) {
  int a[8];
  for (int i = 0; i < 8; ++i) a[i] = (int)(seed * (unsigned)(i + 1)) ^ n;
  int s = a[seed & 7];
  if (n > 0) s += with_array(n - 1, (unsigned)a[(n + seed) & 7] * 2654435761u);
  for (int i = 0; i < 8; ++i) s ^= a[(s + i) & 7] + i;
  return s + fib(n & 7);  // another cycle's recursion inside this one
}

// A float and a short live across the call.
HD float fpow(float x, int n) { return n == 0 ? 1.0f : fpow(x * 1.0625f, n - 1) * x; }
HD short twist(short v, int n) { return n == 0 ? v : (short)(twist((short)(v * 3 + 1), n - 1) ^ v); }

struct Acc {
  int a;
  long long b;
};

// 64-bit and struct parameters, a struct result.
HD Acc fold(Acc s, long long x, int n) {
  if (n <= 0) return Acc{s.a + 1, s.b ^ x};
  Acc t = fold(Acc{s.a * 3 + n, s.b + x}, x * 5 + n, n - 1);
  return Acc{t.a - s.a, t.b + s.b * 7};
}

__global__ void k_fact(unsigned long long* out) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = fact(t % 21);
}
__global__ void k_fib(int* out) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = fib((t * 7) % 13);
}
__global__ void k_mutual(int* out) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = ping(t % 19, t);
}
__global__ void k_array(int* out) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = with_array(t % 9, 0x9e3779b9u * (unsigned)(t + 1));
}
__global__ void k_fold(long long* out) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  Acc r = fold(Acc{t, (long long)t << 33}, 0x123456789abcdefll * (t + 1), t % 11);
  out[2 * t] = r.a;
  out[2 * t + 1] = r.b;
}
// Recursion in one side of a divergent branch, and two call sites of fib in
// one kernel (each its own copy of the recursion).
__global__ void k_diverge(int* out) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  int r = -1;
  if (t % 3 == 0) r = fib(t % 11);
  else if (t % 3 == 1) r = fib(t % 7) * 100;
  out[t] = r;
}
__global__ void k_narrow(float* f, short* h) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  f[t] = fpow(1.0f + t / 64.0f, t % 10);
  h[t] = twist((short)(t * 977), t % 12);
}
__global__ void k_deep(int* out, int n) { out[threadIdx.x] = fib(n + (int)threadIdx.x); }

template <typename T>
static int compare(const char* name, const T* got, const T* want, int n) {
  int bad = 0;
  for (int i = 0; i < n; ++i)
    if (got[i] != want[i]) {
      if (bad < 4) std::printf("%s: [%d] = %lld, host %lld\n", name, i, (long long)got[i], (long long)want[i]);
      ++bad;
    }
  std::printf("%-8s %d of %d as the host computes them\n", name, n - bad, n);
  return bad;
}

static uint64_t fnv(const void* p, size_t n, uint64_t h = 1469598103934665603ull) {
  const unsigned char* b = static_cast<const unsigned char*>(p);
  for (size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 1099511628211ull;
  return h;
}

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "overflow") == 0) {
    int* d = nullptr;
    CHECK(cudaMalloc(&d, 32 * sizeof(int)));
    k_deep<<<1, 32>>>(d, 200000);
    std::printf("launch deep: %s\n", cudaGetErrorName(cudaGetLastError()));
    std::printf("sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
  }
  const int blocks = 2, threads = 48, n = blocks * threads;
  int total = 0;
  uint64_t h = 1469598103934665603ull;

  unsigned long long *dfact, hfact[96], wfact[96];
  CHECK(cudaMalloc(&dfact, sizeof hfact));
  k_fact<<<blocks, threads>>>(dfact);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(hfact, dfact, sizeof hfact, cudaMemcpyDeviceToHost));
  for (int t = 0; t < n; ++t) wfact[t] = fact(t % 21);
  total += compare("fact", hfact, wfact, n);
  h = fnv(hfact, sizeof hfact, h);

  int *dint, hint[96], want[96];
  CHECK(cudaMalloc(&dint, sizeof hint));
  k_fib<<<blocks, threads>>>(dint);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(hint, dint, sizeof hint, cudaMemcpyDeviceToHost));
  for (int t = 0; t < n; ++t) want[t] = fib((t * 7) % 13);
  total += compare("fib", hint, want, n);
  h = fnv(hint, sizeof hint, h);

  k_mutual<<<blocks, threads>>>(dint);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(hint, dint, sizeof hint, cudaMemcpyDeviceToHost));
  for (int t = 0; t < n; ++t) want[t] = ping(t % 19, t);
  total += compare("mutual", hint, want, n);
  h = fnv(hint, sizeof hint, h);

  k_array<<<blocks, threads>>>(dint);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(hint, dint, sizeof hint, cudaMemcpyDeviceToHost));
  for (int t = 0; t < n; ++t) want[t] = with_array(t % 9, 0x9e3779b9u * (unsigned)(t + 1));
  total += compare("array", hint, want, n);
  h = fnv(hint, sizeof hint, h);

  long long *dfold, hfold[192], wfold[192];
  CHECK(cudaMalloc(&dfold, sizeof hfold));
  k_fold<<<blocks, threads>>>(dfold);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(hfold, dfold, sizeof hfold, cudaMemcpyDeviceToHost));
  for (int t = 0; t < n; ++t) {
    Acc r = fold(Acc{t, (long long)t << 33}, 0x123456789abcdefll * (t + 1), t % 11);
    wfold[2 * t] = r.a;
    wfold[2 * t + 1] = r.b;
  }
  total += compare("fold", hfold, wfold, 2 * n);
  h = fnv(hfold, sizeof hfold, h);

  k_diverge<<<blocks, threads>>>(dint);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(hint, dint, sizeof hint, cudaMemcpyDeviceToHost));
  for (int t = 0; t < n; ++t) want[t] = t % 3 == 0 ? fib(t % 11) : t % 3 == 1 ? fib(t % 7) * 100 : -1;
  total += compare("diverge", hint, want, n);
  h = fnv(hint, sizeof hint, h);

  float *dflt, hflt[96], wflt[96];
  short *dsh, hsh[96], wsh[96];
  CHECK(cudaMalloc(&dflt, sizeof hflt));
  CHECK(cudaMalloc(&dsh, sizeof hsh));
  k_narrow<<<blocks, threads>>>(dflt, dsh);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(hflt, dflt, sizeof hflt, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hsh, dsh, sizeof hsh, cudaMemcpyDeviceToHost));
  for (int t = 0; t < n; ++t) {
    wflt[t] = fpow(1.0f + t / 64.0f, t % 10);
    wsh[t] = twist((short)(t * 977), t % 12);
  }
  int fbad = 0;
  for (int t = 0; t < n; ++t) fbad += std::memcmp(&hflt[t], &wflt[t], 4) != 0;
  std::printf("%-8s %d of %d as the host computes them (bit for bit)\n", "float", n - fbad, n);
  total += fbad;
  total += compare("short", hsh, wsh, n);
  h = fnv(hflt, sizeof hflt, h);
  h = fnv(hsh, sizeof hsh, h);

  std::printf("samples: fact[20]=%llu diverge[3]=%d fold[7]=%d,%lld\n", hfact[20], hint[3], (int)hfold[14],
              hfold[15]);
  std::printf("fnv1a64 %016llx\n", (unsigned long long)h);
  std::printf("recursion: %s\n", total ? "FAILED" : "PASSED");
  return total ? 1 : 0;
}
