// A kernel template reading its row through a local pointer, `const T
// *row = in + row_index * hidden`: inside the template libclang gives the
// sum (over a dependent pointee) no type, so it was not taken for a
// pointer and `in`'s length was left to complete; the sum of a pointer
// and an offset is now followed as one, giving `float[tokens * hidden]`.
#include <cuda_runtime.h>

template <typename T>
__global__ void copy_rows(T *__restrict__ out, const T *__restrict__ in,
                          int hidden)
{
	const T *row = in + (size_t)blockIdx.x * hidden;
	for (int i = threadIdx.x; i < hidden; i += blockDim.x)
		out[(size_t)blockIdx.x * hidden + i] = row[i];
}
void run(float *out, const float *in, int tokens, int hidden)
{
	copy_rows<<<tokens, 256>>>(out, in, hidden);
}
