// 64-bit integers as values (issue 35): long long / unsigned long long /
// size_t arithmetic kept in 64 bits, as nvcc writes it -- carries between
// the words, 64-bit multiplies and shifts (a hash), signed and unsigned
// compares, min/max, conversions, 64-bit loads and stores (global, shared),
// __popcll/__clzll, 64-bit atomicAdd, and the division of a 32-bit value by
// a constant that nvcc turns into a 64-bit multiply and shift. Every result
// is checked against the host's; the lines printed are the same on an
// NVIDIA GPU (tests/cudart/ref/int64.gpu.txt).
#include <climits>
#include <cstdint>
#include <cstdio>

#define CHECK(call)                                                 \
  do {                                                              \
    cudaError_t e_ = (call);                                        \
    if (e_ != cudaSuccess) {                                        \
      std::printf("%s: %s\n", #call, cudaGetErrorName(e_));         \
      return 1;                                                     \
    }                                                               \
  } while (0)

typedef unsigned long long u64;
typedef long long s64;

// splitmix64: 64-bit xor-shifts and multiplies
__host__ __device__ u64 mix(u64 x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// The per-element work: every operation on 64-bit values the kernel uses.
__host__ __device__ void work(unsigned i, const s64* a, u64* h, s64* s, unsigned* q) {
  const u64 x = mix(i);
  h[i] = x;
  const s64 v = a[i];
  s64 r = v * 3 - (s64)i * 1000003ll;            // signed multiply, carries across the words
  r = r < 0 ? -r : r;                           // compare with 0, negate
  r = r > 5000000000ll ? r >> 3 : r << 2;       // 64-bit compare with a constant above 2^32; shifts
  r += (s64)(int)(x & 0xffff) - 32768;          // sign-extended 32-bit value
  s[i] = r ^ (s64)(x >> 40);
  // 32-bit division and remainder by constants (mul.wide + shr.u64), and a
  // 64-bit value's popcount and leading zeros
  q[i] = i / 7 + (i % 5) * 1000 + (unsigned)(x % 10) * 100000u + __builtin_popcountll(x) * 7 +
         (unsigned)__builtin_clzll(x | 1);
}

__device__ unsigned dev_popc_clz(u64 x) { return __popcll(x) * 7 + __clzll(x | 1); }

__global__ void k64(const s64* a, u64* h, s64* s, unsigned* q, u64* sum, s64* mn, s64* mx, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    const unsigned ui = (unsigned)i;
    const u64 x = mix(ui);
    h[i] = x;
    const s64 v = a[i];
    s64 r = v * 3 - (s64)ui * 1000003ll;
    r = r < 0 ? -r : r;
    r = r > 5000000000ll ? r >> 3 : r << 2;
    r += (s64)(int)(x & 0xffff) - 32768;
    s[i] = r ^ (s64)(x >> 40);
    q[i] = ui / 7 + (ui % 5) * 1000 + (unsigned)(x % 10) * 100000u + dev_popc_clz(x);
    atomicAdd(sum, x >> 8);
  }
  // a block-wide min and max of signed 64-bit values through shared memory
  __shared__ s64 smin[128], smax[128];
  const unsigned t = threadIdx.x;
  s64 lo = LLONG_MAX, hi = LLONG_MIN;
  for (size_t i = t; i < n; i += blockDim.x) {
    lo = min(lo, a[i]);
    hi = max(hi, a[i]);
  }
  smin[t] = lo;
  smax[t] = hi;
  __syncthreads();
  for (unsigned w = blockDim.x / 2; w > 0; w /= 2) {
    if (t < w) {
      smin[t] = min(smin[t], smin[t + w]);
      smax[t] = max(smax[t], smax[t + w]);
    }
    __syncthreads();
  }
  if (t == 0 && blockIdx.x == 0) {
    *mn = smin[0];
    *mx = smax[0];
  }
}

int main() {
  const size_t n = 1000;
  static s64 a[n];
  for (size_t i = 0; i < n; ++i) a[i] = (s64)mix(i * 7919) >> (i % 23);  // both signs, every magnitude
  s64 *d_a, *d_s, *d_mn, *d_mx;
  u64 *d_h, *d_sum;
  unsigned* d_q;
  CHECK(cudaMalloc(&d_a, n * sizeof(s64)));
  CHECK(cudaMalloc(&d_s, n * sizeof(s64)));
  CHECK(cudaMalloc(&d_h, n * sizeof(u64)));
  CHECK(cudaMalloc(&d_q, n * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_sum, sizeof(u64)));
  CHECK(cudaMalloc(&d_mn, sizeof(s64)));
  CHECK(cudaMalloc(&d_mx, sizeof(s64)));
  CHECK(cudaMemcpy(d_a, a, n * sizeof(s64), cudaMemcpyHostToDevice));
  const u64 start = 0xFFFFFFF0ull;  // the low word carries into the high one at once
  CHECK(cudaMemcpy(d_sum, &start, sizeof start, cudaMemcpyHostToDevice));
  k64<<<4, 128>>>(d_a, d_h, d_s, d_q, d_sum, d_mn, d_mx, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  static u64 h[n], wh[n];
  static s64 s[n], ws[n];
  static unsigned q[n], wq[n];
  u64 sum = 0;
  s64 mn = 0, mx = 0;
  CHECK(cudaMemcpy(h, d_h, sizeof h, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(s, d_s, sizeof s, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(q, d_q, sizeof q, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&sum, d_sum, sizeof sum, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&mn, d_mn, sizeof mn, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&mx, d_mx, sizeof mx, cudaMemcpyDeviceToHost));

  u64 wsum = start;
  s64 wmn = a[0], wmx = a[0];
  for (size_t i = 0; i < n; ++i) {
    work(unsigned(i), a, wh, ws, wq);
    wsum += wh[i] >> 8;
    wmn = a[i] < wmn ? a[i] : wmn;
    wmx = a[i] > wmx ? a[i] : wmx;
  }
  int bh = 0, bs = 0, bq = 0;
  u64 xh = 0, xs = 0, xq = 0;
  for (size_t i = 0; i < n; ++i) {
    bh += h[i] != wh[i];
    bs += s[i] != ws[i];
    bq += q[i] != wq[i];
    xh = xh * 31 + h[i];
    xs = xs * 31 + (u64)s[i];
    xq = xq * 31 + q[i];
  }
  std::printf("hash: %d of %zu as the host computes them (h[1] = %016llx, checksum %016llx)\n", int(n) - bh, n, h[1],
              xh);
  std::printf("signed: %d of %zu (s[2] = %lld, s[999] = %lld, checksum %016llx)\n", int(n) - bs, n, s[2], s[999], xs);
  std::printf("div/rem/popc/clz: %d of %zu (q[0] = %u, q[998] = %u, checksum %016llx)\n", int(n) - bq, n, q[0], q[998],
              xq);
  std::printf("atomicAdd: %016llx (host %016llx)\n", sum, wsum);
  std::printf("min %lld max %lld (host %lld %lld)\n", mn, mx, wmn, wmx);
  const bool ok = bh == 0 && bs == 0 && bq == 0 && sum == wsum && mn == wmn && mx == wmx;
  std::printf("int64: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
