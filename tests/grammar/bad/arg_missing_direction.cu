#pragma kt arg x float[16]
#pragma kt arg y float[16] output
#pragma kt arg z float[16 in
__global__ void k(float *x, float *y, int n) {}
