// peers_ktc.cu - a sample template of samples/cuda with its tuned values
// fixed (`ktc apply`) behind a C entry point, for the timing harness of
// bench/peers.sh (bench/peers_time.py, through ctypes). The template comes
// in with nvcc's -include; its own host function launches the kernel, as a
// user of the template would call it. PEERS_KERNEL picks the entry point:
//   nvcc -shared -include best.kt.cu -DPEERS_KERNEL=1 peers_ktc.cu -o x.so
#include <cuda_runtime.h>

#if PEERS_KERNEL == 1 // samples/cuda/silu_and_mul
extern "C" int ktc_silu_and_mul(void *out, const void *in, int tokens, int d, void *stream)
{
	return (int)silu_and_mul(static_cast<__nv_bfloat16 *>(out),
				 static_cast<const __nv_bfloat16 *>(in), tokens, d,
				 (cudaStream_t)stream);
}
#elif PEERS_KERNEL == 2 // samples/cuda/fused_add_rmsnorm
extern "C" int ktc_fused_add_rmsnorm(void *in, void *residual, void *w, int tokens, int d,
				     float eps, void *stream)
{
	return (int)fused_add_rmsnorm(static_cast<__nv_bfloat16 *>(in),
				      static_cast<__nv_bfloat16 *>(residual),
				      static_cast<const __nv_bfloat16 *>(w), tokens, d, eps,
				      (cudaStream_t)stream);
}
#elif PEERS_KERNEL == 3 // samples/cuda/merge_attn_states
extern "C" int ktc_merge_attn_states(void *out, void *out_lse, const void *va, const void *sa,
				     const void *vb, const void *sb, int tokens, int heads, int dim,
				     void *stream)
{
	return (int)merge_attn_states(
		static_cast<__nv_bfloat16 *>(out), static_cast<float *>(out_lse),
		static_cast<const __nv_bfloat16 *>(va), static_cast<const float *>(sa),
		static_cast<const __nv_bfloat16 *>(vb), static_cast<const float *>(sb), tokens,
		heads, dim, (cudaStream_t)stream);
}
#elif PEERS_KERNEL == 4 // samples/cuda/per_token_group_quant_fp8
extern "C" int ktc_per_token_group_quant_fp8(const void *in, void *q, void *s, int tokens, int d,
					     void *stream)
{
	return (int)per_token_group_quant_fp8(static_cast<const __nv_bfloat16 *>(in),
					      static_cast<__nv_fp8_e4m3 *>(q),
					      static_cast<float *>(s), tokens, d,
					      (cudaStream_t)stream);
}
#else
#error "PEERS_KERNEL must be 1 to 4"
#endif
