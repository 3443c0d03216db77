// Each block's last element, taken by its last thread written as a
// literal (`threadIdx.x == 255` for a block of 256): the 255 does not
// follow a block-size parameter, so at 128 threads no thread would write
// and at 512 a block would give its middle element. The block stays a
// literal.
__global__ void block_last(const float *x, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n && threadIdx.x == 255)
		out[blockIdx.x] = x[i];
}

void run(const float *x, float *out, int n)
{
	block_last<<<(n + 255) / 256, 256>>>(x, out, n);
}
