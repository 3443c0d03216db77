// faults.kt.cu - a space with broken configurations, one of each kind the
// CUDA backend must survive and record (tests/gpu/test_cuda_gpu.c):
//   MODE 0  correct (the default: the reference)
//   MODE 1  writes far out of bounds: an illegal address (runtime)
//   MODE 2  never terminates (timeout)
//   MODE 3  skips the last element of its output (correctness)
//   MODE 4  ignores the tail past the last full block: right at the tuned
//           size (a multiple of 1024), wrong at the odd size (correctness)
//   MODE 5  writes one element past the end of y: caught by the guard
//           bytes around each buffer (runtime)
//   MODE 6  correct, written differently (two loads per thread)
#pragma kt param MODE values(0, 1, 2, 3, 4, 5, 6) default(0)
#pragma kt param BLOCK values(128, 256) default(256)
#pragma kt problem N values(1048576)
#pragma kt launch grid(div_ceil(N, BLOCK)) block(BLOCK)
#pragma kt arg n int = N
#pragma kt arg x f32[N] in
#pragma kt arg y f32[N] out
#pragma kt objective bandwidth(2 * N * 4)
#ifndef MODE
#define MODE 0
#endif
#ifndef BLOCK
#define BLOCK 256
#endif

__global__ void __launch_bounds__(BLOCK)
faults(int n, const float *__restrict__ x, float *__restrict__ y)
{
	long i = (long)blockIdx.x * BLOCK + threadIdx.x;
#if MODE == 1
	if (i == 0)
		y[(long)1 << 40] = 1.0f; /* 4 TiB past y: no memory there */
#elif MODE == 2
	if (i == 0)
		for (;;) /* clock64 is volatile: the loop stays */
			if (clock64() < 0)
				break;
#elif MODE == 3
	n -= 1;
#elif MODE == 4
	n = n / 1024 * 1024;
#elif MODE == 5
	if (i == 0)
		y[n] = 0.0f;
#endif
	if (i < n) {
#if MODE == 6
		float a = x[i], b = __ldg(&x[i]);
		y[i] = a + b + 1.0f;
#else
		y[i] = 2.0f * x[i] + 1.0f;
#endif
	}
}
