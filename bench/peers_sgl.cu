// peers_sgl.cu - SGLang's kernels behind a C entry point each, for the
// timing harness of bench/peers.sh (bench/peers_time.py calls them through
// ctypes with torch's tensors and stream). No PyTorch here: the device code
// comes from SGLang's own files (bench/peers_cut.py keeps each file up to
// its torch entry point), and each entry point below restates what that
// torch entry point does for contiguous bf16 tensors: the same grid, block,
// template arguments and launch attributes, line for line.
//
// One part per translation unit (PEERS_PART 1 to 5): the files define
// functions of the same names (silu, GroupReduceMax, the quantisation
// kernel), which must not meet in one unit. Build (bench/peers.sh):
//   nvcc -DPEERS_PART=N -I CUT -I SGL/flashinfer/include -c peers_sgl.cu
// five times, then link the objects into one shared library.
#include <cuda_runtime.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

// What the kept parts use of the headers left out: TORCH_CHECK (in a host
// helper of the v2 file) and the tag type of an fp8 output (v2).
#define TORCH_CHECK(cond, ...) \
	do { \
		if (!(cond)) \
			throw std::runtime_error("check failed: " #cond); \
	} while (0)
namespace c10 {
struct Float8_e4m3fn {
	uint8_t x;
};
} // namespace c10

#if PEERS_PART == 1
#include "activation.cuh"

// Not SGLang's: the floor of the harness, an empty kernel launched through
// the same kind of C entry point, timed like the others.
__global__ void peers_empty_kernel() {}
extern "C" int peers_empty(void *stream)
{
	peers_empty_kernel<<<1, 32, 0, (cudaStream_t)stream>>>();
	return (int)cudaGetLastError();
}

// activation.cu silu_and_mul(out, input): bf16, d = input.size(-1) / 2.
extern "C" int sgl_silu_and_mul(void *out, const void *in, int tokens, int d, void *stream)
{
	typedef nv_bfloat16 c_type;
	dim3 grid(tokens);
	uint32_t vec_size = 16 / sizeof(c_type);
	dim3 block(std::min(d / vec_size, 1024U));
	flashinfer::activation::act_and_mul_kernel<c_type, silu>
		<<<grid, block, 0, (cudaStream_t)stream>>>(static_cast<c_type *>(out),
							   static_cast<const c_type *>(in), d);
	return (int)cudaGetLastError();
}
#elif PEERS_PART == 2
#include <flashinfer/norm.cuh>

// fused_add_rms_norm_kernel.cu sgl_fused_add_rmsnorm(input, residual,
// weight, eps, enable_pdl): bf16, contiguous rows (strides d). SGLang's
// Python passes enable_pdl = (compute capability >= 9) when not given.
extern "C" int sgl_fused_add_rmsnorm(void *in, void *residual, void *w, int tokens, int d,
				     float eps, int enable_pdl, void *stream)
{
	typedef nv_bfloat16 c_type;
	cudaError_t status = flashinfer::norm::FusedAddRMSNorm(
		static_cast<c_type *>(in), static_cast<c_type *>(residual),
		static_cast<c_type *>(w), (unsigned)tokens, (unsigned)d, (unsigned)d, (unsigned)d,
		eps, enable_pdl != 0, (cudaStream_t)stream);
	return status != cudaSuccess ? (int)status : (int)cudaGetLastError();
}
#elif PEERS_PART == 3
#include <cmath>
#include <limits>
#include "merge_attn_states.cuh"

// merge_attn_states.cu merge_state_v2(v_a, s_a, v_b, s_b, v_merged,
// s_merged) -> merge_attn_states_launcher<bf16>.
extern "C" int sgl_merge_state_v2(void *out, void *out_lse, const void *va, const void *sa,
				  const void *vb, const void *sb, int tokens, int heads,
				  int head_size, void *stream)
{
	typedef __nv_bfloat16 scalar_t;
	constexpr uint NUM_THREADS = 128;
	const uint pack_size = 16 / sizeof(scalar_t);
	if (head_size % pack_size)
		return (int)cudaErrorInvalidValue;
	const uint threads_per_head = head_size / pack_size;
	const uint total_threads = tokens * heads * threads_per_head;
	dim3 block(NUM_THREADS);
	dim3 grid((total_threads + NUM_THREADS - 1) / NUM_THREADS);
	merge_attn_states_kernel<scalar_t, NUM_THREADS><<<grid, block, 0, (cudaStream_t)stream>>>(
		reinterpret_cast<scalar_t *>(out), reinterpret_cast<float *>(out_lse),
		reinterpret_cast<const scalar_t *>(va), reinterpret_cast<const float *>(sa),
		reinterpret_cast<const scalar_t *>(vb), reinterpret_cast<const float *>(sb),
		tokens, heads, head_size);
	return (int)cudaGetLastError();
}
#elif PEERS_PART == 4
#include "per_token_group_quant_8bit.cuh"

// per_token_group_quant_8bit.cu sgl_per_token_group_quant_8bit: bf16 in,
// fp8 e4m3 out, row-major scales (output_s [tokens, d / group]).
extern "C" int sgl_per_token_group_quant_8bit(const void *in, void *q, void *s, int tokens, int d,
					      int group_size, float eps, float min_8bit,
					      float max_8bit, void *stream)
{
	typedef __nv_bfloat16 T;
	const int num_groups = (int)((long)tokens * d / group_size);
	constexpr int THREADS_PER_GROUP = 16;
	int groups_per_block = 1;
	if (num_groups % 16 == 0)
		groups_per_block = 16;
	else if (num_groups % 8 == 0)
		groups_per_block = 8;
	else if (num_groups % 4 == 0)
		groups_per_block = 4;
	else if (num_groups % 2 == 0)
		groups_per_block = 2;
	const int num_blocks = num_groups / groups_per_block;
	const int num_threads = groups_per_block * THREADS_PER_GROUP;
	dim3 grid(num_blocks);
	dim3 block(num_threads);
	per_token_group_quant_8bit_kernel<T, __nv_fp8_e4m3, false>
		<<<grid, block, 0, (cudaStream_t)stream>>>(static_cast<const T *>(in), q,
							   static_cast<float *>(s), group_size,
							   num_groups, groups_per_block, eps,
							   min_8bit, max_8bit);
	return (int)cudaGetLastError();
}
#elif PEERS_PART == 5
#include "per_token_group_quant_8bit_v2.cuh"

// sgl-kernel/include/utils.h getEnvEnablePDL: PDL for sm_90 and later when
// TRTLLM_ENABLE_PDL is "1".
static bool env_enable_pdl()
{
	int dev = 0, major = 0;
	cudaGetDevice(&dev);
	cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev);
	const char *e = getenv("TRTLLM_ENABLE_PDL");
	return major >= 9 && e && strcmp(e, "1") == 0;
}

// per_token_group_quant_8bit_v2.cu sgl_per_token_group_quant_8bit_v2 with
// no silu fusion, no masked layout, row-major float scales: the path
// SGLang's Python takes for group sizes 16, 32, 64 and 128. The group size
// is a template argument there; 128 only here.
extern "C" int sgl_per_token_group_quant_8bit_v2(const void *in, void *q, void *s, int tokens,
						 int d, int group_size, float eps, float min_8bit,
						 float max_8bit, void *stream)
{
	typedef __nv_bfloat16 T;
	typedef c10::Float8_e4m3fn DST_DTYPE;
	constexpr int GROUP_SIZE = 128;
	constexpr int THREADS_PER_SUBWARP = GROUP_SIZE / 16;
	if (group_size != GROUP_SIZE || std::abs(LOCAL_ABSMAX_ABS - eps) >= 1e-13 ||
	    DtypeInfo<DST_DTYPE>::MIN != min_8bit || DtypeInfo<DST_DTYPE>::MAX != max_8bit ||
	    THREADS_PER_SUBWARP * INPUT_PRIMARY_VEC_NUM_BYTES != group_size * sizeof(T))
		return (int)cudaErrorInvalidValue;
	const int num_groups = (int)((long)tokens * d / group_size);
	const int num_local_experts = 1;
	const int hidden_dim_num_groups = d / group_size;
	const int num_tokens_per_expert = tokens;
	const int scale_expert_stride = 0;
	const int scale_hidden_stride = 1; // output_s.stride(-1) of [tokens, groups]
	int subwarps_per_block;
	dim3 grid, block;
	NaiveScheduler::compute_exec_config(THREADS_PER_SUBWARP, num_local_experts,
					    hidden_dim_num_groups, num_groups, subwarps_per_block,
					    grid, block);
	cudaLaunchConfig_t config;
	config.gridDim = grid;
	config.blockDim = block;
	config.dynamicSmemBytes = 0;
	config.stream = (cudaStream_t)stream;
	cudaLaunchAttribute attrs[1];
	attrs[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
	attrs[0].val.programmaticStreamSerializationAllowed = env_enable_pdl();
	config.numAttrs = 1;
	config.attrs = attrs;
	cudaError_t e = cudaLaunchKernelEx(
		&config,
		per_token_group_quant_8bit_kernel<NaiveScheduler, GROUP_SIZE, THREADS_PER_SUBWARP, T,
						  DST_DTYPE, false>,
		static_cast<const T *>(in), static_cast<DST_DTYPE *>(q), static_cast<float *>(s),
		static_cast<const int32_t *>(nullptr), subwarps_per_block, hidden_dim_num_groups,
		scale_expert_stride, scale_hidden_stride, num_tokens_per_expert);
	return e != cudaSuccess ? (int)e : (int)cudaGetLastError();
}
#else
#error "PEERS_PART must be 1 to 5"
#endif
