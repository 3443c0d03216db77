// vectorize_types.cu - element loops whose arrays have different element
// types: each array keeps its own type in the vector moves (bf16 in, fp8
// out; float in, int out, the same size but not the same bits), and a
// local of the loop's body may be assigned.
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

// bf16 -> fp8, clamped through a local of the body.
__global__ void to_fp8(const __nv_bfloat16 *__restrict__ x,
		       __nv_fp8_e4m3 *__restrict__ q, float inv, int n)
{
	for (int i = threadIdx.x; i < n; i += blockDim.x) {
		float v = __bfloat162float(x[i]) * inv;
		v = fminf(fmaxf(v, -448.f), 448.f);
		q[i] = __nv_fp8_e4m3(v);
	}
}

// float -> int: four bytes each, the values converted, not copied.
__global__ void round_to_int(const float *__restrict__ x, int *__restrict__ y,
			     int n)
{
	for (int i = threadIdx.x; i < n; i += blockDim.x)
		y[i] = __float2int_rn(x[i]);
}

// half -> float, wider out than in.
__global__ void widen(const __half *__restrict__ x, float *__restrict__ y,
		      int n)
{
	for (int i = threadIdx.x; i < n; i += blockDim.x)
		y[i] = __half2float(x[i]) * 2.f;
}

void run(const __nv_bfloat16 *x, __nv_fp8_e4m3 *q, const float *f, int *k,
	 const __half *h, float *w, int n)
{
	to_fp8<<<1, 256>>>(x, q, 0.5f, n);
	round_to_int<<<1, 256>>>(f, k, n);
	widen<<<1, 256>>>(h, w, n);
}
