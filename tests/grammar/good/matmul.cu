/* Tiled matrix multiply: a 2-D launch, a template kernel, shared memory. */
#pragma kt param TILE_M pow2(16, 128) default(64)
#pragma kt param TILE_N pow2(16, 128) default(64)
#pragma kt param TILE_K values(8, 16, 32) default(16)
#pragma kt param THREADS_X values(8, 16, 32) default(16)
#pragma kt param THREADS_Y values(8, 16, 32) default(16)
#pragma kt param VEC range(1, 4) default(1)
#pragma kt problem M values(1024, 4096)
#pragma kt problem N values(1024, 4096)
#pragma kt problem K values(1024)
#pragma kt set THREADS = THREADS_X * THREADS_Y
#pragma kt set SMEM = (TILE_M + TILE_N) * TILE_K * 4
#pragma kt set WORK = TILE_M * TILE_N / THREADS
#pragma kt constraint THREADS <= DEVICE_MAX_THREADS_PER_BLOCK && THREADS % DEVICE_WARP_SIZE == 0
#pragma kt constraint TILE_M % THREADS_Y == 0 && TILE_N % (THREADS_X * VEC) == 0
#pragma kt constraint SMEM <= DEVICE_SMEM_PER_BLOCK
#pragma kt constraint WORK >= 1 && WORK <= 64 && (VEC & VEC - 1) == 0
#pragma kt constraint min(TILE_M, TILE_N) >= TILE_K || TILE_K == 8
#pragma kt launch grid(div_ceil(N, TILE_N), div_ceil(M, TILE_M)) \
                  block(THREADS_X, THREADS_Y) smem(SMEM)
#pragma kt arg C float[M * N] out
#pragma kt arg A float[M * K] in
#pragma kt arg B float[K * N] in
#pragma kt arg M int = M
#pragma kt arg N int = N
#pragma kt arg K int = K
#pragma kt kernel template(TILE_M, TILE_N, TILE_K, "float")
#pragma kt verify rtol(1e-4) atol(1e-5) match(1)
#pragma kt objective flops(2 * M * N * K)
template <int TM, int TN, int TK, typename T>
__global__ void matmul(T *C, const T *A, const T *B, int M, int N, int K)
{
	extern __shared__ T smem[];
	(void)smem;
}
