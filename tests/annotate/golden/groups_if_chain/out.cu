// Per-token-group quantisation as serving stacks write it: each group of
// 16 threads one group of the input, reduced by an unrolled xor-shuffle
// max under a mask computed from threadIdx; the host picks the groups of
// a block with an if-chain (the largest power of two up to 16 that
// divides the groups) and launches from a macro through `dim3` locals,
// one launch a branch. The group's 16 (the kernel's const, the lane
// loops' step and the host's constexpr) becomes TPG, the if-chain's top
// GPB: the chain gives way to `E % GPB == 0 ? GPB : E & -E`, the same
// value at GPB = 16. The 16 of `16 / sizeof(__half)` counts bytes, not
// threads, and stays.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#ifndef GROUP_QUANT_TPG
#define GROUP_QUANT_TPG 16
#endif
#ifndef GROUP_QUANT_GPB
#define GROUP_QUANT_GPB 16
#endif

__device__ __forceinline__ float group_reduce_max(float val)
{
	unsigned mask = threadIdx.x % 32 >= 16 ? 0xffff0000 : 0x0000ffff;
	val = fmaxf(val, __shfl_xor_sync(mask, val, (8 % GROUP_QUANT_TPG)));
	val = fmaxf(val, __shfl_xor_sync(mask, val, (4 % GROUP_QUANT_TPG)));
	val = fmaxf(val, __shfl_xor_sync(mask, val, (2 % GROUP_QUANT_TPG)));
	val = fmaxf(val, __shfl_xor_sync(mask, val, (1 % GROUP_QUANT_TPG)));
	return val;
}

#pragma kt param GROUP_QUANT_TPG values(2, 4, 8, 16) default(16)
#pragma kt param GROUP_QUANT_GPB values(1, 2, 4, 8, 16, 32, 64) default(16)
#pragma kt constraint (((((num_tokens * (hidden / group_size)) % GROUP_QUANT_GPB == 0 ? GROUP_QUANT_GPB : (num_tokens * (hidden / group_size)) & -(num_tokens * (hidden / group_size))) * GROUP_QUANT_TPG))) <= DEVICE_MAX_THREADS_PER_BLOCK
// ktc: complete and uncomment: #pragma kt problem num_tokens values(?)
// ktc: complete and uncomment: #pragma kt problem hidden values(?)
// ktc: complete and uncomment: #pragma kt problem group_size values(?)
#pragma kt launch grid((((num_tokens * (hidden / group_size)) / ((num_tokens * (hidden / group_size)) % GROUP_QUANT_GPB == 0 ? GROUP_QUANT_GPB : (num_tokens * (hidden / group_size)) & -(num_tokens * (hidden / group_size)))))) block(((((num_tokens * (hidden / group_size)) % GROUP_QUANT_GPB == 0 ? GROUP_QUANT_GPB : (num_tokens * (hidden / group_size)) & -(num_tokens * (hidden / group_size))) * GROUP_QUANT_TPG)))
// ktc: complete and uncomment: #pragma kt arg input __half[?] in
// ktc: complete and uncomment: #pragma kt arg output_q signed char[?] out
// ktc: complete and uncomment: #pragma kt arg output_s float[?] out
#pragma kt arg group_size int = group_size
#pragma kt arg num_groups int = (num_tokens * (hidden / group_size))
#pragma kt arg groups_per_block int = ((num_tokens * (hidden / group_size)) % GROUP_QUANT_GPB == 0 ? GROUP_QUANT_GPB : (num_tokens * (hidden / group_size)) & -(num_tokens * (hidden / group_size)))
__global__ void group_quant(const __half *__restrict__ input,
                            signed char *__restrict__ output_q,
                            float *__restrict__ output_s, int group_size,
                            int num_groups, int groups_per_block)
{
	const int threads_per_group = GROUP_QUANT_TPG;
	const int local_group_id = threadIdx.x / threads_per_group;
	const int lane_id = threadIdx.x % threads_per_group;
	const int group_id = blockIdx.x * groups_per_block + local_group_id;
	if (group_id >= num_groups)
		return;
	const __half *in = input + (long)group_id * group_size;
	signed char *out = output_q + (long)group_id * group_size;
	constexpr int vec_size = 16 / sizeof(__half);
	const int num_vec = group_size / vec_size;
	float absmax = 1e-10f;
	for (int i = lane_id; i < num_vec; i += GROUP_QUANT_TPG)
		for (int j = 0; j < vec_size; j++)
			absmax = fmaxf(absmax,
			               fabsf(__half2float(in[i * vec_size + j])));
	absmax = group_reduce_max(absmax);
	const float scale = absmax / 127.0f;
	if (lane_id == 0)
		output_s[group_id] = scale;
	for (int i = lane_id; i < num_vec; i += GROUP_QUANT_TPG)
		for (int j = 0; j < vec_size; j++)
			out[i * vec_size + j] = (signed char)rintf(fminf(
			    fmaxf(__half2float(in[i * vec_size + j]) / scale,
			          -127.f),
			    127.f));
}

#ifndef __CUDACC_RTC__
void group_quant_launch(const __half *input, signed char *output_q,
                        float *output_s, int num_tokens, int hidden,
                        int group_size, bool on_side, cudaStream_t stream,
                        cudaStream_t side)
{
	const int num_groups = num_tokens * (hidden / group_size);
	constexpr int THREADS_PER_GROUP = GROUP_QUANT_TPG;
	int groups_per_block = 1;
	groups_per_block = (num_groups % GROUP_QUANT_GPB == 0 ? GROUP_QUANT_GPB : (int)(num_groups & -num_groups));
	const int num_blocks = num_groups / groups_per_block;
	const int num_threads = groups_per_block * THREADS_PER_GROUP;
#define LAUNCH_QUANT()                                                         \
	do {                                                                   \
		dim3 grid(num_blocks);                                         \
		dim3 block(num_threads);                                       \
		if (on_side)                                                   \
			group_quant<<<grid, block, 0, side>>>(                 \
			    input, output_q, output_s, group_size, num_groups, \
			    groups_per_block);                                 \
		else                                                           \
			group_quant<<<grid, block, 0, stream>>>(               \
			    input, output_q, output_s, group_size, num_groups, \
			    groups_per_block);                                 \
	} while (0)
	LAUNCH_QUANT();
#undef LAUNCH_QUANT
}
#endif
