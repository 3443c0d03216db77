// tiled_matmul: C = A * B (row-major floats) with BM x BN output tiles
// and BK-deep shared tiles given as template arguments; each thread of a
// 16x16 block computes (BM / 16) x (BN / 16) outputs.
#include <cuda_runtime.h>

#ifndef MATMUL_BM
#define MATMUL_BM 64
#endif
#ifndef MATMUL_BN
#define MATMUL_BN 64
#endif
#ifndef MATMUL_BK
#define MATMUL_BK 16
#endif
#ifndef UNROLL
#define UNROLL 4
#endif
constexpr int kt_unroll_UNROLL = UNROLL;
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif

#pragma kt param MATMUL_BM values(16, 32, 64, 128, 256) default(64)
#pragma kt constraint MATMUL_BM % 16 == 0
#pragma kt param MATMUL_BN values(16, 32, 64, 128, 256) default(64)
#pragma kt constraint MATMUL_BN % 16 == 0
#pragma kt param MATMUL_BK values(2, 4, 8, 16, 32, 64) default(16)
#pragma kt constraint 4 * (MATMUL_BK) * (MATMUL_BM) + 4 * (MATMUL_BN) * (MATMUL_BK) <= DEVICE_SMEM_PER_BLOCK
#pragma kt param UNROLL values(1, 2, 4, 8, 16) default(4)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint 256 * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem N values(?)
// ktc: complete and uncomment: #pragma kt problem M values(?)
// ktc: complete and uncomment: #pragma kt problem K values(?)
#pragma kt kernel template(MATMUL_BM, MATMUL_BN, MATMUL_BK)
#pragma kt launch grid((N + (MATMUL_BN - 1)) / MATMUL_BN, (M + (MATMUL_BM - 1)) / MATMUL_BM) block(16, 16)
// ktc: complete and uncomment: #pragma kt arg A float[?] in
// ktc: complete and uncomment: #pragma kt arg B float[?] in
#pragma kt arg C float[M * N] out
#pragma kt arg M int = M
#pragma kt arg N int = N
#pragma kt arg K int = K
template <int BM, int BN, int BK>
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(256, MIN_BLOCKS)
#endif
matmul_kernel(const float *__restrict__ A,
			      const float *__restrict__ B,
			      float *__restrict__ C, int M, int N, int K)
{
	__shared__ float As[BM][BK];
	__shared__ float Bs[BK][BN];
	constexpr int TM = BM / 16, TN = BN / 16;
	float acc[TM][TN] = {};
	const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
	const int tid = threadIdx.y * 16 + threadIdx.x;
	for (int k0 = 0; k0 < K; k0 += BK) {
		for (int e = tid; e < BM * BK; e += 256) {
			int r = e / BK, c = e % BK;
			As[r][c] = row0 + r < M && k0 + c < K
					   ? A[(row0 + r) * K + k0 + c]
					   : 0.0f;
		}
		for (int e = tid; e < BK * BN; e += 256) {
			int r = e / BN, c = e % BN;
			Bs[r][c] = k0 + r < K && col0 + c < N
					   ? B[(k0 + r) * N + col0 + c]
					   : 0.0f;
		}
		__syncthreads();
#pragma unroll kt_unroll_UNROLL
		for (int k = 0; k < BK; k++)
#pragma unroll
			for (int i = 0; i < TM; i++)
#pragma unroll
				for (int j = 0; j < TN; j++)
					acc[i][j] += As[threadIdx.y * TM + i][k] *
						     Bs[k][threadIdx.x * TN + j];
		__syncthreads();
	}
	for (int i = 0; i < TM; i++)
		for (int j = 0; j < TN; j++) {
			int r = row0 + threadIdx.y * TM + i;
			int c = col0 + threadIdx.x * TN + j;
			if (r < M && c < N)
				C[r * N + c] = acc[i][j];
		}
}

#ifndef __CUDACC_RTC__
void matmul(const float *A, const float *B, float *C, int M, int N, int K,
	    cudaStream_t stream)
{
	dim3 block(16, 16);
	dim3 grid((N + (MATMUL_BN - 1)) / MATMUL_BN, (M + (MATMUL_BM - 1)) / MATMUL_BM);
	matmul_kernel<MATMUL_BM, MATMUL_BN, MATMUL_BK><<<grid, block, 0, stream>>>(A, B, C, M, N, K);
}
#endif
