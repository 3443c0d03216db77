// pack_stores.cu - loops of a constant count that store one narrow element
// per iteration. The built-in planner offers pack_stores (registers, then
// one 4-, 8- or 16-byte store) for the first loop of each kernel and not
// for the others: a store only some iterations make, a store through a
// pointer without __restrict__ (a later iteration could read it), and a
// vector of 3 * 2 bytes. The last kernel's subscript offset spans two lines:
// still one expression, offered.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

__global__ void to_half(__half *__restrict__ out, const float *__restrict__ in,
			const float *__restrict__ s, int n)
{
	const int t = blockIdx.x * blockDim.x + threadIdx.x;
	if (t * 8 >= n)
		return;
	const float f = s[0];
#pragma unroll
	for (int k = 0; k < 8; k++)
		out[t * 8 + k] = __float2half(in[t * 8 + k] * f);
	for (int k = 0; k < 8; k++)
		if (in[t * 8 + k] > 0)
			out[n + t * 8 + k] = __float2half(f);
}

__global__ void to_bytes(unsigned char *out, const float *__restrict__ in,
			 int n)
{
	const int t = blockIdx.x * blockDim.x + threadIdx.x;
	if (t * 4 >= n)
		return;
	for (int k = 0; k < 4; k++)
		out[t * 4 + k] = (unsigned char)(in[t * 4 + k] * 255.0f);
}

__global__ void three(__half *__restrict__ out, const float *__restrict__ in,
		      int n)
{
	const int t = blockIdx.x * blockDim.x + threadIdx.x;
	if (t * 3 >= n)
		return;
	for (int k = 0; k < 3; k++)
		out[t * 3 + k] = __float2half(in[t * 3 + k]);
}

__global__ void wrapped(__half *__restrict__ out, const float *__restrict__ in,
			int n)
{
	const int t = blockIdx.x * blockDim.x + threadIdx.x;
	if (t * 4 >= n)
		return;
	for (int k = 0; k < 4; k++)
		out[t *
		    4 + k] = __float2half(in[t * 4 + k]);
}

void launch(__half *h, unsigned char *b, const float *in, const float *s,
	    int n, cudaStream_t stream)
{
	to_half<<<(n / 8 + 255) / 256, 256, 0, stream>>>(h, in, s, n);
	to_bytes<<<(n / 4 + 255) / 256, 256, 0, stream>>>(b, in, n);
	three<<<(n / 3 + 255) / 256, 256, 0, stream>>>(h, in, n);
	wrapped<<<(n / 4 + 255) / 256, 256, 0, stream>>>(h, in, n);
}
