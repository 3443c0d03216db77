// Exact divisions whose divisor reads the block: a dim3's members
// (`w / b.x`, `h / b.y` for `dim3 b(8, 8, 1)`) and a local (`n /
// threads`). The file sizes its problems in multiples of the block, so
// each block parameter keeps the default's divisors: 1, 2, 4, 8 and 32,
// 64, 128, 256 (neither kernel guards its index).
__global__ void fill2d(float *img, int w, int h)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	img[y * w + x] = (float)(x + y);
}

__global__ void twice(float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	x[i] = 2.0f * x[i];
}

void run(float *img, int w, int h, float *x, int n)
{
	dim3 b(8, 8, 1);
	dim3 g(w / b.x, h / b.y, 1);
	fill2d<<<g, b>>>(img, w, h);
	int threads = 256;
	twice<<<n / threads, threads>>>(x, n);
}
