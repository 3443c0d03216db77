// host_platform: host code whose declarations come from the platform
// (an alias of pid_t, a typedef for Linux only, `using std::string`), a
// host class template of the file's header instantiated explicitly, and a
// kernel that uses assert without including <assert.h>, surface reads
// and writes, and cuRAND's device API (which NVRTC compiles).
#include "host_platform.h"

#include <curand_kernel.h>
#include <string>

using std::string;

__global__ void noise_kernel(float *data, cudaSurfaceObject_t surf, int n,
                             unsigned long long seed)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	assert(n > 0);
	if (i < n) {
		curandStatePhilox4_32_10_t state;
		curand_init(seed, i, 0, &state);
		float v = surf2Dread<float>(surf, 4 * (i % 16), i / 16);
		surf2Dwrite(v + 1.0f, surf, 4 * (i % 16), i / 16);
		data[i] += curand_uniform(&state);
	}
}

void simulation::step(float *data, int n)
{
	noise_kernel<<<(n + 127) / 128, 128>>>(data, 0, n, 42ull);
}

template <typename Real> engine<Real>::engine(int n) : n_(n) {}

template <typename Real> void engine<Real>::run(Real *data)
{
	(void)data;
}

template class engine<float>;
template class engine<double>;
