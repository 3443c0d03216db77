#pragma kt param A values(1, 2)

__device__ float helper(float x) { return x * A; }

__global__ void k(float *x, float *y, int n) {}
