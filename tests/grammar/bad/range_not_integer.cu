#pragma kt param A range(1.5, 4)
#pragma kt param B range(1, 4, 0.5)
#pragma kt param C pow2(2, 8.0)
__global__ void k(float *x, float *y, int n) {}
