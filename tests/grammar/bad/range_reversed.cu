#pragma kt param A range(8, 4)
#pragma kt param B range(-1, -3, 1)
__global__ void k(float *x, float *y, int n) {}
