// One element per thread behind an early return: `if (i >= n) return;`
// (and `n <= i`) takes ITEMS_PER_THREAD as `if (i < n)` does, since
// items run in increasing index order; a kernel with another return
// does not (it would end the thread's later items). A block size
// written as a macro the template tunes gives the launch bounds.
#include <cstdint>

#define FILL_BLOCK 256

template <typename T>
static __global__ void fill(T *dst, const int64_t k, const T value)
{
	const int64_t i = (int64_t)blockDim.x * blockIdx.x + threadIdx.x;
	if (i >= k) {
		return;
	}
	dst[i] = value;
}

__global__ void negate(float *x, int n)
{
	const int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (n <= i)
		return;
	x[i] = -x[i];
}

__global__ void masked_copy(float *y, const float *x, const int *m, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		if (!m[i])
			return;
		y[i] = x[i];
	}
}

void run(float *d, int64_t k, float v, float *y, const float *x,
         const int *m, int n)
{
	const int64_t nb = (k + FILL_BLOCK - 1) / FILL_BLOCK;
	fill<<<nb, FILL_BLOCK>>>(d, k, v);
	negate<<<(n + 127) / 128, 128>>>(y, n);
	masked_copy<<<(n + 127) / 128, 128>>>(y, x, m, n);
}
