#pragma kt param A values(1, 2)
#pragma kt set S = T * 2
#pragma kt set T = A + 1
#pragma kt set U = U + 1
__global__ void k(float *x, float *y, int n) {}
