#pragma kt param A values(1, 2)
#pragma kt launch grid(1)
__global__ void k1(void) {}
#pragma kt launch block(A, A, A, A) grid(1)
__global__ void k2(void) {}
#pragma kt launch grid() block(1)
__global__ void k3(void) {}
#pragma kt launch smem(4) grid(1) block(1) speed(2)
__global__ void k4(void) {}
