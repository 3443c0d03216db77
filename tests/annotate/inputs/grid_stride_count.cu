// Kernels that walk their work in grid-stride loops, launched with a
// literal grid: any count of blocks covers the same work, so the count is
// a tuning parameter (GRID_SIZE), from a sixteenth of the original to
// sixteen times it.
#include <algorithm>

// the plain form: one loop from the global index by the grid's threads
__global__ void saxpy(float *y, const float *x, float a, int n)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += blockDim.x * gridDim.x)
		y[i] = a * x[i] + y[i];
}

// the start and the step through locals, the grid through a dim3 (and an
// array named `v`, whose registers in the vector loop are not `kt_v`)
__global__ void square(float *v, int n)
{
	const int tid = threadIdx.x + blockIdx.x * blockDim.x;
	const int stride = gridDim.x * blockDim.x;
	for (int i = tid; i < n; i += stride)
		v[i] = v[i] * v[i];
}

// a block per row, the rows walked by the grid: a barrier inside is
// fine, every thread of a block runs the same rows
__global__ void row_sum(float *out, const float *in, int rows, int cols)
{
	__shared__ float part[256];
	for (int r = blockIdx.x; r < rows; r += gridDim.x) {
		float s = 0.0f;
		for (int c = threadIdx.x; c < cols; c += blockDim.x)
			s += in[r * cols + c];
		part[threadIdx.x] = s;
		__syncthreads();
		if (threadIdx.x == 0) {
			float t = 0.0f;
			for (int k = 0; k < 256; k++)
				t += part[k];
			out[r] = t;
		}
		__syncthreads();
	}
}

// a grid counted from the problem, capped: the cap is the parameter
__global__ void clamp01(float *v, int n)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += blockDim.x * gridDim.x)
		v[i] = fminf(fmaxf(v[i], 0.0f), 1.0f);
}

// the loop written by a macro
#define KERNEL_LOOP(i, n) \
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); \
	     i += blockDim.x * gridDim.x)

__global__ void relu(float *v, int n)
{
	KERNEL_LOOP(i, n) { v[i] = v[i] > 0.0f ? v[i] : 0.0f; }
}

void run(float *y, const float *x, float *v, float *sums, const float *m,
         int n, int rows)
{
	saxpy<<<1024, 256>>>(y, x, 2.0f, n);
	dim3 grid(512);
	square<<<grid, 128>>>(v, n);
	row_sum<<<132, 256>>>(sums, m, rows, 4096);
	clamp01<<<std::min((n + 255) / 256, 4096), 256>>>(v, n);
	relu<<<2048, 512>>>(v, n);
}
