#include <cuda_runtime.h>
#ifndef __CUDACC_RTC__
#include <cstdint>
#include <vector>
#elif !defined(KTC_RTC_HEADERS_GIVEN)
#include <cuda/std/cstdint>
#endif

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 512
#endif
#ifndef SPLIT
#define SPLIT 1
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif

/* stand-ins for a framework's tensor: what makes one is its members
 * (data_ptr, size, numel), here partly inherited */
#ifndef __CUDACC_RTC__
struct Storage {
	std::vector<int64_t> shape;
	void *ptr;
	int64_t numel() const
	{
		int64_t n = 1;
		for (auto v : shape)
			n *= v;
		return n;
	}
	template <typename T> T *data_ptr() const { return (T *)ptr; }
};
struct Tensor : Storage {
	int64_t size(int d) const { return shape[d]; }
	int64_t stride(int d) const { return d + 1 < (int)shape.size() ? shape[d + 1] : 1; }
};
#endif

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(512)
#pragma kt param SPLIT values(1, 2, 4, 8, 16, 32) default(1)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem in_size_0 values(?)
// ktc: complete and uncomment: #pragma kt problem in_size_1 values(?)
#pragma kt launch grid(in_size_0, SPLIT) block(BLOCK_SIZE)
#pragma kt arg out float[in_size_0 * in_size_1] out
#pragma kt arg in float[in_size_0 * in_size_1] in
#pragma kt arg w float[in_size_1] in
#pragma kt arg hidden int = in_size_1
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
row_scale_kernel(float *out, const float *in, const float *w,
                                 int hidden)
{
	for (int i = threadIdx.x + (SPLIT == 1 ? 0 : blockIdx.y * blockDim.x); i < hidden; i += (blockDim.x) * (SPLIT == 1 ? 1 : gridDim.y))
		out[blockIdx.x * hidden + i] = in[blockIdx.x * hidden + i] * w[i];
}

#ifndef __CUDACC_RTC__
void row_scale(Tensor &out, const Tensor &in, const Tensor &w, cudaStream_t s)
{
	int rows = in.size(0), hidden = in.size(1);
	row_scale_kernel<<<dim3(rows, SPLIT), BLOCK_SIZE, 0, s>>>(out.data_ptr<float>(),
	                                      in.data_ptr<float>(),
	                                      w.data_ptr<float>(), hidden);
}
#endif
