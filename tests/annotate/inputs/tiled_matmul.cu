// tiled_matmul: C = A * B (row-major floats) with BM x BN output tiles
// and BK-deep shared tiles given as template arguments; each thread of a
// 16x16 block computes (BM / 16) x (BN / 16) outputs.
#include <cuda_runtime.h>

template <int BM, int BN, int BK>
__global__ void matmul_kernel(const float *__restrict__ A,
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
#pragma unroll 4
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

void matmul(const float *A, const float *B, float *C, int M, int N, int K,
	    cudaStream_t stream)
{
	dim3 block(16, 16);
	dim3 grid((N + 63) / 64, (M + 63) / 64);
	matmul_kernel<64, 64, 16><<<grid, block, 0, stream>>>(A, B, C, M, N, K);
}
