// Which way each buffer goes (the `arg` lines' in, out, inout), for the
// ways kernels store: through a vector cast, pointer arithmetic, a member
// of an element, a local pointer, a device function, an atomic.
#include <cuda_runtime.h>

struct pair2 {
	float a, b;
};

__device__ void put(float *p, float v) { *p = v; }
__device__ float get(const float *p) { return *p; }

__global__ void copy4(float *dst, float *src, int n)
{
	int i = blockIdx.x * 256 + threadIdx.x;
	if (i < n)
		*(float4 *)&dst[4 * i] = *(const float4 *)&src[4 * i];
}

__global__ void shifted(float *out, float *in, int n)
{
	int i = blockIdx.x * 256 + threadIdx.x;
	if (i < n) {
		reinterpret_cast<uint4 *>(out + 8)[i] =
		    reinterpret_cast<const uint4 *>(in)[i];
		*(out + i) += 1.0f;
	}
}

__global__ void fields(pair2 *p, float *x, int n)
{
	int i = blockIdx.x * 256 + threadIdx.x;
	if (i < n) {
		p[i].a = x[i];
		float *o = x + n;
		put(o + i, get(x + i));
	}
}

__global__ void count(int *hist, int *keys, int *seen, int n)
{
	int i = blockIdx.x * 256 + threadIdx.x;
	if (i < n) {
		atomicAdd(hist + keys[i], 1);
		if (seen == keys)
			return;
	}
}

void run(float *a, float *b, pair2 *p, int *h, int *k, int *s, int n)
{
	copy4<<<(n + 255) / 256, 256>>>(a, b, n);
	shifted<<<(n + 255) / 256, 256>>>(a, b, n);
	fields<<<(n + 255) / 256, 256>>>(p, a, n);
	count<<<(n + 255) / 256, 256>>>(h, k, s, n);
}
