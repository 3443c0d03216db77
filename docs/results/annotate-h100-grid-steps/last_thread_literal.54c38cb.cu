// Each element gets the last element of its block, which the block's last
// thread, written as a literal (`threadIdx.x == 255` for a block of
// 256), puts in shared memory: the 255 does not follow a block-size
// parameter, so at 128 threads no thread would write it and at 512 a
// block would hand out its middle element. The block stays a literal.
#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid((n + (BLOCK_SIZE - 1)) / BLOCK_SIZE) block(BLOCK_SIZE)
#pragma kt arg x float[n] in
#pragma kt arg y float[n] out
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
block_last(const float *x, float *y, int n)
{
	__shared__ float last;
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (threadIdx.x == 255)
		last = i < n ? x[i] : 0.0f;
	__syncthreads();
	if (i < n)
		y[i] = last;
}

#ifndef __CUDACC_RTC__
void run(const float *x, float *y, int n)
{
	block_last<<<(n + (BLOCK_SIZE - 1)) / BLOCK_SIZE, BLOCK_SIZE>>>(x, y, n);
}
#endif
