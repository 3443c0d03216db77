#pragma kt param A pow2(3, 64)
#pragma kt param B pow2(4, 100)
#pragma kt param C pow2(0, 8)
#pragma kt param D pow2(64, 4)
__global__ void k(float *x, float *y, int n) {}
