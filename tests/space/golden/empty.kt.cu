// Contradictory constraints: the space is empty, which is a warning.
#pragma kt param A values(1, 2, 4) default(2)
#pragma kt param B values(1, 2, 4) default(2)
#pragma kt constraint A < B
#pragma kt constraint B < A
__global__ void k(float *x)
{
	x[A] = B;
}
