#pragma kt arg a float[16] in init(random(2, 1))
#pragma kt arg b u8[16] in init(value(300))
#pragma kt arg c i8[16] in init(random(-200, 5))
#pragma kt arg d float[16] in init(gaussian)
#pragma kt arg e float[16] in init(zeros) init(iota)
#pragma kt arg f int[16] in init(value(1.5))
__global__ void k(float *x, float *y, int n) {}
