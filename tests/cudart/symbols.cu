// __device__ and __constant__ variables (issue 35): initialised from the
// program's own data, read and written by kernels (ld.const, ld/st.global
// and atomics on a variable), and by the host with cudaMemcpyToSymbol /
// cudaMemcpyFromSymbol (at offsets, synchronous and on a stream),
// cudaGetSymbolAddress and cudaGetSymbolSize; the error paths of the symbol
// calls. Every value is checked against what the host computes; the lines
// printed are the same on an NVIDIA GPU (tests/cudart/ref/symbols.gpu.txt).
#include <cstdio>
#include <cstring>

#define CHECK(call)                                                                          \
  do {                                                                                       \
    cudaError_t e_ = (call);                                                                 \
    if (e_ != cudaSuccess) {                                                                 \
      std::printf("%s: %s\n", #call, cudaGetErrorName(e_));                                  \
      return 1;                                                                              \
    }                                                                                        \
  } while (0)

__constant__ float coef[4] = {0.5f, 1.5f, -2.0f, 3.25f};
__constant__ int scale;           // set by the host
__constant__ unsigned lut[16];    // a table the host fills, read at run-time indices
__device__ int counter = 7;       // atomics
__device__ unsigned table[64];    // zero at load, accumulated by the kernels
__device__ float bias = 0.125f;
struct Pair {
  int a;
  short b;
  char c;
};
__device__ Pair pr = {3, -4, 'x'};
namespace ns {
__device__ int z = 42;  // a mangled name (_ZN2ns1zE)
}
__device__ unsigned char bytes[5] = {1, 2, 3};  // fewer initialisers than elements: the rest is zero

__global__ void use_vars(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = in[i] * coef[i & 3] * scale + bias + pr.b;
    atomicAdd(&table[i & 63], unsigned(i));
    atomicAdd(&counter, 1);
  }
}

__global__ void read_vars(unsigned* out) {
  unsigned t = threadIdx.x;
  out[t] = table[t] + lut[t & 15] + unsigned(pr.a + pr.c) + unsigned(ns::z) + bytes[t & 3];
}

int main() {
  const int n = 200;
  float h_in[n], h_out[n];
  for (int i = 0; i < n; ++i) h_in[i] = float(i % 17) - 8.0f;
  float *d_in, *d_out;
  unsigned* d_u;
  CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  CHECK(cudaMalloc(&d_out, n * sizeof(float)));
  CHECK(cudaMalloc(&d_u, 64 * sizeof(unsigned)));
  CHECK(cudaMemcpy(d_in, h_in, n * sizeof(float), cudaMemcpyHostToDevice));

  // the initial values, read back before any kernel ran
  float c[4];
  int cnt = 0;
  Pair p;
  unsigned char b[5];
  CHECK(cudaMemcpyFromSymbol(c, coef, sizeof c));
  CHECK(cudaMemcpyFromSymbol(&cnt, counter, sizeof cnt));
  CHECK(cudaMemcpyFromSymbol(&p, pr, sizeof p));
  CHECK(cudaMemcpyFromSymbol(b, bytes, sizeof b));
  std::printf("initial: coef %g %g %g %g, counter %d, pr {%d, %d, '%c'}, bytes %d %d %d %d %d\n", c[0], c[1], c[2],
              c[3], cnt, p.a, p.b, p.c, b[0], b[1], b[2], b[3], b[4]);
  int fails = 0;
  fails += !(c[0] == 0.5f && c[3] == 3.25f && cnt == 7 && p.a == 3 && p.b == -4 && p.c == 'x' && b[2] == 3 && b[4] == 0);

  // written by the host: a scalar, a table at an offset (two halves), on a stream too
  const int s = 3;
  CHECK(cudaMemcpyToSymbol(scale, &s, sizeof s));
  unsigned h_lut[16];
  for (int i = 0; i < 16; ++i) h_lut[i] = 1000u * (i + 1);
  CHECK(cudaMemcpyToSymbol(lut, h_lut, 8 * sizeof(unsigned)));
  cudaStream_t st;
  CHECK(cudaStreamCreate(&st));
  CHECK(cudaMemcpyToSymbolAsync(lut, h_lut + 8, 8 * sizeof(unsigned), 8 * sizeof(unsigned), cudaMemcpyHostToDevice, st));
  CHECK(cudaStreamSynchronize(st));

  use_vars<<<(n + 63) / 64, 64>>>(d_in, d_out, n);
  CHECK(cudaGetLastError());
  use_vars<<<(n + 63) / 64, 64>>>(d_in, d_out, n);  // the variables keep their values between launches
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h_out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    const float want = h_in[i] * c[i & 3] * float(s) + 0.125f + float(-4);
    if (h_out[i] != want) ++bad;
  }
  std::printf("use_vars: %d of %d values as the host computes them (out[5] = %g, out[199] = %g)\n", n - bad, n,
              h_out[5], h_out[199]);
  fails += bad != 0;
  CHECK(cudaMemcpyFromSymbol(&cnt, counter, sizeof cnt));
  std::printf("counter after 2 x %d atomicAdds: %d\n", n, cnt);
  fails += cnt != 7 + 2 * n;

  // through the symbol's address: a plain cudaMemcpy of table, and its size
  void* t_addr = nullptr;
  size_t t_size = 0;
  CHECK(cudaGetSymbolAddress(&t_addr, table));
  CHECK(cudaGetSymbolSize(&t_size, table));
  unsigned h_table[64];
  CHECK(cudaMemcpy(h_table, t_addr, sizeof h_table, cudaMemcpyDeviceToHost));
  unsigned want_table[64] = {};
  for (int i = 0; i < n; ++i) want_table[i & 63] += 2u * unsigned(i);
  bad = 0;
  for (int i = 0; i < 64; ++i) bad += h_table[i] != want_table[i];
  std::printf("table: size %zu, %d of 64 as the host computes them (table[0] = %u, table[63] = %u)\n", t_size,
              64 - bad, h_table[0], h_table[63]);
  fails += bad != 0 || t_size != sizeof h_table;

  read_vars<<<1, 64>>>(d_u);
  CHECK(cudaDeviceSynchronize());
  unsigned h_u[64];
  CHECK(cudaMemcpy(h_u, d_u, sizeof h_u, cudaMemcpyDeviceToHost));
  bad = 0;
  const unsigned char hb[5] = {1, 2, 3, 0, 0};
  for (int t = 0; t < 64; ++t)
    bad += h_u[t] != want_table[t] + h_lut[t & 15] + unsigned(3 + 'x') + 42u + hb[t & 3];
  std::printf("read_vars: %d of 64 as the host computes them (out[0] = %u, out[63] = %u)\n", 64 - bad, h_u[0], h_u[63]);
  fails += bad != 0;

  // device to device: the table into a variable and back out at an offset
  CHECK(cudaMemcpyToSymbol(table, d_u, 16 * sizeof(unsigned), 4 * sizeof(unsigned), cudaMemcpyDeviceToDevice));
  unsigned back[4];
  CHECK(cudaMemcpyFromSymbol(back, table, sizeof back, 6 * sizeof(unsigned)));
  std::printf("device to device: %u %u %u %u\n", back[0], back[1], back[2], back[3]);
  fails += back[0] != h_u[2] || back[3] != h_u[5];

  // the error paths
  static int not_a_symbol = 0;
  cudaError_t e1 = cudaMemcpyToSymbol(not_a_symbol, &s, sizeof s);
  cudaError_t e2 = cudaMemcpyToSymbol(scale, h_lut, 2 * sizeof(int));  // past its end
  cudaError_t e3 = cudaMemcpyFromSymbol(back, lut, 8, 60);               // past its end from an offset
  cudaError_t e4 = cudaMemcpyToSymbol(scale, &s, sizeof s, 0, cudaMemcpyDeviceToHost);
  std::printf("errors: %s, %s, %s, %s\n", cudaGetErrorName(e1), cudaGetErrorName(e2), cudaGetErrorName(e3),
              cudaGetErrorName(e4));
  fails += e1 != cudaErrorInvalidSymbol || e2 != cudaErrorInvalidValue || e3 != cudaErrorInvalidValue ||
           e4 != cudaErrorInvalidMemcpyDirection;
  std::printf("last error after them: %s\n", cudaGetErrorName(cudaGetLastError()));
  std::printf("after: %s\n", cudaGetErrorName(cudaGetLastError()));

  CHECK(cudaStreamDestroy(st));
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  CHECK(cudaFree(d_u));
  std::printf("symbols: %s\n", fails ? "FAILED" : "PASSED");
  return fails ? 1 : 0;
}
