#pragma kt param A range(1, 8, 0)
#pragma kt param B range(1, 8, -2)
__global__ void k(float *x, float *y, int n) {}
