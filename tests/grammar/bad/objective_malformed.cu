#pragma kt param A values(1)
#pragma kt objective
__global__ void k(float *x, float *y, int n) {}
#pragma kt objective bandwidth()
__global__ void k2(void) {}
#pragma kt objective flops A
__global__ void k3(void) {}
