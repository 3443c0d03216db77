// unrecognised: a kernel with no launch in the file whose threads cover a
// fixed tile (no size guard, no stride over the block): how many blocks
// it needs is not in its body, so the launch is asked for once.
#include <cuda_runtime.h>

__global__ void tile_fill(float *out, float v)
{
	out[blockIdx.x * 128 + threadIdx.x] = v;
}
