#pragma kt param WG values(64, 128)
void helper(__global float *x) {}
#pragma kt param V values(1, 2)
__kernel void add(__global float *x, int UNKNOWN_ARG) {}
#pragma kt arg x float[N] in
__kernel void scale(__global float *x) {}
