#pragma kt param A values(1, 2) @
#pragma kt param B values(010)
#pragma kt constraint A > 12abc
#pragma kt constraint A > 1.5.2
#pragma kt constraint A $ 2
#pragma kt constraint A > 0x
#pragma kt constraint A → 2
__global__ void k(float *x, float *y, int n) {}
