#pragma kt param A values(1, 2)
#pragma kt constraint A < 99999999999999999999
#pragma kt constraint A < 0xFFFFFFFFFFFFFFFFF
#pragma kt param B values(9223372036854775808)
#pragma kt constraint A < 1e999
__global__ void k(float *x, float *y, int n) {}
