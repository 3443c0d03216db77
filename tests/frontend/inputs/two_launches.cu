// One kernel launched twice: with the same block size the two launches
// share one parameter; the second kernel's launches disagree (256 and
// 512), so its block size stays a literal.
#include <cuda_runtime.h>

__global__ void fill(float *a, int n, float v)
{
	for (int i = blockIdx.x * 256 + threadIdx.x; i < n; i += 256 * gridDim.x)
		a[i] = v;
}

__global__ void zero(float *a, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		a[i] = 0.0f;
}

void fill_both(float *a, float *b, int n)
{
	fill<<<(n + 255) / 256, 256>>>(a, n, 1.0f);
	fill<<<(n + 255) / 256, 256>>>(b, n, 2.0f);
	zero<<<(n + 255) / 256, 256>>>(a, n);
	zero<<<(n + 511) / 512, 512>>>(b, n);
}
