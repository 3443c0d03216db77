#include <cuda_runtime.h>
#include <vector>

/* guard `if (i < n)`: x holds n elements */
__global__ void scale(float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] *= 2.0f;
}

/* an early return, and a 2-D index under a grid-stride loop */
__global__ void add_rows(float *y, const float *x, const float *bias, int rows,
                         int d)
{
	int row = blockIdx.x;
	if (row >= rows)
		return;
	for (int col = threadIdx.x; col < d; col += blockDim.x)
		y[row * d + col] = x[row * d + col] + __ldg(&bias[col]);
}

/* no guard bounds the index: only the host's allocation says */
__global__ void fill(float *out, int stride)
{
	out[blockIdx.x * stride + threadIdx.x] = 1.0f;
}

/* a vector access through a cast: the guard bounds the element, not the
 * four floats read from it */
__global__ void copy4(float *dst, const float *src, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		*(float4 *)&dst[4 * i] = *(const float4 *)&src[4 * i];
}

/* the guard says n, the allocation 2 * n: two sources that do not agree */
__global__ void shift(float *v, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		v[i] += 1.0f;
}

void run(float *x, int n, int rows, int d)
{
	scale<<<(n + 255) / 256, 256>>>(x, n);
	float *y = nullptr;
	cudaMalloc(&y, rows * d * sizeof(float));
	std::vector<float> bias(d);
	add_rows<<<rows, 128>>>(y, x + 3, bias.data(), rows, d);
	float *out;
	cudaMallocAsync((void **)&out, sizeof(float) * rows * 64, 0);
	fill<<<rows, 64>>>(out, 64);
	float *src = new float[4 * n];
	copy4<<<(n + 127) / 128, 128>>>(x, src, n);
	float *z;
	cudaMalloc(&z, 2 * n * sizeof(float));
	shift<<<(n + 255) / 256, 256>>>(z, n);
}
