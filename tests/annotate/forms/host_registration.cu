// host_registration: the launcher registered with a Python-binding macro
// in the shape of PYBIND11_MODULE and TORCH_LIBRARY: it expands to a
// C-linkage entry point, a static registrar object and a function that
// registers (stand-in host types, self-written for the test).
#include <cuda_runtime.h>
#include <string>
#include <vector>

namespace bind {
struct module {
	std::vector<std::string> defs;
	template <typename F> void def(const char *name, F) { defs.push_back(name); }
};
struct registrar {
	explicit registrar(void (*init)(module &)) { module m; init(m); }
};
} // namespace bind

#define BIND_MODULE(name, m)                                                   \
	static void bind_init_##name(bind::module &);                          \
	extern "C" int bind_entry_##name(void) { return 0; }                   \
	static const bind::registrar bind_reg_##name(&bind_init_##name);       \
	void bind_init_##name(bind::module &m)

__global__ void relu_kernel(float *y, const float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = x[i] > 0.0f ? x[i] : 0.0f;
}

void relu(float *y, const float *x, int n)
{
	relu_kernel<<<(n + 255) / 256, 256>>>(y, x, n);
}

BIND_MODULE(ops, m) { m.def("relu", &relu); }
