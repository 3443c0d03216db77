#pragma kt problem N values(16)
#pragma kt arg n int[4] = N
#pragma kt arg m int = N in
#pragma kt arg p int
__global__ void k(float *x, float *y, int n) {}
