// A tiled fp32 matrix multiply C = A * B (2048^3) with the knobs of a
// hand-written CUDA SGEMM: block tile, k-step, per-thread tile, vector
// loads, pipeline stages, unrolling. bench/strategies.c runs the search
// strategies on a synthetic performance landscape over this space
// (docs/strategies.md); the body below is a plain tiled kernel.
#pragma kt param BLOCK_M pow2(16, 256) default(64)
#pragma kt param BLOCK_N pow2(16, 256) default(64)
#pragma kt param BLOCK_K pow2(8, 64) default(16)
#pragma kt param THREAD_M values(1, 2, 4, 8) default(4)
#pragma kt param THREAD_N values(1, 2, 4, 8) default(4)
#pragma kt param VEC values(1, 2, 4) default(4)
#pragma kt param STAGES range(1, 3) default(2)
#pragma kt param UNROLL values(1, 2, 4, 8) default(4)
#pragma kt problem M values(2048)
#pragma kt problem N values(2048)
#pragma kt problem K values(2048)
#pragma kt set THREADS = (BLOCK_M / THREAD_M) * (BLOCK_N / THREAD_N)
#pragma kt set SMEM = STAGES * (BLOCK_M + BLOCK_N) * BLOCK_K * 4
#pragma kt constraint THREADS >= 32 && THREADS <= DEVICE_MAX_THREADS_PER_BLOCK
#pragma kt constraint THREAD_N % VEC == 0 && BLOCK_K % VEC == 0
#pragma kt constraint (BLOCK_M * BLOCK_K) % (THREADS * VEC) == 0 || (THREADS * VEC) % BLOCK_K == 0
#pragma kt constraint SMEM <= DEVICE_SMEM_PER_BLOCK_OPTIN
#pragma kt launch grid(div_ceil(N, BLOCK_N), div_ceil(M, BLOCK_M)) block(THREADS) smem(SMEM)
#pragma kt arg a f32[M * K] in
#pragma kt arg b f32[K * N] in
#pragma kt arg c f32[M * N] out
#pragma kt arg m i32 = M
#pragma kt arg n i32 = N
#pragma kt arg k i32 = K
__global__ void matmul(const float *a, const float *b, float *c, int m, int n,
		       int k)
{
	extern __shared__ float smem[];
	float *as = smem, *bs = smem + BLOCK_M * BLOCK_K;
	const int tx = threadIdx.x % (BLOCK_N / THREAD_N);
	const int ty = threadIdx.x / (BLOCK_N / THREAD_N);
	const int row0 = blockIdx.y * BLOCK_M, col0 = blockIdx.x * BLOCK_N;
	float acc[THREAD_M][THREAD_N] = {};
	for (int k0 = 0; k0 < k; k0 += BLOCK_K) {
		for (int i = threadIdx.x; i < BLOCK_M * BLOCK_K; i += blockDim.x)
			as[i] = a[(row0 + i / BLOCK_K) * k + k0 + i % BLOCK_K];
		for (int i = threadIdx.x; i < BLOCK_K * BLOCK_N; i += blockDim.x)
			bs[i] = b[(k0 + i / BLOCK_N) * n + col0 + i % BLOCK_N];
		__syncthreads();
#pragma unroll UNROLL
		for (int kk = 0; kk < BLOCK_K; kk++)
			for (int i = 0; i < THREAD_M; i++)
				for (int j = 0; j < THREAD_N; j++)
					acc[i][j] += as[(ty * THREAD_M + i) * BLOCK_K + kk] *
						     bs[kk * BLOCK_N + tx * THREAD_N + j];
		__syncthreads();
	}
	for (int i = 0; i < THREAD_M; i++)
		for (int j = 0; j < THREAD_N; j++)
			c[(row0 + ty * THREAD_M + i) * n + col0 + tx * THREAD_N + j] =
				acc[i][j];
}
