// empty.kt.cu - a kernel that does nothing, for the runtime's launch
// overhead (bench/rt_overhead.c): the time of a launch is then the host's.
#ifndef BLOCK
#define BLOCK 32
#endif

#pragma kt param BLOCK values(32, 64) default(32)
#pragma kt problem N values(1) default(1)
#pragma kt launch grid(1) block(BLOCK)
#pragma kt arg p i32[1] out
#pragma kt arg n i32 = N
extern "C" __global__ void ktc_empty(int *p, int n)
{
	if (n < 0) // never: the kernel must not be empty to the compiler
		p[threadIdx.x % BLOCK] = n;
}
