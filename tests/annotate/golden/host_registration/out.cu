// host_registration: the launcher registered with a Python-binding macro
// in the shape of PYBIND11_MODULE and TORCH_LIBRARY: it expands to a
// C-linkage entry point, a static registrar object and a function that
// registers (stand-in host types, self-written for the test).
#include <cuda_runtime.h>
#ifndef __CUDACC_RTC__
#include <string>
#include <vector>
#endif

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#ifndef ITEMS_PER_THREAD
#define ITEMS_PER_THREAD 1
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif

namespace bind {
#ifndef __CUDACC_RTC__
struct module {
	std::vector<std::string> defs;
	template <typename F> void def(const char *name, F) { defs.push_back(name); }
};
struct registrar {
	explicit registrar(void (*init)(module &)) { module m; init(m); }
};
#endif
} // namespace bind

#define BIND_MODULE(name, m)                                                   \
	static void bind_init_##name(bind::module &);                          \
	extern "C" int bind_entry_##name(void) { return 0; }                   \
	static const bind::registrar bind_reg_##name(&bind_init_##name);       \
	void bind_init_##name(bind::module &m)

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param ITEMS_PER_THREAD values(1, 2, 4, 8) default(1)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(div_ceil((n + (BLOCK_SIZE - 1)) / BLOCK_SIZE, ITEMS_PER_THREAD)) block(BLOCK_SIZE)
#pragma kt arg y float[n] out
#pragma kt arg x float[n] in
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
relu_kernel(float *y, const float *x, int n)
{
#pragma unroll
	for (int kt_item = 0; kt_item < ITEMS_PER_THREAD; kt_item++) {
		int i = (blockIdx.x * blockDim.x + threadIdx.x) + kt_item * gridDim.x * blockDim.x;
		if (i < n)
			y[i] = x[i] > 0.0f ? x[i] : 0.0f;
	}
}

#ifndef __CUDACC_RTC__
void relu(float *y, const float *x, int n)
{
	relu_kernel<<<((((n + (BLOCK_SIZE - 1)) / BLOCK_SIZE) + ITEMS_PER_THREAD - 1) / ITEMS_PER_THREAD), BLOCK_SIZE>>>(y, x, n);
}

BIND_MODULE(ops, m) { m.def("relu", &relu); }
#endif
