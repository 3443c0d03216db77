// A kernel launched by a macro inside a host function template that a
// dispatch macro instantiates (a torch extension's style:
// `DISPATCH(dtype, CALL_LAUNCHER)`). In the template libclang resolves
// nothing; the kernel's template arguments are read from the macro's
// expansion (`LAUNCH(scalar_t, NUM_THREADS)`): the host template's type
// from its first call, the constant that became the block's parameter.
// `16 / sizeof(scalar_t)` folds to that type's size, and a template
// parameter of unsigned type is >= 0, so the guard gives the lengths.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

template <typename scalar_t, const unsigned NUM_THREADS>
__global__ void scale_packs(scalar_t *out, const scalar_t *in, float s,
                            unsigned n_packs)
{
	const unsigned pack = 16 / sizeof(scalar_t);
	unsigned i = blockIdx.x * NUM_THREADS + threadIdx.x;
	if (i < n_packs)
		for (unsigned j = 0; j < pack; j++)
			out[i * pack + j] =
			    (scalar_t)((float)in[i * pack + j] * s);
}

#define LAUNCH(scalar_t, NUM_THREADS)                                       \
	{                                                                   \
		scale_packs<scalar_t, NUM_THREADS><<<grid, block>>>(        \
		    (scalar_t *)out, (const scalar_t *)in, s, n_packs);     \
	}

template <typename scalar_t>
void launcher(void *out, const void *in, float s, unsigned elems)
{
	constexpr unsigned NUM_THREADS = 128;
	const unsigned pack = 16 / sizeof(scalar_t);
	const unsigned n_packs = elems / pack;
	dim3 block(NUM_THREADS);
	dim3 grid((n_packs + NUM_THREADS - 1) / NUM_THREADS);
	LAUNCH(scalar_t, NUM_THREADS);
}

#define DISPATCH(is_half, fn)                                               \
	{                                                                   \
		if (is_half) {                                              \
			fn(half);                                           \
		} else {                                                    \
			fn(float);                                          \
		}                                                           \
	}

#define CALL_LAUNCHER(scalar_t)                                             \
	{                                                                   \
		launcher<scalar_t>(out, in, s, elems);                          \
	}

void scale(bool is_half, void *out, const void *in, float s, unsigned elems)
{
	DISPATCH(is_half, CALL_LAUNCHER);
}
