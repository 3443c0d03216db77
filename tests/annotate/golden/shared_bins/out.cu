// A histogram in shared memory of 256 bins, with a block of 256 threads:
// the array is subscripted by the data (`s[data[i]]`), so its extent is
// the data's range, not one slot per thread; the block stays 256 (the
// same value untied), the grid-stride grid is a parameter.
#ifndef GRID_SIZE
#define GRID_SIZE 240
#endif
#ifndef ITEMS
#define ITEMS 1
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif

#pragma kt param GRID_SIZE values(16, 32, 64, 128, 240, 256, 512, 1024, 2048) default(240)
#pragma kt param ITEMS values(1, 2, 4, 8) default(1)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint 256 * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(GRID_SIZE) block(256)
#pragma kt arg bins unsigned int[256] inout
#pragma kt arg data unsigned char[n] in
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(256, MIN_BLOCKS)
#endif
hist256(unsigned int *bins, const unsigned char *data, int n)
{
	__shared__ unsigned int s[256];
	for (int b = threadIdx.x; b < 256; b += blockDim.x)
		s[b] = 0;
	__syncthreads();
#if ITEMS == 1
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
		atomicAdd(&s[data[i]], 1u);
#else
	for (int kt_i = blockIdx.x * blockDim.x + threadIdx.x; kt_i < (n); kt_i += (blockDim.x * gridDim.x) * ITEMS) {
		unsigned char kt_ld0[ITEMS];
#pragma unroll
		for (int kt_j = 0; kt_j < ITEMS; kt_j++) {
			const int i = kt_i + kt_j * (blockDim.x * gridDim.x);
			if (i < (n)) {
				kt_ld0[kt_j] = data[i];
			}
		}
#pragma unroll
		for (int kt_j = 0; kt_j < ITEMS; kt_j++) {
			const int i = kt_i + kt_j * (blockDim.x * gridDim.x);
			if (i < (n))
				atomicAdd(&s[kt_ld0[kt_j]], 1u);
		}
	}
#endif
	__syncthreads();
#if ITEMS == 1
	for (int b = threadIdx.x; b < 256; b += blockDim.x)
		atomicAdd(&bins[b], s[b]);
#else
	for (int kt_i = threadIdx.x; kt_i < (256); kt_i += (blockDim.x) * ITEMS) {
		unsigned int kt_ld0[ITEMS];
#pragma unroll
		for (int kt_j = 0; kt_j < ITEMS; kt_j++) {
			const int b = kt_i + kt_j * (blockDim.x);
			if (b < (256)) {
				kt_ld0[kt_j] = s[b];
			}
		}
#pragma unroll
		for (int kt_j = 0; kt_j < ITEMS; kt_j++) {
			const int b = kt_i + kt_j * (blockDim.x);
			if (b < (256))
				atomicAdd(&bins[b], kt_ld0[kt_j]);
		}
	}
#endif
}

#ifndef __CUDACC_RTC__
void run(unsigned int *bins, const unsigned char *data, int n)
{
	hist256<<<GRID_SIZE, 256>>>(bins, data, n);
}
#endif
