#pragma kt param A values(1, 2, 1)
#pragma kt param B values(1.0, 1)
__global__ void k(float *x, float *y, int n) {}
