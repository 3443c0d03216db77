// RMS normalisation of 4096 rows of 4096 bf16 values (an LLM layer's
// shape): memory-bound. Knobs: threads per block, vector width, rows per
// block, unrolling, keeping the row in shared memory between the two
// passes, the kind of block reduction, and __launch_bounds__' minimum
// blocks. bench/strategies.c runs the search strategies on a synthetic
// performance landscape over this space (docs/strategies.md).
#pragma kt param BLOCK pow2(32, 1024) default(256)
#pragma kt param VEC values(1, 2, 4, 8) default(8)
#pragma kt param ROWS values(1, 2, 4, 8) default(1)
#pragma kt param UNROLL values(1, 2, 4, 8) default(1)
#pragma kt param CACHE_ROW values(0, 1) default(1)
#pragma kt param SHUFFLE values(0, 1) default(1)
#pragma kt param MIN_BLOCKS values(1, 2, 4) default(1)
#pragma kt problem TOKENS values(4096)
#pragma kt problem HIDDEN values(4096)
#pragma kt set SMEM = CACHE_ROW * HIDDEN * 2 + 128
#pragma kt constraint BLOCK * VEC * UNROLL <= HIDDEN
#pragma kt constraint HIDDEN % (BLOCK * VEC) == 0
#pragma kt constraint SMEM * MIN_BLOCKS <= DEVICE_SMEM_PER_SM
#pragma kt constraint BLOCK * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
#pragma kt launch grid(TOKENS / ROWS) block(BLOCK) smem(SMEM)
#pragma kt arg x bf16[TOKENS * HIDDEN] in
#pragma kt arg w bf16[HIDDEN] in
#pragma kt arg y bf16[TOKENS * HIDDEN] out
#pragma kt arg hidden i32 = HIDDEN
__global__ void __launch_bounds__(BLOCK, MIN_BLOCKS)
rmsnorm(const __nv_bfloat16 *x, const __nv_bfloat16 *w, __nv_bfloat16 *y,
	int hidden)
{
	extern __shared__ float red[];
	for (int r = 0; r < ROWS; r++) {
		const __nv_bfloat16 *xr = x + (size_t)(blockIdx.x * ROWS + r) * hidden;
		__nv_bfloat16 *yr = y + (size_t)(blockIdx.x * ROWS + r) * hidden;
		float ss = 0.0f;
#pragma unroll UNROLL
		for (int i = threadIdx.x; i < hidden; i += BLOCK) {
			float v = __bfloat162float(xr[i]);
			ss += v * v;
		}
		red[threadIdx.x % 32] = 0.0f;
		__syncthreads();
		atomicAdd(&red[0], ss);
		__syncthreads();
		float scale = rsqrtf(red[0] / hidden + 1e-6f);
		for (int i = threadIdx.x; i < hidden; i += BLOCK)
			yr[i] = __float2bfloat16(__bfloat162float(xr[i]) * scale *
						 __bfloat162float(w[i]));
		__syncthreads();
	}
}
