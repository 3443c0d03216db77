// Block size and items per thread as template arguments: the kernel's
// body says kBlock is the block's width (blockIdx.x * kBlock +
// threadIdx.x) and kItems the work of a thread (the global index times
// kItems), so the launch's block and grid must follow them.
template <int kBlock, int kItems>
__global__ void scale(float *y, const float *x, int n)
{
	int base = (blockIdx.x * kBlock + threadIdx.x) * kItems;
#pragma unroll
	for (int k = 0; k < kItems; k++)
		if (base + k < n)
			y[base + k] = 2.0f * x[base + k];
}

void launch(float *y, const float *x, int n)
{
	scale<256, 4><<<(n + 256 * 4 - 1) / (256 * 4), 256>>>(y, x, n);
}
