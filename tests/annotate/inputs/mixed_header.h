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

/*
 * host_registry: a host type with a nested type, and an alias of that
 * type after it: the alias goes with the type. This comment is longer
 * than the window ktc reads back from a declaration for its start, and
 * it holds a `;` near its end, so read from its middle its words would
 * be taken for code and the start put inside it.
 * Line 00 of filler text that makes this comment long enough to
 * Line 01 of filler text that makes this comment long enough to
 * Line 02 of filler text that makes this comment long enough to
 * Line 03 of filler text that makes this comment long enough to
 * Line 04 of filler text that makes this comment long enough to
 * Line 05 of filler text that makes this comment long enough to
 * Line 06 of filler text that makes this comment long enough to
 * Line 07 of filler text that makes this comment long enough to
 * Line 08 of filler text that makes this comment long enough to
 * Line 09 of filler text that makes this comment long enough to
 * Line 10 of filler text that makes this comment long enough to
 * Line 11 of filler text that makes this comment long enough to
 * Line 12 of filler text that makes this comment long enough to
 * Line 13 of filler text that makes this comment long enough to
 * Line 14 of filler text that makes this comment long enough to
 * Line 15 of filler text that makes this comment long enough to
 * matter: reg.add(name); // registers a name, on the host only.
 * More text after the semicolon, still inside the comment 0.
 * More text after the semicolon, still inside the comment 1.
 * More text after the semicolon, still inside the comment 2.
 */
class host_registry
{
      public:
	struct entry {
		const char *name;
	};
	void add(const char *n)
	{
		printf("%s\n", n);
	}
	FILE *log;
};
using registry_entry = host_registry::entry;
