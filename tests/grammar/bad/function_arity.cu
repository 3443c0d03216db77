#pragma kt param A values(1, 2)
#pragma kt constraint min(A) > 0
#pragma kt constraint div_ceil(A, 2, 3) > 0
#pragma kt constraint log2() > 0
#pragma kt constraint clamp(A, 1, 2) > 0
#pragma kt constraint maxx(A, 2) > 0
#pragma kt constraint pow2 + 1
__global__ void k(float *x, float *y, int n) {}
