/*
 * matmul.cl - C = A * B for row-major float matrices (M x K times K x N):
 * the tiled matrix multiply sample of the OpenCL backend.
 *
 * A work-group computes a TS_M x TS_N tile of C, stepping through K in
 * slices of TS_K that it stages in local memory; each work-item computes
 * WPT_M x WPT_N elements of the tile (work per thread), strided by the
 * work-group's size so neighbouring work-items touch neighbouring columns.
 * PAD adds a column to the local arrays against bank conflicts on GPUs.
 *
 * The default is the textbook tiled kernel: 16 x 16 work-items, one
 * element each, a 16-deep slice, no padding.
 */
#ifndef TS_M /* the defaults, for a build without ktc */
#define TS_M 16
#define TS_N 16
#define TS_K 16
#define WPT_M 1
#define WPT_N 1
#define PAD 0
#endif

#pragma kt problem M values(512, 768) default(512)
#pragma kt problem N values(512, 768) default(512)
#pragma kt problem K values(512, 768) default(512)
#pragma kt param TS_M values(16, 32, 64, 128) default(16)
#pragma kt param TS_N values(16, 32, 64, 128) default(16)
#pragma kt param TS_K values(8, 16, 32, 64) default(16)
#pragma kt param WPT_M values(1, 2, 4, 8) default(1)
#pragma kt param WPT_N values(1, 2, 4, 8) default(1)
#pragma kt param PAD values(0, 1) default(0)
#pragma kt set WG_M = TS_M / WPT_M
#pragma kt set WG_N = TS_N / WPT_N
#pragma kt constraint TS_M % WPT_M == 0 && TS_N % WPT_N == 0
#pragma kt constraint WG_M * WG_N <= DEVICE_MAX_WORK_GROUP_SIZE
#pragma kt constraint WG_M * WG_N >= 16
#pragma kt constraint (TS_M + TS_N + 2 * PAD) * TS_K * 4 <= DEVICE_LOCAL_MEM_SIZE
#pragma kt constraint M % TS_M == 0 && N % TS_N == 0 && K % TS_K == 0
#pragma kt launch grid(N / TS_N, M / TS_M) block(WG_N, WG_M)
#pragma kt arg C float[M * N] out
#pragma kt arg A float[M * K] in
#pragma kt arg B float[K * N] in
#pragma kt arg m int = M
#pragma kt arg n int = N
#pragma kt arg k int = K
#pragma kt verify rtol(1e-4) atol(1e-4)
#pragma kt objective flops(2 * M * N * K)
__kernel void matmul(__global float *C, __global const float *A,
		     __global const float *B, int m, int n, int k)
{
#define RTS_M (TS_M / WPT_M)
#define RTS_N (TS_N / WPT_N)
	__local float As[TS_K][TS_M + PAD];
	__local float Bs[TS_K][TS_N + PAD];
	float acc[WPT_M][WPT_N];
	const int tx = get_local_id(0), ty = get_local_id(1);
	const int tid = ty * RTS_N + tx;
	const int row0 = get_group_id(1) * TS_M, col0 = get_group_id(0) * TS_N;

	for (int i = 0; i < WPT_M; i++)
		for (int j = 0; j < WPT_N; j++)
			acc[i][j] = 0.0f;
	for (int k0 = 0; k0 < k; k0 += TS_K) {
		for (int l = tid; l < TS_M * TS_K; l += RTS_M * RTS_N) {
			int r = l / TS_K, c = l % TS_K;
			As[c][r] = A[(row0 + r) * k + k0 + c];
		}
		for (int l = tid; l < TS_K * TS_N; l += RTS_M * RTS_N) {
			int r = l / TS_N, c = l % TS_N;
			Bs[r][c] = B[(k0 + r) * n + col0 + c];
		}
		barrier(CLK_LOCAL_MEM_FENCE);
		for (int kk = 0; kk < TS_K; kk++) {
			float a[WPT_M], b[WPT_N];
			for (int i = 0; i < WPT_M; i++)
				a[i] = As[kk][ty + i * RTS_M];
			for (int j = 0; j < WPT_N; j++)
				b[j] = Bs[kk][tx + j * RTS_N];
			for (int i = 0; i < WPT_M; i++)
				for (int j = 0; j < WPT_N; j++)
					acc[i][j] += a[i] * b[j];
		}
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	for (int i = 0; i < WPT_M; i++)
		for (int j = 0; j < WPT_N; j++)
			C[(row0 + ty + i * RTS_M) * n + col0 + tx + j * RTS_N] =
				acc[i][j];
}
