// A kernel launched through a launcher object from a header
// (launch_object.h): the block size given to the object's constructor
// reaches cudaLaunchKernelEx through the config a static function returns,
// past a setter that returns the object itself.
#include "launch_object.h"

constexpr int kBlock = 256;

__global__ void add_one(int *dst, const int *src, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		dst[i] = src[i] + 1;
}

void run(int *dst, const int *src, int n, cudaStream_t stream)
{
	Launch((n + kBlock - 1) / kBlock, kBlock, stream)
	    .enable_pdl(n > 4096)(add_one, dst, src, n);
}
