// A kernel's template argument through a host constant (`const int
// threads = 256; staged_scale<threads><<<...>>>`): the `kernel template`
// line names the parameter the constant's literal became, not the
// host's local (which `ktc tune`'s instantiation never sees); a constant
// of another initialiser (`constexpr int vec = 16 / sizeof(float)`, a
// bool) is written as the value the launch instantiates.
template <int THREADS>
__global__ void staged_scale(float *y, const float *x, int n)
{
	__shared__ float s[THREADS];
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	s[threadIdx.x] = i < n ? x[i] : 0.0f;
	__syncthreads();
	if (i < n)
		y[i] = 2.0f * s[threadIdx.x];
}

template <bool kFast, int kVec>
__global__ void scale(float *dst, const float *src, int n)
{
	int i = (blockIdx.x * blockDim.x + threadIdx.x) * kVec;
	for (int k = 0; k < kVec; k++)
		if (i + k < n)
			dst[i + k] = kFast ? 2.0f * src[i + k] : src[i + k] + src[i + k];
}

void run(float *y, const float *x, float *z, int n)
{
	const int threads = 256;
	staged_scale<threads><<<(n + threads - 1) / threads, threads>>>(y, x, n);
	constexpr bool fast = true;
	constexpr int vec = 16 / sizeof(float);
	scale<fast, vec><<<(n + 1023) / 1024, 256>>>(z, x, n);
}
