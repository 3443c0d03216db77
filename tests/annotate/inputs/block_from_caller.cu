// block_from_caller: the launcher takes its block size and a scale as
// parameters, and the file's one call of it passes literals
// (`launch_axpy(2.0f, x, y, n, 256)`): the 256 at the call is the block's
// parameter, which the launch and the grid read through `threads`, and
// the scale is 2.0f. A launcher called twice (`launch_fill`) binds
// nothing: its block stays a problem variable to complete, as a block
// size that two calls give differently must.
__global__ void axpy(float a, const float *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] += a * x[i];
}

__global__ void fill(float *y, float v, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = v;
}

static void launch_axpy(float a, const float *x, float *y, int n, int threads)
{
	int blocks = (n + threads - 1) / threads;
	axpy<<<blocks, threads>>>(a, x, y, n);
}

static void launch_fill(float *y, float v, int n, int threads)
{
	fill<<<(n + threads - 1) / threads, threads>>>(y, v, n);
}

void run(const float *x, float *y, float *z, int n)
{
	launch_axpy(2.0f, x, y, n, 256);
	launch_fill(z, 0.0f, n, 128);
	launch_fill(z, 1.0f, n, 512);
}
