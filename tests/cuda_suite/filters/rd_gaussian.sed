# PrintDeviceProperties: the values that describe the device (the H100's or H200's, baresm's)
/^(Device Name|Total Global Memory|Shared memory available per block|Number of registers per thread block|Memory Pitch|Maximum threads per block|Total constant memory|Texture Alignment|Number of Multi processors)/ s/ - .*/ - <device property>/
s/^(Time total \(including memory transfers\)).*/\1 <time>/
s/^(Time for CUDA kernels:).*/\1 <time>/
