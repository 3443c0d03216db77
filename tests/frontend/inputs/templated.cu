// A kernel whose tile sizes are template arguments, chosen at the launch;
// the grid divides the problem by the same values, dimension by dimension.
#include <cuda_runtime.h>

template <int TM, int TK, typename T>
__global__ void tile_sum(T *out, const T *in, int m, int k)
{
	__shared__ T buf[TM][TK];
	const int row0 = blockIdx.x * TM;
	for (int e = threadIdx.x; e < TM * TK; e += 128)
		buf[e / TK][e % TK] = in[(row0 + e / TK) * k + e % TK];
	__syncthreads();
	if (threadIdx.x < TM) {
		T s = 0;
		for (int c = 0; c < TK; c++)
			s += buf[threadIdx.x][c];
		out[row0 + threadIdx.x] = s;
	}
}

void tile_sum_launch(float *out, const float *in, int m, int k)
{
	tile_sum<32, 8, float><<<(m + 31) / 32, 128>>>(out, in, m, k);
}
