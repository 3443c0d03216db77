// A block sum with one shared slot per warp: 128 threads, 4 warps, the 4
// written as a literal (the array and the loop over it) with no tie to
// the block: the block stays 128.
#ifndef BLOCK_SIZE
#define BLOCK_SIZE 128
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(128)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid((n + (BLOCK_SIZE - 1)) / BLOCK_SIZE) block(BLOCK_SIZE)
#pragma kt arg out float[1] inout
#pragma kt arg x float[n] in
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
block_sum(float *out, const float *x, int n)
{
	__shared__ float warp_sums[4];
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float v = i < n ? x[i] : 0.0f;
	for (int o = 16; o > 0; o >>= 1)
		v += __shfl_xor_sync(0xffffffff, v, o);
	if ((threadIdx.x & 31) == 0)
		warp_sums[threadIdx.x >> 5] = v;
	__syncthreads();
	if (threadIdx.x == 0) {
		float s = 0.0f;
		for (int w = 0; w < 4; w++)
			s += warp_sums[w];
		atomicAdd(out, s);
	}
}

#ifndef __CUDACC_RTC__
void run(float *out, const float *x, int n)
{
	block_sum<<<(n + (BLOCK_SIZE - 1)) / BLOCK_SIZE, BLOCK_SIZE>>>(out, x, n);
}
#endif
