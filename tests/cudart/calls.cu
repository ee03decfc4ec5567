// Device functions that nvcc does not inline (__noinline__: .func and call
// in the PTX), which baresm's PTX front end inlines (issue 35, docs/ptx.md
// "Device functions and calls"): several parameters, a struct returned by
// value, a void function with a pointer, nested calls, 64-bit and narrow
// (char, short) parameters and results, a loop with an early return, a
// local array inside a function, a float product returned from a call and
// added by the caller, calls on both sides of a divergent branch and in a
// loop of data-dependent length, one function called by two kernels,
// 64-bit division and remainder inside functions, and structs and vectors
// passed and returned by value (kernel shapes).
// The integer results are checked against the host's; every output word is
// hashed. The whole output is what an NVIDIA GPU printed for this binary
// (tests/cudart/ref/calls.gpu.txt).
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

struct Pair {
  int a;
  float b;
};
struct Trio {
  int a;
  short b;
  signed char c;
  float d;
};

#define HD __host__ __device__ __noinline__

HD int mix3(int x, int y, unsigned z) { return (x * 3 + y) ^ (int)(z >> 3); }
HD int inner(int x) { return x * x + 1; }
HD int outer(int x) { return inner(x) + inner(x + 1) * 3; }
HD Pair mkpair(int i, float f) {
  Pair p;
  p.a = i * 7 - 1;
  p.b = f * 0.5f + 1.0f;
  return p;
}
HD Trio mktrio(int i, short s, signed char c) {
  Trio t;
  t.a = i ^ 0x5a5a;
  t.b = (short)(s * 3 - i);
  t.c = (signed char)(c + i);
  t.d = (float)i * 0.125f;
  return t;
}
HD void store2(int* p, int v) {
  p[0] = v;
  p[1] = v + 1;
}
HD long long wide(long long a, int b) { return a * b + (a >> 7); }
// 64-bit division and remainder (div.s64, rem.u64) inside a function
HD long long qdiv(long long a, long long b) { return a / b; }
HD unsigned long long urem(unsigned long long a, unsigned long long b) { return a % b; }
HD unsigned long long umix(unsigned long long x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  return x ^ (x >> 29);
}
HD short sclamp(signed char c, unsigned short u) {
  int v = c * 100 + (int)u;
  return (short)(v > 20000 ? 20000 : v < -20000 ? -20000 : v);
}
// A loop with an early return inside it (a guarded ret in the PTX).
HD int steps(unsigned x, int limit) {
  int n = 0;
  while (x != 1) {
    if (n >= limit) return -n;
    x = (x & 1) ? 3 * x + 1 : x / 2;
    ++n;
  }
  return n;
}
// An array indexed at run time: local memory inside the function.
HD int sum_local(unsigned seed, int k) {
  int a[16];
  for (int j = 0; j < 16; ++j) a[j] = (int)(seed * (j + 1) >> 3);
  int s = 0;
  for (int j = 0; j < k; ++j) s += a[(seed + j * 5) & 15];
  return s;
}
// Structs and vectors by value: a float4 and a struct of int, short, char
// and float as parameters (st.param.v4, .b16, .b8), a float2 and a 24-byte
// struct returned, a bool parameter, a void function with an early return.
struct Big {
  int v[6];
};
HD int sum4(float4 q, Trio s) { return (int)(q.x + q.y * 3.0f) - (int)q.z + (int)q.w * 5 + s.a + s.b + s.c; }
HD float2 mk2(float a, bool f) { return f ? make_float2(a, -a) : make_float2(a * 2.0f, 1.0f); }
HD Big mkbig(int i) {
  Big b;
  for (int k = 0; k < 6; ++k) b.v[k] = i * k - 3;
  return b;
}
HD int usebig(Big b, unsigned char c) {
  int s = c;
  for (int k = 0; k < 6; ++k) s += b.v[k] * (k + 1);
  return s;
}
HD void bump(int* p) {
  if (*p < 0) return;
  *p += 1;
}
__device__ __noinline__ float fprod(float a, float b) { return a * b; }
__device__ __noinline__ float lerp4(float a, float b, float t, float s) { return a + t * (b - a) * s; }

struct Out {
  int i0, i1, i2, i3, i4, i5, i6;
  long long w, q;
  unsigned long long u, r;
  int t0, t1, t2;
};

__global__ void calls(const int* in, Out* out, float* fo, int* pairs, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v = in[i];
  Out o;
  // divergent: a call on each side of the branch
  if (v & 1)
    o.i0 = mix3(v, i, (unsigned)v * 2654435761u);
  else
    o.i0 = outer(v & 255);
  Pair p = mkpair(o.i0, (float)v);
  o.i1 = p.a;
  Trio t = mktrio(i, (short)(v & 0x7fff), (signed char)(v >> 5));
  o.t0 = t.a;
  o.t1 = t.b;
  o.t2 = t.c;
  store2(pairs + 2 * i, o.i0 + p.a);
  o.i2 = steps((unsigned)(v & 0xffff) + 1u, 6 + (i & 3));
  o.i3 = sum_local((unsigned)v, 1 + (i % 16));
  o.i4 = sclamp((signed char)v, (unsigned short)(v >> 8));
  // a call in a loop of data-dependent length, only in some threads
  int acc = 0;
  if (v % 3 != 0)
    for (int j = 0; j < (v & 7); ++j) acc += inner(acc + j);
  o.i5 = acc;
  o.i6 = (v % 5 == 0) ? steps((unsigned)v, 8) : -7;
  o.w = wide((long long)v << 20, i);
  o.u = umix((unsigned long long)(unsigned)v * 0x100000001ull);
  o.q = qdiv(o.w, (long long)(i - 500) | 1);
  o.r = urem(o.u, (unsigned long long)(unsigned)v | 1ull);
  out[i] = o;
  // floats: a product computed in a function and added by the caller; a
  // function with a multiply-add inside; the struct's float fields
  fo[4 * i] = 1.0f / 3.0f + fprod((float)v * 0.01f, 1.1f + (float)i);
  fo[4 * i + 1] = lerp4((float)i, p.b, 0.25f + (float)(v & 3), 1.5f);
  fo[4 * i + 2] = p.b;
  fo[4 * i + 3] = t.d;
}

// The same function from a second kernel.
__global__ void again(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = outer(in[i] & 511) - mix3(i, in[i], 17u);
}

__global__ void shapes(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int v = in[i];
  const float4 q = make_float4((float)(v & 255), (float)(i & 7), (float)(v >> 24), (float)(i % 11));
  const Trio t = {v, (short)(v >> 3), (signed char)(v >> 11), 0.0f};
  const float2 f = mk2((float)(v % 1000), (v & 2) != 0);
  out[3 * i] = sum4(q, t) + (int)f.x + (int)f.y;
  out[3 * i + 1] = usebig(mkbig(v % 100000), (unsigned char)(v >> 16));
  out[3 * i + 2] = v % 7 - 3;
  bump(out + 3 * i + 2);
}

static uint64_t fnv(const void* p, size_t n) {
  const unsigned char* b = static_cast<const unsigned char*>(p);
  uint64_t h = 1469598103934665603ull;
  for (size_t k = 0; k < n; ++k) h = (h ^ b[k]) * 1099511628211ull;
  return h;
}

int main() {
  const int n = 1000;
  int* hin = new int[n];
  uint32_t s = 12345;
  for (int i = 0; i < n; ++i) {
    s ^= s << 13, s ^= s >> 17, s ^= s << 5;
    hin[i] = (i % 7 == 0) ? -(int)(s % 100000) : (int)(s >> 1);
  }
  int *din, *dpairs, *dagain, *dshapes;
  Out* dout;
  float* dfo;
  CHECK(cudaMalloc(&din, n * sizeof(int)));
  CHECK(cudaMalloc(&dout, n * sizeof(Out)));
  CHECK(cudaMalloc(&dfo, 4 * n * sizeof(float)));
  CHECK(cudaMalloc(&dpairs, 2 * n * sizeof(int)));
  CHECK(cudaMalloc(&dagain, n * sizeof(int)));
  CHECK(cudaMalloc(&dshapes, 3 * n * sizeof(int)));
  CHECK(cudaMemcpy(din, hin, n * sizeof(int), cudaMemcpyHostToDevice));
  calls<<<(n + 127) / 128, 128>>>(din, dout, dfo, dpairs, n);
  CHECK(cudaGetLastError());
  again<<<(n + 63) / 64, 64>>>(din, dagain, n);
  CHECK(cudaGetLastError());
  shapes<<<(n + 255) / 256, 256>>>(din, dshapes, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  Out* hout = new Out[n];
  float* hfo = new float[4 * n];
  int* hpairs = new int[2 * n];
  int* hagain = new int[n];
  int* hshapes = new int[3 * n];
  CHECK(cudaMemcpy(hout, dout, n * sizeof(Out), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hfo, dfo, 4 * n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hpairs, dpairs, 2 * n * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hagain, dagain, n * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hshapes, dshapes, 3 * n * sizeof(int), cudaMemcpyDeviceToHost));

  // The host computes the integer results with the same functions.
  int bad[16] = {0};
  for (int i = 0; i < n; ++i) {
    const int v = hin[i];
    const Out& o = hout[i];
    const int i0 = (v & 1) ? mix3(v, i, (unsigned)v * 2654435761u) : outer(v & 255);
    const Pair p = mkpair(i0, (float)v);
    const Trio t = mktrio(i, (short)(v & 0x7fff), (signed char)(v >> 5));
    int acc = 0;
    if (v % 3 != 0)
      for (int j = 0; j < (v & 7); ++j) acc += inner(acc + j);
    bad[0] += o.i0 != i0;
    bad[1] += o.i1 != p.a;
    bad[2] += o.t0 != t.a || o.t1 != t.b || o.t2 != t.c;
    bad[3] += hpairs[2 * i] != i0 + p.a || hpairs[2 * i + 1] != i0 + p.a + 1;
    bad[4] += o.i2 != steps((unsigned)(v & 0xffff) + 1u, 6 + (i & 3));
    bad[5] += o.i3 != sum_local((unsigned)v, 1 + (i % 16));
    bad[6] += o.i4 != sclamp((signed char)v, (unsigned short)(v >> 8));
    bad[7] += o.i5 != acc;
    bad[8] += o.i6 != ((v % 5 == 0) ? steps((unsigned)v, 8) : -7);
    bad[9] += o.w != wide((long long)v << 20, i);
    bad[10] += o.u != umix((unsigned long long)(unsigned)v * 0x100000001ull);
    bad[11] += hagain[i] != outer(v & 511) - mix3(i, v, 17u);
    {
      const float4 q = make_float4((float)(v & 255), (float)(i & 7), (float)(v >> 24), (float)(i % 11));
      const Trio t3 = {v, (short)(v >> 3), (signed char)(v >> 11), 0.0f};
      const float2 f = mk2((float)(v % 1000), (v & 2) != 0);
      int b3 = v % 7 - 3;
      bump(&b3);
      bad[13] += hshapes[3 * i] != sum4(q, t3) + (int)f.x + (int)f.y ||
                 hshapes[3 * i + 1] != usebig(mkbig(v % 100000), (unsigned char)(v >> 16)) || hshapes[3 * i + 2] != b3;
    }
    bad[12] += o.q != qdiv(o.w, (long long)(i - 500) | 1) || o.r != urem(o.u, (unsigned long long)(unsigned)v | 1ull);
  }
  const char* names[14] = {"mix3/outer", "mkpair", "mktrio", "store2", "steps", "sum_local", "sclamp",
                           "loop",       "steps8", "wide",   "umix",   "again",  "div64",  "shapes"};
  int total = 0;
  for (int k = 0; k < 14; ++k) {
    std::printf("%-10s %d of %d as the host computes them\n", names[k], n - bad[k], n);
    total += bad[k];
  }
  std::printf("samples: i0[1]=%d i2[2]=%d i3[3]=%d i4[4]=%d i5[5]=%d w[6]=%lld u[7]=%016llx\n", hout[1].i0,
              hout[2].i2, hout[3].i3, hout[4].i4, hout[5].i5, hout[6].w, hout[7].u);
  unsigned fb[4];
  std::memcpy(fb, hfo, sizeof fb);
  std::printf("floats: fnv1a64 %016llx over %d words; fo[0..3] = %08x %08x %08x %08x\n",
              (unsigned long long)fnv(hfo, 4 * n * sizeof(float)), 4 * n, fb[0], fb[1], fb[2], fb[3]);
  std::printf("ints: fnv1a64 %016llx %016llx %016llx %016llx\n", (unsigned long long)fnv(hout, n * sizeof(Out)),
              (unsigned long long)fnv(hpairs, 2 * n * sizeof(int)), (unsigned long long)fnv(hagain, n * sizeof(int)),
              (unsigned long long)fnv(hshapes, 3 * n * sizeof(int)));
  std::printf("calls: %s\n", total ? "FAILED" : "PASSED");
  return total ? 1 : 0;
}
