// A block size that the host launcher also checks at compile time: the
// launcher's staging buffer holds 256 threads' worth of flags.
#ifndef BLOCK
#define BLOCK 128
#endif

#pragma kt param BLOCK values(64, 128, 256) default(128)
#pragma kt problem n values(4096)
#pragma kt launch grid((n + BLOCK - 1) / BLOCK) block(BLOCK)
#pragma kt arg y float[n] out
#pragma kt arg n int = n
__global__ void fill(float *y, int n)
{
	int i = blockIdx.x * BLOCK + threadIdx.x;
	if (i < n)
		y[i] = 1.0f;
}

#ifndef __CUDACC_RTC__
void launch(float *y, int n)
{
	static_assert(BLOCK <= 256, "the staging buffer holds 256 flags");
	fill<<<(n + (BLOCK - 1)) / BLOCK, BLOCK>>>(y, n);
}
#endif
