#pragma kt param A values(1, 2)
#pragma kt constraint A + * 2
#pragma kt set = 4
#pragma kt constraint A ? 1
#pragma kt param 5 values(1)
__global__ void k(float *x, float *y, int n) {}
