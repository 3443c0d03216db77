// own_header_math.h: included from a header, with a host include of its
// own.
#pragma once
#include <string>

constexpr float kt_half = 0.5f;

__device__ inline float half_of(float x)
{
	return x * kt_half;
}

std::string describe_half();
