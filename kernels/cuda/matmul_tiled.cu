// matmul_tiled: C = A * B in f32, A M x K, B K x N, C M x N, row major, any
// sizes (the twin of kernels/matmul_tiled.s). CTAs of 16 x 16 threads, one C
// element each, grid (ceil(N/16), ceil(M/16)). K is walked in 16-wide tiles
// of A and B in shared memory, elements outside the matrices stored as 0, so
// every thread does the same fmaf chain over whole tiles, in order (the host
// reference does exactly that). Threads outside C help load and only skip
// the final store.
#define T 16
extern "C" __global__ void matmul_tiled(const float* A, const float* B, float* C, unsigned M, unsigned N,
                                        unsigned K) {
  __shared__ float As[T][T];
  __shared__ float Bs[T][T];
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  const unsigned row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
  float acc = 0.0f;
  for (unsigned k0 = 0; k0 < K; k0 += T) {
    As[ty][tx] = (row < M && k0 + tx < K) ? A[row * K + k0 + tx] : 0.0f;
    Bs[ty][tx] = (k0 + ty < K && col < N) ? B[(k0 + ty) * N + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (unsigned k = 0; k < T; ++k) acc = fmaf(As[ty][k], Bs[k][tx], acc);
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = acc;
}
