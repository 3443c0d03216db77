// The launch's dynamic shared memory holds one float a thread of the
// default block (`256 * sizeof(float)`), which the kernel indexes by
// thread: a block of more than 256 threads would index past it, one of
// fewer leaves some unused. The block size is capped at 256.
#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256) default(256)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid((n + (BLOCK_SIZE - 1)) / BLOCK_SIZE) block(BLOCK_SIZE) smem(256 * 4)
#pragma kt arg x float[n] in
#pragma kt arg y float[n] out
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
staged_scale(const float *x, float *y, int n)
{
	extern __shared__ float s[];
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	s[threadIdx.x] = i < n ? x[i] : 0.0f;
	__syncthreads();
	if (i < n)
		y[i] = 2.0f * s[threadIdx.x];
}

#ifndef __CUDACC_RTC__
void run(const float *x, float *y, int n)
{
	staged_scale<<<(n + (BLOCK_SIZE - 1)) / BLOCK_SIZE, BLOCK_SIZE, 256 * sizeof(float)>>>(x, y, n);
}
#endif
