// OpenCL: the same grammar above a __kernel function.
#pragma kt param WG pow2(16, 256) default(64)
#pragma kt param VW values(1, 2, 4, 8) default(4)
#pragma kt problem N values(1048576)
#pragma kt constraint WG <= DEVICE_MAX_WORK_GROUP_SIZE
#pragma kt constraint WG * VW * 4 <= DEVICE_LOCAL_MEM_SIZE
#pragma kt launch grid(div_ceil(N, WG * VW)) block(WG)
#pragma kt arg a float[N] in
#pragma kt arg b float[N] in
#pragma kt arg c float[N] out
#pragma kt arg n uint = N
#pragma kt objective bandwidth(N * 12)
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void vector_add(__global const float *a, __global const float *b,
		__global float *c, const uint n)
{
}
