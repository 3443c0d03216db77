#pragma kt param A values(1, 2)
__global__ void k(int *p);
#pragma kt param B values(1, 2)
__global__ void k(int *p) {}
