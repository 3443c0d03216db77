// A histogram in shared memory of 256 bins, with a block of 256 threads:
// the array is subscripted by the data (`s[data[i]]`), so its extent is
// the data's range, not one slot per thread; the block stays 256 (the
// same value untied), the grid-stride grid is a parameter.
__global__ void hist256(unsigned int *bins, const unsigned char *data, int n)
{
	__shared__ unsigned int s[256];
	for (int b = threadIdx.x; b < 256; b += blockDim.x)
		s[b] = 0;
	__syncthreads();
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
		atomicAdd(&s[data[i]], 1u);
	__syncthreads();
	for (int b = threadIdx.x; b < 256; b += blockDim.x)
		atomicAdd(&bins[b], s[b]);
}

void run(unsigned int *bins, const unsigned char *data, int n)
{
	hist256<<<240, 256>>>(bins, data, n);
}
