// dependent_host_call: a host function template calls another with its
// arguments' types left to deduction (`cont_cuda(x + r * ..., ...)` with
// x a `const T *` in `run_cuda<T>`), which clang leaves unresolved inside
// a template: the kernel's type argument follows the chain to the call
// that fixes T (`run_cuda<float>`), through a sum of a pointer and an
// offset that names T (`x + r * (n * sizeof(T) / sizeof(T))`), which
// libclang gives no type inside the template (up to ef0cdd3 such a sum
// was not followed). A generic lambda's `auto d` given as a template
// argument names nothing `ktc tune` can instantiate: the line is left to
// complete (it read `"d"`).
#include <type_traits>
template <typename T, int dim>
__global__ void cont(const T *x, T *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = x[i] + (T)dim;
}

template <typename T, int dim>
__global__ void noncont(const char *x, char *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		((T *)y)[i] = ((const T *)x)[i] + (T)dim;
}

template <typename T>
static void cont_cuda(const T *x, T *y, int n, int dim, cudaStream_t st)
{
	const int nb = (n + 255) / 256;
	if (dim == 0) {
		cont<T, 0><<<nb, 256, 0, st>>>(x, y, n);
		return;
	}
	cont<T, 1><<<nb, 256, 0, st>>>(x, y, n);
}

template <typename T>
static void run_cuda(const void *xv, void *yv, int n, int dim, cudaStream_t st)
{
	const T *x = (const T *)xv;
	T *y = (T *)yv;
	if (dim < 2) {
		for (int64_t r = 0; r < 1; r++)
			cont_cuda(x + r * (n * sizeof(T) / sizeof(T)), y + r * n,
			          n, dim, st);
		return;
	}
	auto launch = [&](auto d) {
		noncont<T, d><<<(n + 127) / 128, 128, 0, st>>>((const char *)xv, (char *)yv, n);
	};
	if (dim == 2)
		launch(std::integral_constant<int, 2>{});
	else
		launch(std::integral_constant<int, 3>{});
}

void run(const void *x, void *y, int n, int dim, int size, cudaStream_t st)
{
	switch (size) {
	case 4: run_cuda<float>(x, y, n, dim, st); break;
	case 8: run_cuda<double>(x, y, n, dim, st); break;
	}
}
