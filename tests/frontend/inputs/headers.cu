// The CUDA headers a serving kernel includes parse without errors (ktc's
// stand-ins cover what CUDA 13 removed); a 16-byte vector load; no launch.
#include <cooperative_groups.h>
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

__global__ void copy_vec(__nv_bfloat16 *out, const __nv_bfloat16 *in, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n / 8)
		reinterpret_cast<uint4 *>(out)[i] =
			reinterpret_cast<const uint4 *>(in)[i];
}
