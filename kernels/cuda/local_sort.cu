// local_sort: each thread insertion-sorts its own 16 values in an array
// indexed by data-dependent positions, then writes a hash of the sorted run
// and one element picked by the data. nvcc cannot keep an array with a
// runtime index in registers, so it lives in local memory (.local in the
// PTX, per-thread frames the driver allocates; docs/ptx.md "Local memory").
// in holds n * 16 words (thread i's at [16 i, 16 i + 16)), out n words.
#define K 16
extern "C" __global__ void local_sort(const unsigned* in, unsigned* out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned v[K];
  for (int j = 0; j < K; ++j) v[j] = in[i * K + j];
#pragma unroll 1
  for (int j = 1; j < K; ++j) {
    const unsigned x = v[j];
    int k = j - 1;
    while (k >= 0 && v[k] > x) {
      v[k + 1] = v[k];
      --k;
    }
    v[k + 1] = x;
  }
  unsigned h = 0;
  for (int j = 0; j < K; ++j) h = h * 31 + v[j];
  out[i] = h ^ v[v[0] % K];
}

// live_hash: 72 values per thread kept live across a loop (the array is
// indexed by constants only once unrolled, so nvcc keeps it in virtual
// registers): more than R0..R62, so the front end spills some to the same
// local frames. in holds n * 72 words, out n words.
#define L 72
extern "C" __global__ void live_hash(const unsigned* in, unsigned* out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned v[L];
#pragma unroll
  for (int j = 0; j < L; ++j) v[j] = in[i * L + j] ^ (i * (j + 1));
  unsigned h = 0;
#pragma unroll 1
  for (int r = 0; r < 3; ++r) {
#pragma unroll
    for (int j = 0; j < L; ++j) h = h * 31 + (v[j] >> r);
  }
  out[i] = h;
}
