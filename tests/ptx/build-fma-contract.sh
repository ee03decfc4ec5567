#!/bin/sh
# Rebuilds tests/ptx/fma_contract*.ptx and tests/ptx/bin/fma_contract* (the
# programs that ran on the GPU: their output is tests/data/fma_contract*_gpu.txt)
# with nvcc 13, -O3 -arch=sm_90, and once more with -fmad=false.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
cd "$here"
"$nvcc" -O3 -arch=sm_90 -ptx fma_contract.cu -o fma_contract.ptx
"$nvcc" -O3 -arch=sm_90 -fmad=false -ptx fma_contract.cu -o fma_contract_nofmad.ptx
"$nvcc" -O3 -arch=sm_90 fma_contract.cu -o bin/fma_contract
"$nvcc" -O3 -arch=sm_90 -fmad=false fma_contract.cu -o bin/fma_contract_nofmad
