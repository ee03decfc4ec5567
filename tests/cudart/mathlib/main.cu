// The CUDA math library as nvcc 13 inlines it (issue 35): expf, logf, powf,
// sinf, cosf, tanhf, sqrtf, rsqrtf, fmaf, floorf, erff over 2048 inputs
// (special values, small and large arguments, random bits), each function a
// kernel of its own compilation unit. `mathlib -w FILE` writes every result
// word (the reference, made on an NVIDIA GPU); `mathlib -c FILE` compares
// with it: per function, how many words are bit for bit the reference's and
// the largest difference in ulps (NaN equal to NaN). `mathlib -h` compares
// with the host's functions in double precision, rounded to float, and
// prints each function's largest error in ulps beside the bound the CUDA
// programming guide gives for it. Built twice, without and with
// --use_fast_math (mathlib_fast). build.sh makes both.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define DECL(f) void launch_##f(const float*, const float*, float*, int);
DECL(expf) DECL(logf) DECL(powf) DECL(sinf) DECL(cosf) DECL(tanhf) DECL(sqrtf) DECL(rsqrtf) DECL(fmaf)
DECL(floorf) DECL(erff)
typedef void (*Launch)(const float*, const float*, float*, int);
// The host's value of each function (double precision, rounded once) and
// the CUDA programming guide's bound in ulps for the precise function.
static float h_expf(float x, float) { return (float)std::exp((double)x); }
static float h_logf(float x, float) { return (float)std::log((double)x); }
static float h_powf(float x, float y) { return (float)std::pow((double)x, (double)y); }
static float h_sinf(float x, float) { return (float)std::sin((double)x); }
static float h_cosf(float x, float) { return (float)std::cos((double)x); }
static float h_tanhf(float x, float) { return (float)std::tanh((double)x); }
static float h_sqrtf(float x, float) { return std::sqrt(x); }
static float h_rsqrtf(float x, float) { return (float)(1.0 / std::sqrt((double)x)); }
static float h_fmaf(float x, float y) { return std::fma(x, y, x); }
static float h_floorf(float x, float) { return std::floor(x); }
static float h_erff(float x, float) { return (float)std::erf((double)x); }
static const struct {
  const char* name;
  Launch launch;
  float (*host)(float, float);
  int bound;
} fns[] = {{"expf", launch_expf, h_expf, 2},       {"logf", launch_logf, h_logf, 1},
           {"powf", launch_powf, h_powf, 4},       {"sinf", launch_sinf, h_sinf, 2},
           {"cosf", launch_cosf, h_cosf, 2},       {"tanhf", launch_tanhf, h_tanhf, 2},
           {"sqrtf", launch_sqrtf, h_sqrtf, 0},    {"rsqrtf", launch_rsqrtf, h_rsqrtf, 2},
           {"fmaf", launch_fmaf, h_fmaf, 0},       {"floorf", launch_floorf, h_floorf, 0},
           {"erff", launch_erff, h_erff, 2}};
static const int kFns = sizeof fns / sizeof fns[0];
static const int n = 2048;

static float from_bits(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
static uint32_t bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
// The distance in ulps between two floats (their order as integers).
static int64_t ulps(uint32_t a, uint32_t b) {
  auto key = [](uint32_t u) { return (u & 0x80000000u) ? -int64_t(u & 0x7fffffffu) : int64_t(u); };
  return std::llabs(key(a) - key(b));
}

int main(int argc, char** argv) {
  const bool host = argc == 2 && !std::strcmp(argv[1], "-h");
  if (!host && (argc != 3 || (std::strcmp(argv[1], "-w") && std::strcmp(argv[1], "-c")))) {
    std::fprintf(stderr, "usage: %s -w FILE | -c FILE | -h\n", argv[0]);
    return 2;
  }
  std::vector<float> a(n), b(n);
  const float specials[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 2.0f, INFINITY, -INFINITY, NAN, 1e-40f, -1e-40f,
                            1e-30f, 88.0f, 88.8f, -87.0f, -104.0f, 3.14159265f, 1.5707964f, 1e4f, 1e6f,
                            1e30f, -1e30f, 3.4e38f, 10.0f, -10.0f, 0.1f, 9.0f, 4.0f};
  const int ns = sizeof specials / sizeof specials[0];
  uint32_t s = 2463534242u;
  auto rnd = [&] { return s ^= s << 13, s ^= s >> 17, s ^= s << 5; };
  for (int i = 0; i < n; ++i) {
    float x;
    if (i < ns) x = specials[i];
    else if (i < 1024) x = (float)((int32_t)rnd()) / 2147483648.0f * 12.0f;   // [-12, 12]
    else if (i < 1536) x = (float)((int32_t)rnd()) / 2147483648.0f * 200.0f;  // [-200, 200]
    else x = from_bits(rnd());                                                // any bits
    a[i] = x;
    b[i] = (i & 1) ? (float)((int32_t)rnd()) / 2147483648.0f * 4.0f : (float)(int)(rnd() % 9) - 4.0f;
  }
  float *da, *db, *dout;
  if (cudaMalloc(&da, n * 4) || cudaMalloc(&db, n * 4) || cudaMalloc(&dout, kFns * n * 4)) return 1;
  cudaMemcpy(da, a.data(), n * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), n * 4, cudaMemcpyHostToDevice);
  cudaMemset(dout, 0xff, kFns * n * 4);
  std::vector<int> ok(kFns, 1);
  for (int f = 0; f < kFns; ++f) {
    fns[f].launch(da, db, dout + f * n, n);
    const cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) {
      std::printf("%-7s launch: %s\n", fns[f].name, cudaGetErrorName(e));
      ok[f] = 0;
    }
  }
  if (cudaDeviceSynchronize() != cudaSuccess) return 1;
  std::vector<uint32_t> out(kFns * n);
  cudaMemcpy(out.data(), dout, kFns * n * 4, cudaMemcpyDeviceToHost);
  if (host) {
    for (int f = 0; f < kFns; ++f) {
      if (!ok[f]) continue;
      int64_t worst = 0;
      int at = 0, nan_differ = 0;
      for (int i = 0; i < n; ++i) {
        const float want = fns[f].host(a[i], b[i]);
        const uint32_t m = out[f * n + i];
        const bool wn = std::isnan(want), mn = std::isnan(from_bits(m));
        if (wn || mn) {
          nan_differ += wn != mn;
          continue;
        }
        const int64_t d = ulps(bits(want), m);
        if (d > worst) worst = d, at = i;
      }
      std::printf("%-7s %d values, at most %lld ulp from the host's (x = %a), %d NaN differences; CUDA's bound %d ulp: %s\n",
                  fns[f].name, n, (long long)worst, a[at], nan_differ, fns[f].bound,
                  worst <= fns[f].bound && !nan_differ ? "within" : "BEYOND");
    }
    return 0;
  }
  if (!std::strcmp(argv[1], "-w")) {
    FILE* fp = std::fopen(argv[2], "wb");
    if (!fp || std::fwrite(out.data(), 4, out.size(), fp) != out.size()) return 1;
    std::fclose(fp);
    std::printf("wrote %d words\n", kFns * n);
    return 0;
  }
  std::vector<uint32_t> ref(kFns * n);
  FILE* fp = std::fopen(argv[2], "rb");
  if (!fp || std::fread(ref.data(), 4, ref.size(), fp) != ref.size()) {
    std::printf("cannot read %s\n", argv[2]);
    return 1;
  }
  std::fclose(fp);
  for (int f = 0; f < kFns; ++f) {
    if (!ok[f]) continue;
    int same = 0;
    int64_t worst = 0;
    int at = -1;
    for (int i = 0; i < n; ++i) {
      const uint32_t g = ref[f * n + i], m = out[f * n + i];
      const bool gn = std::isnan(from_bits(g)), mn = std::isnan(from_bits(m));
      if (g == m) {
        ++same;
        continue;
      }
      const int64_t d = gn != mn ? INT64_MAX : gn ? 0 : ulps(g, m);
      if (d > worst) worst = d, at = i;
    }
    if (same == n)
      std::printf("%-7s %d of %d bit for bit\n", fns[f].name, same, n);
    else
      std::printf("%-7s %d of %d bit for bit, at most %lld ulp (x = %a: %08x, reference %08x)\n", fns[f].name, same,
                  n, (long long)worst, a[at], out[f * n + at], ref[f * n + at]);
  }
  return 0;
}
