// A config type with a host-only member function, used by device code of
// the header, and a host launcher template instantiated through a macro.
#pragma once
#include <cstdio>

struct tile_config {
	int rows, cols;
	constexpr __host__ __device__ tile_config(int r, int c)
	    : rows(r), cols(c)
	{
	}
	__device__ int elems() const
	{
		return rows * cols;
	}
	__host__ void print() const
	{
		printf("%d x %d\n", rows, cols);
	}
};

static constexpr __host__ __device__ tile_config default_tile()
{
	return tile_config(4, 8);
}

template <int kind> void host_dispatch(float *y, int n);

#define DECL_DISPATCH(kind) template void host_dispatch<kind>(float *y, int n)

extern DECL_DISPATCH(1);
extern DECL_DISPATCH(2);
