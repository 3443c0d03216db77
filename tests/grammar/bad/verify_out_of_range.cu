#pragma kt verify match(1.5) rtol(1e-2)
#pragma kt param A values(1)
__global__ void k(float *x, float *y, int n) {}
#pragma kt verify rtol(-1)
__global__ void k2(void) {}
#pragma kt verify atol(-0.5)
__global__ void k3(void) {}
#pragma kt verify match(-0.1)
__global__ void k4(void) {}
