// Exact divisions whose divisor reads the block: a dim3's members
// (`w / b.x`, `h / b.y` for `dim3 b(8, 8, 1)`) and a local (`n /
// threads`). The file sizes its problems in multiples of the block, so
// each block parameter keeps the default's divisors: 1, 2, 4, 8 and 32,
// 64, 128, 256 (neither kernel guards its index).
#ifndef BLOCK_SIZE
#define BLOCK_SIZE 8
#endif
#ifndef BLOCK_SIZE_Y
#define BLOCK_SIZE_Y 8
#endif
#ifndef BLOCK_SIZE_2
#define BLOCK_SIZE_2 256
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif

#pragma kt param BLOCK_SIZE values(1, 2, 4, 8) default(8)
#pragma kt param BLOCK_SIZE_Y values(1, 2, 4, 8) default(8)
#pragma kt constraint (BLOCK_SIZE) * (BLOCK_SIZE_Y) <= DEVICE_MAX_THREADS_PER_BLOCK
// ktc: complete and uncomment: #pragma kt problem w values(?)
// ktc: complete and uncomment: #pragma kt problem h values(?)
#pragma kt launch grid(w / BLOCK_SIZE, h / BLOCK_SIZE_Y, 1) block(BLOCK_SIZE, BLOCK_SIZE_Y, 1)
// ktc: complete and uncomment: #pragma kt arg img float[?] out
#pragma kt arg w int = w
#pragma kt arg h int = h
__global__ void fill2d(float *img, int w, int h)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	img[y * w + x] = (float)(x + y);
}

#pragma kt param BLOCK_SIZE_2 values(32, 64, 128, 256) default(256)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_2 * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(n / BLOCK_SIZE_2) block(BLOCK_SIZE_2)
// ktc: complete and uncomment: #pragma kt arg x float[?] inout
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE_2, MIN_BLOCKS)
#endif
twice(float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	x[i] = 2.0f * x[i];
}

#ifndef __CUDACC_RTC__
void run(float *img, int w, int h, float *x, int n)
{
	dim3 b(BLOCK_SIZE, BLOCK_SIZE_Y, 1);
	dim3 g(w / b.x, h / b.y, 1);
	fill2d<<<g, b>>>(img, w, h);
	int threads = BLOCK_SIZE_2;
	twice<<<n / threads, threads>>>(x, n);
}
#endif
