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

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 128
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(128)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem elems values(?)
#pragma kt kernel template("__half", BLOCK_SIZE)
#pragma kt launch grid((((elems / (16 / 2)) + BLOCK_SIZE - 1) / BLOCK_SIZE)) block(BLOCK_SIZE)
#pragma kt arg out __half[8 * (elems / (16 / 2))] out
#pragma kt arg in __half[8 * (elems / (16 / 2))] in
// ktc: complete and uncomment: #pragma kt arg s float = ?
#pragma kt arg n_packs unsigned int = (elems / (16 / 2))
template <typename scalar_t, const unsigned NUM_THREADS>
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
scale_packs(scalar_t *out, const scalar_t *in, float s,
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

#ifndef __CUDACC_RTC__
template <typename scalar_t>
void launcher(void *out, const void *in, float s, unsigned elems)
{
	constexpr unsigned NUM_THREADS = BLOCK_SIZE;
	const unsigned pack = 16 / sizeof(scalar_t);
	const unsigned n_packs = elems / pack;
	dim3 block(NUM_THREADS);
	dim3 grid((n_packs + NUM_THREADS - 1) / NUM_THREADS);
	LAUNCH(scalar_t, NUM_THREADS);
}
#endif

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

#ifndef __CUDACC_RTC__
void scale(bool is_half, void *out, const void *in, float s, unsigned elems)
{
	DISPATCH(is_half, CALL_LAUNCHER);
}
#endif
