#pragma kt arg x flaot[16] in
#pragma kt arg y vector[16] out
#pragma kt arg n unsigned banana = 4
__global__ void k(float *x, float *y, int n) {}
