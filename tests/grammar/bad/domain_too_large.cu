#pragma kt param A range(0, 100000000)
#pragma kt param B range(-9223372036854775807, 9223372036854775807)
#pragma kt param C pow2(1, 4611686018427387904)
__global__ void k(float *x, float *y, int n) {}
