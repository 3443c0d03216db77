// A parse error: the parser's diagnostic, and exit status 1.
#pragma kt param BLOCK values(64, 128 default(64)
#pragma kt constraint BLOK <= 1024
__global__ void k(float *x)
{
	x[threadIdx.x] = 0;
}
