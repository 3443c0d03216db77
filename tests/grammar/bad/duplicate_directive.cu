#pragma kt param A values(1, 2)
#pragma kt launch grid(1) block(A)
#pragma kt launch grid(2) block(A)
#pragma kt verify rtol(1e-3)
#pragma kt verify off
#pragma kt objective time
#pragma kt objective flops(A)
#pragma kt kernel template(A)
#pragma kt kernel template(A, 2)
__global__ void k(float *x, float *y, int n) {}
