// host_fields: the launcher reads the sizes from the fields of objects it
// receives (a tensor descriptor's `ne[]` through a pointer, a parameter
// struct by value): each field is a problem variable, named for the
// object and the field. A struct the launcher fills itself is not, nor
// a pointer a local's initialiser tests (`dst ? dst->ne[0] * 2 : 0`:
// the local is the problem variable; up to 6a61988 `dst` was one).
#include <cstdint>

struct tensor {
	int64_t ne[4];
	void *data;
};

struct shape {
	int rows, cols;
};

#define ROW_BLOCK 128

__global__ void scale_rows(const float *x, float *y, int64_t ncols, float s)
{
	const int64_t row = blockIdx.x;
	for (int64_t c = threadIdx.x; c < ncols; c += blockDim.x)
		y[row * ncols + c] = x[row * ncols + c] * s;
}

__global__ void add_one(float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] += 1.0f;
}

void scale_rows_cuda(const tensor *src, tensor *dst, cudaStream_t st)
{
	scale_rows<<<src->ne[1], ROW_BLOCK, 0, st>>>(
	    (const float *)src->data, (float *)dst->data, src->ne[0], 0.5f);
}

void add_one_cuda(float *y, shape sh, cudaStream_t st)
{
	add_one<<<(sh.rows * sh.cols + 255) / 256, 256, 0, st>>>(
	    y, sh.rows * sh.cols);
}

__global__ void fill_rows(float *y, int64_t n)
{
	int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = 0.0f;
}

/* a local tested against a null pointer first (ggml's
 * GGML_TENSOR_LOCALS): the local is the problem variable, the pointer
 * none */
void fill_rows_cuda(tensor *dst, cudaStream_t st)
{
	const int64_t n0 = (dst) ? dst->ne[0] * 2 : 0;
	fill_rows<<<(n0 + 255) / 256, 256, 0, st>>>((float *)dst->data, n0);
}

void add_one_fixed(float *y, cudaStream_t st)
{
	shape own = {64, 32};
	add_one<<<(own.rows * own.cols + 255) / 256, 256, 0, st>>>(
	    y, own.rows * own.cols);
}
