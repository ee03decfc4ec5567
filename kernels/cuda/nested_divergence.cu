// nested_divergence: every lane takes its own path through nested if/else and
// a loop whose trip count comes from its data; out[i] records the path (the
// twin of kernels/nested_divergence.s, same C).
extern "C" __global__ void nested_divergence(const unsigned* in, unsigned* out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const unsigned x = in[i];
  unsigned r;
  if (x & 1) {
    if (x & 2) {
      r = x * 3;
    } else if (x & 4) {
      r = x ^ 0x5a5a;
    } else if (((x >> 8) & 3) == 0) {
      r = ~x;
    } else {
      r = x >> 3;
    }
  } else {
    r = x;
    for (unsigned k = (x >> 4) & 15; k != 0; --k) {
      r = r * 5 + k;
      if (r & 0x100) r ^= 0x3c;
    }
  }
  out[i] = r + i;
}
