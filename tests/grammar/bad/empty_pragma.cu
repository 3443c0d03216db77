#pragma kt
#pragma  kt   // only a comment
#pragma kt 42
__global__ void k(float *x, float *y, int n) {}
