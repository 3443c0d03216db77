#pragma kt param A values(32, 64)
#pragma kt constraint A <= DEVICE_MAX_THREADS
#pragma kt constraint A <= DEVICE_WARPSIZE * 4
__global__ void k(float *x, float *y, int n) {}
