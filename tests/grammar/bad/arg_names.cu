#pragma kt param BLOCK values(64, 128)
#pragma kt arg x float[16] in
#pragma kt arg x float[16] out
#pragma kt arg BLOCK int = 4
#pragma kt arg float int = 4
__global__ void k(float *x, float *y, int n) {}
