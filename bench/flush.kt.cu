// flush.kt.cu - reads a buffer larger than the L2 so the next kernel
// starts on a cold cache: the deploy benchmark launches it through the
// runtime before each cold-timed launch (bench/deploy_bench.c). A read,
// not a memset: a write leaves dirty lines whose write-back lands in the
// next kernel's time (docs/cuda-backend.md, Timing).
#ifndef BLOCK
#define BLOCK 256
#endif

#pragma kt param BLOCK values(256) default(256)
#pragma kt problem N values(1048576) default(1048576)
#pragma kt launch grid(1024) block(BLOCK)
#pragma kt arg p u64[N] in
#pragma kt arg sink u64[1] out
#pragma kt arg n u64 = N
extern "C" __global__ void ktc_flush(const unsigned long long *p,
                                     unsigned long long *sink,
                                     unsigned long long n)
{
	unsigned long long acc = 0;
	for (unsigned long long i = blockIdx.x * BLOCK + threadIdx.x; i < n;
	     i += (unsigned long long)gridDim.x * BLOCK)
		acc ^= p[i];
	if (acc == 0x9e3779b97f4a7c15ULL) // never, but the compiler cannot know
		*sink = acc;
}
