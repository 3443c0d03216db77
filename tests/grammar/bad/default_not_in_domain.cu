#pragma kt param A values(1, 2, 4) default(3)
#pragma kt param B range(0, 10, 5) default(7)
#pragma kt param C pow2(1, 16) default(3)
#pragma kt problem N values(256) default(512)
__global__ void k(float *x, float *y, int n) {}
