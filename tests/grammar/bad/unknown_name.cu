#pragma kt param BLOCK values(64, 128)
#pragma kt constraint BLOK % 32 == 0
#pragma kt launch grid(div_ceil(N, BLOCK)) block(BLOCK)
__global__ void k(float *x, float *y, int n) {}
