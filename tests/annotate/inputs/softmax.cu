// softmax: a numerically stable softmax over each row of a rows x cols
// float matrix; one block of 256 threads per row, two block reductions
// (maximum, then sum) through shared memory.
#include <cuda_runtime.h>

#include <cfloat>

__global__ void softmax_kernel(float *__restrict__ out,
			       const float *__restrict__ in, int cols)
{
	__shared__ float red[256];
	const float *x = in + (size_t)blockIdx.x * cols;
	float *y = out + (size_t)blockIdx.x * cols;
	float m = -FLT_MAX;
	for (int i = threadIdx.x; i < cols; i += 256)
		m = fmaxf(m, x[i]);
	red[threadIdx.x] = m;
	__syncthreads();
	for (int s = 256 / 2; s > 0; s >>= 1) {
		if (threadIdx.x < s)
			red[threadIdx.x] = fmaxf(red[threadIdx.x],
						 red[threadIdx.x + s]);
		__syncthreads();
	}
	m = red[0];
	__syncthreads();
	float sum = 0.0f;
	for (int i = threadIdx.x; i < cols; i += 256)
		sum += __expf(x[i] - m);
	red[threadIdx.x] = sum;
	__syncthreads();
	for (int s = 256 / 2; s > 0; s >>= 1) {
		if (threadIdx.x < s)
			red[threadIdx.x] += red[threadIdx.x + s];
		__syncthreads();
	}
	const float inv = 1.0f / red[0];
	for (int i = threadIdx.x; i < cols; i += 256)
		y[i] = __expf(x[i] - m) * inv;
}

void softmax(float *out, const float *in, int rows, int cols,
	     cudaStream_t stream)
{
	softmax_kernel<<<rows, 256, 0, stream>>>(out, in, cols);
}
