// One math function per compilation unit (so one per module: a function the
// PTX front end refuses fails only its own launch). FN names it, NARGS its
// arguments: x; x, y; x, y, x (build.sh compiles this file once per function).
#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
__global__ void CAT(k_, FN)(const float* a, const float* b, float* o, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float x = a[i], y = b[i];
  (void)y;
#if NARGS == 1
  o[i] = FN(x);
#elif NARGS == 2
  o[i] = FN(x, y);
#else
  o[i] = FN(x, y, x);
#endif
}
void CAT(launch_, FN)(const float* a, const float* b, float* o, int n) { CAT(k_, FN)<<<(n + 127) / 128, 128>>>(a, b, o, n); }
