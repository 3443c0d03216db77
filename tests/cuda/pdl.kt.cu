/* A programmatic dependent launch: with PDL 1 the kernel is launched with
 * programmatic stream serialisation, lets the next launch start at once
 * and waits for the previous one before it reads. Right at every block
 * size, timed cold and in a graph (tests/gpu/test_cuda_gpu.c). */
#pragma kt problem N values(1048576) default(1048576)
#pragma kt param PDL values(0, 1) default(0)
#pragma kt param B values(128, 256) default(256)
#pragma kt launch grid(div_ceil(N, B)) block(B) pdl(PDL)
#pragma kt arg z float[N] out
#pragma kt arg x float[N] in
#pragma kt arg n int = N
#ifndef PDL
#define PDL 0
#endif
__global__ void twice(float *z, const float *x, int n)
{
#if PDL
	asm volatile("griddepcontrol.launch_dependents;");
	asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		z[i] = 2.0f * x[i];
}
