// pdl(...) with no wait in the code: the kernel could read what the
// kernel before it has not written yet. A wait named only in a comment
// (griddepcontrol.wait) does not count.
#pragma kt param PDL values(0, 1)
#pragma kt launch grid(4) block(256) pdl(PDL)
#pragma kt arg x float[1024] inout
__global__ void twice(float *x)
{
	x[blockIdx.x * blockDim.x + threadIdx.x] *= 2.0f;
}
#pragma kt launch grid(4) block(256) pdl(1) pdl(0)
__global__ void again(float *x)
{
	x[blockIdx.x * blockDim.x + threadIdx.x] *= 2.0f;
}
