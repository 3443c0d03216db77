// A launcher the project keeps in a header: it takes the kernel and a
// geometry struct and launches the kernel with that struct's fields.
#include <cuda_runtime.h>
#include <utility>

struct geom {
	dim3 grid;
	dim3 block;
	cudaStream_t stream;
	geom(const dim3 &g, const dim3 &b, cudaStream_t s)
	    : grid(g), block(b), stream(s)
	{
	}
};

template <typename K, typename... A>
static void launch_with(K kernel, const geom &g, A &&...args)
{
	kernel<<<g.grid, g.block, 0, g.stream>>>(std::forward<A>(args)...);
}
