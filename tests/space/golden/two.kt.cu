// Two annotated kernels in one file; --kernel picks one.
#pragma kt param TILE values(8, 16, 32) default(16)
#pragma kt param PAD values(0, 1) default(1)
#pragma kt constraint TILE * (TILE + PAD) * 4 <= DEVICE_SMEM_PER_BLOCK
__global__ void transpose(float *out, const float *in)
{
	__shared__ float t[TILE][TILE + PAD];
	t[threadIdx.y][threadIdx.x] = in[threadIdx.x];
	out[threadIdx.x] = t[threadIdx.x][threadIdx.y];
}

#pragma kt param ALPHA values(0.5, 1.0, 2.5) default(1.0)
#pragma kt param UNROLL range(1, 4) default(1)
#pragma kt constraint ALPHA * UNROLL < 5
__global__ void scale(float *x)
{
	x[threadIdx.x] *= ALPHA * UNROLL;
}
