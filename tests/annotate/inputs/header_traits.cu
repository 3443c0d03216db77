// Device code that uses one device function of a header whose host
// types must all stay out of NVRTC's way, with what depends on them.
#include "header_traits.h"

__global__ void double_all(float *y, const float *x, int n)
{
	int i = blockIdx.x * 128 + threadIdx.x;
	if (i < n)
		y[i] = twice(x[i]);
}

void run(float *y, const float *x, int n)
{
	double_all<<<(n + 127) / 128, 128>>>(y, x, n);
}
