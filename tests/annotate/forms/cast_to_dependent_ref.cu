// cast_to_dependent_ref: a template kernel that views its shared memory
// through a reference to a type that depends on the template argument
// (libclang has no pointee type for it).
#include <cuda_runtime.h>

template <typename T> struct scale_traits {
	struct storage {
		T scale;
	};
};

template <typename Traits>
__global__ void scale_kernel(float *y, const float *x, float s, int n)
{
	extern __shared__ char smem[];
	typename Traits::storage &st =
	    reinterpret_cast<typename Traits::storage &>(smem);
	if (threadIdx.x == 0)
		st.scale = s;
	__syncthreads();
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = x[i] * st.scale;
}

void scale(float *y, const float *x, float s, int n)
{
	scale_kernel<scale_traits<float>>
	    <<<(n + 127) / 128, 128, sizeof(float)>>>(y, x, s, n);
}
