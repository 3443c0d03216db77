// A header's specialisation over a type NVRTC does not have
// (std::vector): the header's device side leaves it out, the trait and
// its other uses stay.
#include "foreign_specialisation.h"

__global__ void scale(float *x, float a, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] *= a * Width<float>::value;
}

void run(float *x, float a, int n)
{
	scale<<<(n + 255) / 256, 256>>>(x, a, n);
}
