#pragma kt param A values(1, 2) defualt(1)
#pragma kt launch grdi(1) block(1)
#pragma kt verify rtl(1e-3)
#pragma kt kernel templat(A)
#pragma kt objective bandwith(4)
__global__ void k(float *x, float *y, int n) {}
