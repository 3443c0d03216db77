#pragma kt param A values(1, 2) fast
#pragma kt constraint A > 1 )
#pragma kt verify off please
#pragma kt objective time 2
__global__ void k(float *x, float *y, int n) {}
