// host_class: a host class (standard containers, a method that
// launches), a host struct template, and a plain struct the kernel takes
// by value (which NVRTC must still see).
#include <cuda_runtime.h>
#ifndef __CUDACC_RTC__
#include <map>
#include <string>
#endif

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif

struct axpy_args {
	float a;
	int n;
};

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid((n + (BLOCK_SIZE - 1)) / BLOCK_SIZE) block(BLOCK_SIZE)
// ktc: complete and uncomment: #pragma kt arg y float[?] inout
// ktc: complete and uncomment: #pragma kt arg x float[?] in
// ktc: complete and uncomment: #pragma kt arg p axpy_args = ?
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
axpy_kernel(float *y, const float *x, axpy_args p)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < p.n)
		y[i] += p.a * x[i];
}

#ifndef __CUDACC_RTC__
template <typename T> struct host_buffer {
	T *ptr = nullptr;
	std::string name;
};

class runner {
      public:
	void axpy(float *y, const float *x, float a, int n)
	{
		calls_["axpy"]++;
		axpy_kernel<<<(n + (BLOCK_SIZE - 1)) / BLOCK_SIZE, BLOCK_SIZE>>>(y, x, axpy_args{a, n});
	}

      private:
	std::map<std::string, int> calls_;
};
#endif
