// Device code that uses the C++ standard library's compile-time parts
// (<type_traits>, <limits>), as serving kernels do.
#include <limits>
#include <type_traits>

#include "std_device.h"

template <typename T>
__global__ void clamp_twice(T *y, const T *x, int n)
{
	int i = blockIdx.x * 256 + threadIdx.x;
	if (i >= n)
		return;
	T v = twice(x[i]);
	if constexpr (std::is_same_v<T, int>)
		v = v > std::numeric_limits<int>::max() / 2 ? 0 : v;
	y[i] = v;
}

void launch(float *y, const float *x, int n)
{
	clamp_twice<float><<<(n + 255) / 256, 256>>>(y, x, n);
}
