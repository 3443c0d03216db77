// block_scan: an inclusive prefix sum of each 1024-element segment, one
// block of 1024 threads per segment (Hillis-Steele in shared memory).
#include <cuda_runtime.h>

__global__ void block_scan_kernel(const int *__restrict__ in,
				  int *__restrict__ out, int n)
{
	__shared__ int buf[1024];
	const int i = blockIdx.x * 1024 + threadIdx.x;
	buf[threadIdx.x] = i < n ? in[i] : 0;
	__syncthreads();
	for (int offset = 1; offset < 1024; offset *= 2) {
		int v = threadIdx.x >= offset ? buf[threadIdx.x - offset] : 0;
		__syncthreads();
		buf[threadIdx.x] += v;
		__syncthreads();
	}
	if (i < n)
		out[i] = buf[threadIdx.x];
}

void block_scan(const int *in, int *out, int n, cudaStream_t stream)
{
	block_scan_kernel<<<(n + 1023) / 1024, 1024, 0, stream>>>(in, out, n);
}
