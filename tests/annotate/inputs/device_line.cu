// A kernel that prints __LINE__: its PTX holds the number, so lines the
// annotation inserts before it must not renumber the original's (`#line`
// after them), and its launch bounds come through a macro defined above
// it, on the kernel's own line.
#include <cstdio>

__global__ void scale(float *y, const float *x, int n)
{
	int i = blockIdx.x * 256 + threadIdx.x;
	if (i == n)
		printf("past the end at line %d\n", __LINE__);
	if (i < n)
		y[i] = 2.0f * x[i];
}

void launch(float *y, const float *x, int n)
{
	scale<<<(n + 255) / 256, 256>>>(y, x, n);
}
