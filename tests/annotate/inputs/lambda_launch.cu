// Launches inside generic lambdas, as dispatch code writes them: a local
// lambda that takes the kernel (`auto launch = [&](auto kernel) {
// kernel<<<g, b>>>(...); }`, called with each kernel), and one that takes
// a type tag and instantiates the kernel with the tag's type (`[&](auto
// t) { using T = typename decltype(t)::type; k<T><<<...>>>(...); }`,
// called once per type). The launch is derived at the lambda's first call.
#include <cuda_runtime.h>

template <typename T>
__global__ void scale_kernel(T *out, const T *in, float a, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = (T)(a * (float)in[i]);
}

__global__ void twice_kernel(float *out, const float *in, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = 2.0f * in[i];
}

void twice(float *out, const float *in, int n, cudaStream_t s)
{
	dim3 grid((n + 255) / 256), block(256);
	auto launch = [&](auto kernel) {
		kernel<<<grid, block, 0, s>>>(out, in, n);
	};
	launch(twice_kernel);
}

template <typename T> struct type_tag {
	using type = T;
};

void scale(void *out, const void *in, float a, int n, bool wide,
           cudaStream_t s)
{
	auto run = [&](auto t) {
		using T = typename decltype(t)::type;
		scale_kernel<T><<<(n + 127) / 128, 128, 0, s>>>(
		    (T *)out, (const T *)in, a, n);
	};
	if (wide)
		run(type_tag<double>{});
	else
		run(type_tag<float>{});
}
