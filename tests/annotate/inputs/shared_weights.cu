// 128 weights staged in shared memory by a block of 128 threads: the
// array is filled by a block-strided loop and read by each thread in
// turn, never at the thread's own index, so its extent counts weights,
// not threads; the same value standing untied, the block stays 128.
__global__ void mix(float *y, const float *w, const float *x, int n)
{
	__shared__ float sw[128];
	for (int c = threadIdx.x; c < 128; c += blockDim.x)
		sw[c] = w[c];
	__syncthreads();
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		float acc = 0.0f;
		for (int k = 0; k < 128; k++)
			acc += sw[k] * x[(i + k) % n];
		y[i] = acc;
	}
}

void run(float *y, const float *w, const float *x, int n)
{
	mix<<<(n + 127) / 128, 128>>>(y, w, x, n);
}
