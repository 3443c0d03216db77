// A helper header: a constexpr function without execution space (host
// code may call it; nvcc with --expt-relaxed-constexpr lets device code
// call it too) and a device function.
#pragma once
#include <type_traits>

constexpr int round_up(int a, int b)
{
	return (a + b - 1) / b * b;
}

template <typename T> __device__ T twice(T x)
{
	return x + x;
}
