#pragma kt param X values(1)
__global__ void k(void) {}
