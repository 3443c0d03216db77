// Per-group scaling: 64 elements per group (the data format), 8 threads
// per group through an xor butterfly with fixed offsets 4, 2, 1.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

constexpr int kGroupSize = 64;

__device__ float group_absmax(float v)
{
	v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, 4));
	v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, 2));
	v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, 1));
	return v;
}

__global__ void group_scale(const half *in, float *scales, int groups)
{
	const int threads_per_group = 8;
	const int g = blockIdx.x * 32 + threadIdx.x / threads_per_group;
	const int lane = threadIdx.x % threads_per_group;
	if (g >= groups)
		return;
	float m = 0.0f;
	for (int i = lane; i < kGroupSize; i += threads_per_group)
		m = fmaxf(m, fabsf(__half2float(in[g * kGroupSize + i])));
	m = group_absmax(m);
	if (lane == 0)
		scales[g] = m / 448.0f;
}

void group_scale_launch(const half *in, float *scales, int groups)
{
	const int groups_per_block = 32;
	group_scale<<<(groups + groups_per_block - 1) / groups_per_block,
		      groups_per_block * 8>>>(in, scales, groups);
}
