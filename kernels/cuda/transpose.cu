// transpose: out[c][r] = in[r][c], in rows x cols row major, out cols x rows
// (the twin of kernels/transpose.s). A 32 x 32 tile through shared memory
// with a 33-word pitch (no bank conflicts on the column reads); CTAs of
// 32 x 8 threads, each moving 4 elements; grid (ceil(cols/32), ceil(rows/32)).
extern "C" __global__ void transpose(const unsigned* in, unsigned* out, unsigned rows, unsigned cols) {
  __shared__ unsigned tile[32][33];
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  const unsigned bx = blockIdx.x * 32, by = blockIdx.y * 32;
  for (unsigned j = 0; j < 32; j += 8) {
    const unsigned r = by + ty + j, c = bx + tx;
    if (r < rows && c < cols) tile[ty + j][tx] = in[r * cols + c];
  }
  __syncthreads();
  for (unsigned j = 0; j < 32; j += 8) {
    const unsigned r = bx + ty + j, c = by + tx;  // out is cols x rows
    if (r < cols && c < rows) out[r * rows + c] = tile[tx][ty + j];
  }
}
