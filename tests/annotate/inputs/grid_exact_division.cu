// The grid divides the problem by the block exactly (`n / 256`, no
// rounding term): the file assumes n a multiple of 256, which says
// nothing of 96 or 384. At 96 threads, floor(n / 96) blocks leave up to
// 95 elements undone. The block size keeps the divisors of 256.
__global__ void twice(float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] = 2.0f * x[i];
}

void run(float *x, int n)
{
	twice<<<n / 256, 256>>>(x, n);
}
