// 128 weights staged in shared memory by a block of 128 threads: the
// array is filled by a block-strided loop and read by each thread in
// turn, never at the thread's own index, so its extent counts weights,
// not threads; the same value standing untied, the block stays 128.
#ifndef BLOCK_SIZE
#define BLOCK_SIZE 128
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif
#ifndef FAST_DIV
#define FAST_DIV 0
#endif
/* ktc fast_div: n / d and n % d by a multiply-high (Granlund and
 * Montgomery 1994, Fig. 4.1, N = 32), exact for every 32-bit n and
 * d >= 1; kt_fastdiv_new once per divisor */
typedef struct kt_fastdiv {
	unsigned d, m, l;
} kt_fastdiv;
__device__ __forceinline__ kt_fastdiv kt_fastdiv_new(unsigned d)
{
	kt_fastdiv f;
	f.d = d;
	f.l = d > 1 ? 32 - __clz(d - 1) : 0;
	f.m = d ? (unsigned)((1ull << 32) * ((1ull << f.l) - d) / d + 1)
	        : 0;
	return f;
}
__device__ __forceinline__ unsigned kt_fastdiv_q(unsigned n, kt_fastdiv f)
{
	return (unsigned)(((unsigned long long)__umulhi(n, f.m) + n) >> f.l);
}
__device__ __forceinline__ unsigned kt_fastdiv_udiv(unsigned n, kt_fastdiv f)
{
	return f.d ? kt_fastdiv_q(n, f) : n / f.d;
}
__device__ __forceinline__ unsigned kt_fastdiv_umod(unsigned n, kt_fastdiv f)
{
	return f.d ? n - kt_fastdiv_q(n, f) * f.d : n % f.d;
}
/* int: the multiply where n >= 0 and d > 0, C's operator elsewhere */
__device__ __forceinline__ int kt_fastdiv_div(int n, kt_fastdiv f)
{
	int d = (int)f.d;
	return n >= 0 && d > 0 ? (int)kt_fastdiv_q((unsigned)n, f) : n / d;
}
__device__ __forceinline__ int kt_fastdiv_mod(int n, kt_fastdiv f)
{
	int d = (int)f.d;
	return n >= 0 && d > 0 ? n - (int)kt_fastdiv_q((unsigned)n, f) * d
	                       : n % d;
}

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(128)
#pragma kt constraint 4 * (BLOCK_SIZE) <= DEVICE_SMEM_PER_BLOCK
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
#pragma kt param FAST_DIV values(0, 1) default(0)
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid((n + (BLOCK_SIZE - 1)) / BLOCK_SIZE) block(BLOCK_SIZE)
#pragma kt arg y float[n] out
#pragma kt arg w float[128] in
#pragma kt arg x float[n] in
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
mix(float *y, const float *w, const float *x, int n)
{
	__shared__ float sw[BLOCK_SIZE];
	for (int c = threadIdx.x; c < BLOCK_SIZE; c += blockDim.x)
		sw[c] = w[c];
	__syncthreads();
	int i = blockIdx.x * blockDim.x + threadIdx.x;
#if FAST_DIV
	const kt_fastdiv kt_fd_n = kt_fastdiv_new(n);
#else
	const kt_fastdiv kt_fd_n = {0, 0, 0};
#endif
	if (i < n) {
		float acc = 0.0f;
		for (int k = 0; k < BLOCK_SIZE; k++)
			acc += sw[k] * x[(FAST_DIV ? kt_fastdiv_mod((i + k), kt_fd_n) : (i + k) % n)];
		y[i] = acc;
	}
}

#ifndef __CUDACC_RTC__
void run(float *y, const float *w, const float *x, int n)
{
	mix<<<(n + (BLOCK_SIZE - 1)) / BLOCK_SIZE, BLOCK_SIZE>>>(y, w, x, n);
}
#endif
