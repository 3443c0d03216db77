// The grid reads the block's dim3 (`(w + b.x - 1) / b.x`): its leaves are
// the block's own literals, x's and y's alike, so the grid follows both
// parameters and neither is a step that follows none.
__global__ void fill2d(float *img, int w, int h)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x < w && y < h)
		img[y * w + x] = (float)(x + y);
}

void run(float *img, int w, int h)
{
	dim3 b = dim3(16, 16);
	dim3 g = dim3((w + b.x - 1) / b.x, (h + b.y - 1) / b.y);
	fill2d<<<g, b>>>(img, w, h);
}
