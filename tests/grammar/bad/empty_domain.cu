#pragma kt param A values()
#pragma kt problem N values( )
__global__ void k(float *x, float *y, int n) {}
