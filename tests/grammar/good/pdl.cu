// A programmatic dependent launch as a tuning parameter: with PDL = 1 the
// kernel may start while the previous kernel on its stream still runs,
// and waits for it before it reads memory.
#pragma kt param PDL values(0, 1)
#pragma kt problem N values(1024)
#pragma kt launch grid(div_ceil(N, 256)) block(256) pdl(PDL)
#pragma kt arg x float[N] inout
#pragma kt arg n int = N
__global__ void twice(float *x, int n)
{
#if PDL
	asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] *= 2.0f;
}
