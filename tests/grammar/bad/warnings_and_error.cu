// Warnings alone do not fail; the error on the last line does.
#pragma kt param A values(1, 2)
#pragma kt constraint 4 > 2
#pragma kt constraint DEVICE_SM_COUNT > 8
#pragma kt arg y float[16] out init(zeros)
#pragma kt constraint B
__global__ void k(float *x, float *y, int n) {}
