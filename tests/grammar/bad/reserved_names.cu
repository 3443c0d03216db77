#pragma kt param DEVICE_TILE values(1, 2)
#pragma kt param int values(1)
#pragma kt set blockDim = 4
#pragma kt problem min values(3)
__global__ void k(float *x, float *y, int n) {}
