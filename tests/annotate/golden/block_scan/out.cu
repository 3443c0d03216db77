// block_scan: an inclusive prefix sum of each 1024-element segment, one
// block of 1024 threads per segment (Hillis-Steele in shared memory).
#include <cuda_runtime.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 1024
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(1024)
#pragma kt constraint 4 * (BLOCK_SIZE) <= DEVICE_SMEM_PER_BLOCK
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid((n + (BLOCK_SIZE - 1)) / BLOCK_SIZE) block(BLOCK_SIZE)
#pragma kt arg in int[n] in
#pragma kt arg out int[n] out
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
block_scan_kernel(const int *__restrict__ in,
				  int *__restrict__ out, int n)
{
	__shared__ int buf[BLOCK_SIZE];
	const int i = blockIdx.x * BLOCK_SIZE + threadIdx.x;
	buf[threadIdx.x] = i < n ? in[i] : 0;
	__syncthreads();
	for (int offset = 1; offset < BLOCK_SIZE; offset *= 2) {
		int v = threadIdx.x >= offset ? buf[threadIdx.x - offset] : 0;
		__syncthreads();
		buf[threadIdx.x] += v;
		__syncthreads();
	}
	if (i < n)
		out[i] = buf[threadIdx.x];
}

#ifndef __CUDACC_RTC__
void block_scan(const int *in, int *out, int n, cudaStream_t stream)
{
	block_scan_kernel<<<(n + (BLOCK_SIZE - 1)) / BLOCK_SIZE, BLOCK_SIZE, 0, stream>>>(in, out, n);
}
#endif
