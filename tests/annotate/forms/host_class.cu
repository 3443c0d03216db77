// host_class: a host class (standard containers, a method that
// launches), a host struct template, and a plain struct the kernel takes
// by value (which NVRTC must still see).
#include <cuda_runtime.h>
#include <map>
#include <string>

struct axpy_args {
	float a;
	int n;
};

__global__ void axpy_kernel(float *y, const float *x, axpy_args p)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < p.n)
		y[i] += p.a * x[i];
}

template <typename T> struct host_buffer {
	T *ptr = nullptr;
	std::string name;
};

class runner {
      public:
	void axpy(float *y, const float *x, float a, int n)
	{
		calls_["axpy"]++;
		axpy_kernel<<<(n + 255) / 256, 256>>>(y, x, axpy_args{a, n});
	}

      private:
	std::map<std::string, int> calls_;
};
