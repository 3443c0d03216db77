// A grid written as one literal counts blocks, not steps of the block:
// it follows no parameter, even where it has the block's value. In a
// kernel whose threads each take their global index (no grid-stride
// loop), the grid's blocks times the block's threads is the work
// covered, so the block stays as written too.

// the grid equal to the block: 256 * 256 elements, one a thread
__global__ void fill(float *y)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	y[i] = 1.0f;
}

// guarded, a fixed grid of 64 blocks of 128 threads
__global__ void scale(float *y, const float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = 2.0f * x[i];
}

// both dimensions fixed: 64 x 64 blocks of 16 x 16 threads, one element
// a thread of a 1024 x 1024 matrix
__global__ void fill2d(float *y, int w)
{
	int c = blockIdx.x * blockDim.x + threadIdx.x;
	int r = blockIdx.y * blockDim.y + threadIdx.y;
	y[r * w + c] = 1.0f;
}

void run(float *y, const float *x)
{
	fill<<<256, 256>>>(y);
	scale<<<64, 128>>>(y, x, 64 * 128);
	dim3 block(16, 16);
	dim3 grid(64, 64);
	fill2d<<<grid, block>>>(y, 1024);
}
