// The grid reads the block's dim3 (`(w + b.x - 1) / b.x`): its leaves are
// the block's own literals, x's and y's alike, so the grid follows both
// parameters and neither is a step that follows none.
#ifndef BLOCK_SIZE
#define BLOCK_SIZE 16
#endif
#ifndef BLOCK_SIZE_Y
#define BLOCK_SIZE_Y 16
#endif

#pragma kt param BLOCK_SIZE values(1, 2, 4, 8, 16, 32, 64) default(16)
#pragma kt param BLOCK_SIZE_Y values(1, 2, 4, 8, 16, 32, 64) default(16)
#pragma kt constraint (BLOCK_SIZE) * (BLOCK_SIZE_Y) <= DEVICE_MAX_THREADS_PER_BLOCK
// ktc: complete and uncomment: #pragma kt problem w values(?)
// ktc: complete and uncomment: #pragma kt problem h values(?)
#pragma kt launch grid((w + BLOCK_SIZE - 1) / BLOCK_SIZE, (h + BLOCK_SIZE_Y - 1) / BLOCK_SIZE_Y) block(BLOCK_SIZE, BLOCK_SIZE_Y)
#pragma kt arg img float[w * h] out
#pragma kt arg w int = w
#pragma kt arg h int = h
__global__ void fill2d(float *img, int w, int h)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x < w && y < h)
		img[y * w + x] = (float)(x + y);
}

#ifndef __CUDACC_RTC__
void run(float *img, int w, int h)
{
	dim3 b = dim3(BLOCK_SIZE, BLOCK_SIZE_Y);
	dim3 g = dim3((w + b.x - 1) / b.x, (h + b.y - 1) / b.y);
	fill2d<<<g, b>>>(img, w, h);
}
#endif
