#pragma kt param TILE values(1, 2)
#pragma kt problem N values(1024)
#pragma kt set TILE = N * 2
#pragma kt param N range(1, 4)
__global__ void k(float *x, float *y, int n) {}
