// Two annotated kernels, an unannotated one between them, default guards,
// comments and continuation lines inside the blocks.
#pragma kt param UNROLL values(1, 2, 4) /* how far to unroll */ default(4)
#pragma kt param BLOCK \
	pow2(64, 512) \
	default(128)
#ifndef UNROLL
#define UNROLL 4
#endif
#pragma kt problem ROWS values(4096)
#pragma kt problem COLS values(8192, 1024)
#pragma kt set COLS_PER_THREAD = div_ceil(COLS, BLOCK)
#pragma kt constraint COLS_PER_THREAD % UNROLL == 0 || COLS_PER_THREAD < UNROLL
#pragma kt launch grid(ROWS) block(BLOCK) smem(BLOCK * 4)
#pragma kt arg out bf16[ROWS * COLS] out
#pragma kt arg in bf16[ROWS * COLS] in init(random(-4, 4))
#pragma kt arg weight bf16[COLS] in init(value(1))
#pragma kt arg cols i64 = COLS
#pragma kt verify rtol(2e-2) atol(1e-2) match(0.999)
template <typename T>
__global__ void rmsnorm(T *out, const T *in, const T *weight, long cols) {}

__device__ float unannotated_helper(float x) { return x; }
__global__ void unannotated(float *x) {}

#pragma kt param V values(1, 2, 4, 8)
#pragma kt set BYTES = V * 2
#pragma kt constraint BYTES <= 16 ? 1 : 0
#pragma kt arg p u16[1024] inout init(iota)
#pragma kt arg q uint8_t[1024] in init(zeros)
#pragma kt verify off
extern "C" __global__ void
__launch_bounds__(256, 2) pack(unsigned short *p, const unsigned char *q) {}
