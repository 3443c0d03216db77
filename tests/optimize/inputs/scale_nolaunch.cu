// scale_nolaunch: y[i] = 2 * x[i], one element per thread; no host code of
// this file launches it (a header's kernel), so its block size is free.
__global__ void scale_kernel(float *__restrict__ y,
			     const float *__restrict__ x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = 2.0f * x[i];
}
