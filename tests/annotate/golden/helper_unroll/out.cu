// helper_unroll: `#pragma unroll N` in the __device__ functions a kernel
// calls (directly, or through another helper, a template too) is a
// parameter as in the kernel's own body; a helper two kernels call is
// the first's. One in a __host__ __device__ function is not: the host
// compiler reads that function too.
#ifndef BLOCK_SIZE
#define BLOCK_SIZE 128
#endif
#ifndef UNROLL
#define UNROLL 4
#endif
constexpr int kt_unroll_UNROLL = UNROLL;
#ifndef UNROLL_2
#define UNROLL_2 2
#endif
constexpr int kt_unroll_UNROLL_2 = UNROLL_2;
#ifndef BLOCK_SIZE_2
#define BLOCK_SIZE_2 128
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif
#ifndef ITEMS_PER_THREAD_2
#define ITEMS_PER_THREAD_2 1
#endif
#ifndef MIN_BLOCKS_2
#define MIN_BLOCKS_2 0
#endif

__device__ float dot16(const float *a, const float *b)
{
	float s = 0.0f;
#pragma unroll kt_unroll_UNROLL
	for (int k = 0; k < 16; k++)
		s += a[k] * b[k];
	return s;
}

template <typename T> __device__ T sum_sq(const T *a, int n)
{
	T s = 0;
#pragma unroll kt_unroll_UNROLL_2
	for (int k = 0; k < n; k++)
		s += a[k] * a[k];
	return s;
}

__device__ float norm16(const float *a)
{
	return sqrtf(sum_sq(a, 16));
}

__host__ __device__ inline float clampf(float x)
{
	float r = x;
#pragma unroll 2
	for (int k = 0; k < 2; k++)
		r = r > 1.0f ? 1.0f : r;
	return r;
}

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(128)
#pragma kt param UNROLL values(1, 2, 4, 8, 16) default(4)
#pragma kt param UNROLL_2 values(1, 2, 4, 8, 16) default(2)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(div_ceil((n + (BLOCK_SIZE - 1)) / BLOCK_SIZE, 1)) block(BLOCK_SIZE)
// ktc: complete and uncomment: #pragma kt arg a float[?] in
// ktc: complete and uncomment: #pragma kt arg b float[?] in
#pragma kt arg out float[n] out
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
rows_dot(const float *a, const float *b, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = clampf(dot16(a + i * 16, b + i * 16) / norm16(a + i * 16));
}

#pragma kt param BLOCK_SIZE_2 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(128)
#pragma kt param ITEMS_PER_THREAD_2 values(1, 2, 4, 8) default(1)
#pragma kt param MIN_BLOCKS_2 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_2 * MIN_BLOCKS_2 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(div_ceil((n + (BLOCK_SIZE_2 - 1)) / BLOCK_SIZE_2, ITEMS_PER_THREAD_2)) block(BLOCK_SIZE_2)
// ktc: complete and uncomment: #pragma kt arg a float[?] in
#pragma kt arg out float[n] out
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS_2 > 0
__launch_bounds__(BLOCK_SIZE_2, MIN_BLOCKS_2)
#endif
rows_self(const float *a, float *out, int n)
{
#pragma unroll
	for (int kt_item = 0; kt_item < ITEMS_PER_THREAD_2; kt_item++) {
		int i = (blockIdx.x * blockDim.x + threadIdx.x) + kt_item * gridDim.x * blockDim.x;
		if (i < n)
			out[i] = dot16(a + i * 16, a + i * 16);
	}
}

#ifndef __CUDACC_RTC__
void run(const float *a, const float *b, float *out, float *self, int n)
{
	rows_dot<<<(n + (BLOCK_SIZE - 1)) / BLOCK_SIZE, BLOCK_SIZE>>>(a, b, out, n);
	rows_self<<<((((n + (BLOCK_SIZE_2 - 1)) / BLOCK_SIZE_2) + ITEMS_PER_THREAD_2 - 1) / ITEMS_PER_THREAD_2), BLOCK_SIZE_2>>>(a, self, n);
}
#endif
