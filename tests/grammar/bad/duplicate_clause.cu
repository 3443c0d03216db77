#pragma kt param A values(1, 2) default(1) default(2)
#pragma kt param B values(1) range(1, 4)
#pragma kt launch grid(1) block(32) grid(2)
#pragma kt verify rtol(1e-3) rtol(1e-4)
__global__ void k(float *x, float *y, int n) {}
