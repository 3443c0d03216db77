#pragma kt param A values(1, 2) \
   default(2)
#pragma kt constraint A > 1 && \
     BB < 4 && \
     A <<< 2
__global__ void k(float *x, float *y, int n) {}
