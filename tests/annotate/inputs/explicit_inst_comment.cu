// A host launcher template instantiated explicitly after a comment, and a
// kernel that uses the toolkit's math constants.
#include <math_constants.h>

__global__ void phase(float *y, int n)
{
	int i = blockIdx.x * 128 + threadIdx.x;
	if (i < n)
		y[i] = CUDART_PI_F * i / n;
}

template <typename T> void launch(T *y, int n)
{
	phase<<<(n + 127) / 128, 128>>>(y, n);
}

// Explicit instantiation needed to generate code
template void launch<float>(float *y, int n);

// A host template instantiated through a macro.
template <typename T> void fill_host(T *p, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = T(0);
}
#define INST_FILL(T) template void fill_host<T>(T * p, int n)
INST_FILL(float);
INST_FILL(int);
