// The cache-hint loads and stores (__ldcg ... __stwt), which clang 19 does
// not declare for CUDA 13, parse on vector and scalar types; no launch.
#include <cuda_bf16.h>

__global__ void hinted_copy(const __nv_bfloat16 *x, __nv_bfloat16 *y, float *f,
			    int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n / 8)
		return;
	const uint4 *p = reinterpret_cast<const uint4 *>(x) + i;
	uint4 *q = reinterpret_cast<uint4 *>(y) + i;
	uint4 a = __ldcg(p), b = __ldca(p), c = __ldcs(p), d = __ldlu(p);
	uint4 e = __ldcv(p);
	a.x ^= b.x ^ c.x ^ d.x ^ e.x;
	__stcg(q, a);
	__stcs(q, a);
	__stwb(q, a);
	__stwt(q, a);
	float4 v = __ldcg(reinterpret_cast<const float4 *>(f) + i);
	__stcs(f + i, v.x + __ldcs(f + i));
	__stwt(reinterpret_cast<int *>(f) + i, __ldlu(reinterpret_cast<int *>(f)));
}
