// scale.kt.cu - y = a * x over n floats: the runtime's and export's test
// template (tests/deploy). BLOCK threads per block, ITEMS elements each.
#ifndef BLOCK
#define BLOCK 128
#endif
#ifndef ITEMS
#define ITEMS 1
#endif

#pragma kt param BLOCK values(64, 128, 256, 512) default(128)
#pragma kt param ITEMS values(1, 2, 4) default(1)
#pragma kt problem N values(1024, 65536) default(1024)
#pragma kt constraint N % ITEMS == 0
#pragma kt launch grid(div_ceil(N, BLOCK * ITEMS)) block(BLOCK)
#pragma kt arg y float[N] out
#pragma kt arg x float[N] in
#pragma kt arg a float = 2.5
#pragma kt arg n int = N
extern "C" __global__ void scale(float *y, const float *x, float a, int n)
{
	int base = blockIdx.x * BLOCK * ITEMS + threadIdx.x;
#pragma unroll
	for (int k = 0; k < ITEMS; k++) {
		int i = base + k * BLOCK;
		if (i < n)
			y[i] = a * x[i];
	}
}
