// own_header_device.h: device code and a toolkit header only.
#pragma once
#include <cuda_fp16.h>

__device__ inline float bias_of(float x, float b)
{
	return x + b;
}
