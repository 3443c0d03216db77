#pragma kt param A values(1, 2)
#pragma kt constraint (A + 1 > 2
#pragma kt launch grid(min(A, 2) block(A)
#pragma kt param B values(1, 2
__global__ void k(float *x, float *y, int n) {}
