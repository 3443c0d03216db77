// A kernel's template argument through a host constant (`const int
// threads = 256; staged_scale<threads><<<...>>>`): the `kernel template`
// line names the parameter the constant's literal became, not the
// host's local (which `ktc tune`'s instantiation never sees); a constant
// of another initialiser (`constexpr int vec = 16 / sizeof(float)`, a
// bool) is written as the value the launch instantiates.
#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif
#ifndef MIN_BLOCKS_2
#define MIN_BLOCKS_2 0
#endif

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt kernel template("threads")
#pragma kt launch grid((n + BLOCK_SIZE - 1) / BLOCK_SIZE) block(BLOCK_SIZE)
#pragma kt arg y float[n] out
#pragma kt arg x float[n] in
#pragma kt arg n int = n
template <int THREADS>
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
staged_scale(float *y, const float *x, int n)
{
	__shared__ float s[THREADS];
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	s[threadIdx.x] = i < n ? x[i] : 0.0f;
	__syncthreads();
	if (i < n)
		y[i] = 2.0f * s[threadIdx.x];
}

#pragma kt param MIN_BLOCKS_2 values(0, 1, 2, 4) default(0)
#pragma kt constraint 256 * MIN_BLOCKS_2 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt kernel template("fast", "vec")
#pragma kt launch grid((n + 1023) / 1024) block(256)
// ktc: complete and uncomment: #pragma kt arg dst float[?] out
// ktc: complete and uncomment: #pragma kt arg src float[?] in
#pragma kt arg n int = n
template <bool kFast, int kVec>
__global__ void
#if MIN_BLOCKS_2 > 0
__launch_bounds__(256, MIN_BLOCKS_2)
#endif
scale(float *dst, const float *src, int n)
{
	int i = (blockIdx.x * blockDim.x + threadIdx.x) * kVec;
	for (int k = 0; k < kVec; k++)
		if (i + k < n)
			dst[i + k] = kFast ? 2.0f * src[i + k] : src[i + k] + src[i + k];
}

#ifndef __CUDACC_RTC__
void run(float *y, const float *x, float *z, int n)
{
	const int threads = BLOCK_SIZE;
	staged_scale<threads><<<(n + threads - 1) / threads, threads>>>(y, x, n);
	constexpr bool fast = true;
	constexpr int vec = 16 / sizeof(float);
	scale<fast, vec><<<(n + 1023) / 1024, 256>>>(z, x, n);
}
#endif
