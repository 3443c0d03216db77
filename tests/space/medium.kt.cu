// big.kt.cu with smaller domains (raw product 2,239,488): brute force counts
// it in a second or two, so bench/space.sh checks the space against it under
// several problem sizes and device limits.
#pragma kt param BLOCK_M pow2(16, 128) default(64)
#pragma kt param BLOCK_N pow2(16, 128) default(64)
#pragma kt param BLOCK_K pow2(8, 32) default(16)
#pragma kt param WARP_M pow2(16, 64) default(32)
#pragma kt param WARP_N pow2(16, 64) default(32)
#pragma kt param THREAD_M range(1, 8) default(4)
#pragma kt param THREAD_N range(1, 8) default(8)
#pragma kt param VEC values(1, 2, 4) default(4)
#pragma kt param STAGES range(1, 3) default(2)
#pragma kt param UNROLL values(1, 2, 4) default(4)
#pragma kt param SPLIT_K values(1, 2, 4) default(1)
#pragma kt problem M values(4096, 1024)
#pragma kt problem N values(4096, 1024)
#pragma kt problem K values(4096, 1024)
#pragma kt set WARPS = (BLOCK_M / WARP_M) * (BLOCK_N / WARP_N)
#pragma kt set THREADS = WARPS * DEVICE_WARP_SIZE
#pragma kt set SMEM = STAGES * (BLOCK_M + BLOCK_N) * BLOCK_K * 4
#pragma kt constraint BLOCK_M % WARP_M == 0 && BLOCK_N % WARP_N == 0
#pragma kt constraint WARP_M % THREAD_M == 0 && WARP_N % THREAD_N == 0
#pragma kt constraint (WARP_M / THREAD_M) * (WARP_N / THREAD_N) == DEVICE_WARP_SIZE
#pragma kt constraint THREADS <= DEVICE_MAX_THREADS_PER_BLOCK
#pragma kt constraint THREAD_N % VEC == 0 && BLOCK_K % VEC == 0
#pragma kt constraint SMEM <= DEVICE_SMEM_PER_BLOCK
#pragma kt constraint K % (BLOCK_K * SPLIT_K) == 0 && M % BLOCK_M == 0 && N % BLOCK_N == 0
#pragma kt launch grid(div_ceil(N, BLOCK_N), div_ceil(M, BLOCK_M), SPLIT_K) block(THREADS) smem(SMEM)
#pragma kt arg a f32[M * K] in
#pragma kt arg b f32[K * N] in
#pragma kt arg c f32[M * N] out
#pragma kt arg m i32 = M
#pragma kt arg n i32 = N
#pragma kt arg k i32 = K
__global__ void matmul(const float *a, const float *b, float *c, int m, int n,
		       int k)
{
	/* The body is not what this file is for: ktc space reads only the
	 * pragmas. A real kernel would tile with the parameters above. */
	int row = blockIdx.y * BLOCK_M + threadIdx.x / (BLOCK_N / THREAD_N);
	int col = blockIdx.x * BLOCK_N + threadIdx.x % (BLOCK_N / THREAD_N);
	if (row < m && col < n) {
		float acc = 0.0f;
		for (int i = 0; i < k; i++)
			acc += a[row * k + i] * b[i * n + col];
		c[row * n + col] = acc;
	}
}
