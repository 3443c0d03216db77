#pragma kt param A values(1, 2)
#pragma kt constraint A / 0 > 1
#pragma kt constraint A % (0) == 0
#pragma kt set S = div_ceil(A, -0)
#pragma kt constraint A / 0.0 > 1
__global__ void k(float *x, float *y, int n) {}
