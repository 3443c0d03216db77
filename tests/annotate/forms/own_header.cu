// own_header: the kernel uses device helpers, a type, a constant and a
// macro from the file's own header, which also includes C and C++ host
// headers and declares host code; NVRTC must see only the device side.
#include "own_header_util.h"

__global__ void scale_clamp(float *out, const float *in, pair_f lim, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = clamp_to(twice(half_of(in[i])) * KT_GAIN, lim);
}

void run_scale_clamp(float *out, const float *in, int n)
{
	pair_f lim = {0.0f, 1.0f};
	scale_clamp<<<(n + 255) / 256, 256>>>(out, in, lim, n);
}
