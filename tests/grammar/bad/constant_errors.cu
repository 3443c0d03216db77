#pragma kt param A values(1, 2)
#pragma kt constraint A / (2 - 2) > 1
#pragma kt constraint A < (1 << 70)
#pragma kt set S = A * (9223372036854775807 + 1)
#pragma kt launch grid(div_ceil(A, 4 - 4)) block(pow2(63))
#pragma kt constraint A ? 0 : log2(0)
#pragma kt constraint 0 && 1 / (1 - 1)
__global__ void k(float *x, float *y, int n) {}
