// Device code that names glibc's `uint`, which <algorithm> brings in
// through <sys/types.h> for nvcc and NVRTC does not have.
#include <algorithm>

__global__ void iota(uint *o, uint n)
{
	uint i = blockIdx.x * 128 + threadIdx.x;
	if (i < n)
		o[i] = i;
}

void run(uint *o, uint n)
{
	iota<<<(n + 127) / 128, 128>>>(o, n);
}
