// helper_unroll: `#pragma unroll N` in the __device__ functions a kernel
// calls (directly, or through another helper, a template too) is a
// parameter as in the kernel's own body; a helper two kernels call is
// the first's. One in a __host__ __device__ function is not: the host
// compiler reads that function too.
__device__ float dot16(const float *a, const float *b)
{
	float s = 0.0f;
#pragma unroll 4
	for (int k = 0; k < 16; k++)
		s += a[k] * b[k];
	return s;
}

template <typename T> __device__ T sum_sq(const T *a, int n)
{
	T s = 0;
#pragma unroll 2
	for (int k = 0; k < n; k++)
		s += a[k] * a[k];
	return s;
}

__device__ float norm16(const float *a)
{
	return sqrtf(sum_sq(a, 16));
}

__host__ __device__ inline float clampf(float x)
{
	float r = x;
#pragma unroll 2
	for (int k = 0; k < 2; k++)
		r = r > 1.0f ? 1.0f : r;
	return r;
}

__global__ void rows_dot(const float *a, const float *b, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = clampf(dot16(a + i * 16, b + i * 16) / norm16(a + i * 16));
}

__global__ void rows_self(const float *a, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = dot16(a + i * 16, a + i * 16);
}

void run(const float *a, const float *b, float *out, float *self, int n)
{
	rows_dot<<<(n + 127) / 128, 128>>>(a, b, out, n);
	rows_self<<<(n + 127) / 128, 128>>>(a, self, n);
}
