// host_extern_c_block: host functions in an `extern "C" { }` block, the
// kernel outside it, and a kernel with C linkage (as NVRTC users write).
#include <cuda_runtime.h>

extern "C" __global__ void neg_kernel(float *y, const float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = -x[i];
}

extern "C" {
static int launches;

void neg(float *y, const float *x, int n, cudaStream_t s)
{
	launches++;
	neg_kernel<<<(n + 127) / 128, 128, 0, s>>>(y, x, n);
}
}
