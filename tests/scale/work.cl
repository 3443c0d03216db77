/*
 * work.cl - a kernel whose configurations differ by whole factors of work,
 * for the many-worker tests (tests/scale/scale.sh): PASSES x SPIN times a
 * fixed loop, so the fastest configuration (PASSES=1, SPIN=1) is three
 * times faster than the next, and noise from workers sharing the CPU
 * cannot change which one is best. WRONG=1 computes a wrong answer, so
 * statuses are compared too.
 */
#ifndef PASSES
#define PASSES 3
#define SPIN 3
#define WRONG 0
#endif

#pragma kt problem N values(2048) default(2048)
#pragma kt param PASSES values(1, 3, 9) default(3)
#pragma kt param SPIN values(1, 3, 9) default(3)
#pragma kt param WRONG values(0, 1) default(0)
#pragma kt launch grid(N / 64) block(64)
#pragma kt arg z float[N] out
#pragma kt arg x float[N] in
#pragma kt arg n int = N
__kernel void work(__global float *z, __global const float *x, int n)
{
	int i = get_global_id(0);
	if (i >= n)
		return;
	float s = x[i], t = 0.0f;
	for (int p = 0; p < PASSES * SPIN; p++) {
		/* starts at s + p and halves its distance to s 1000 times:
		 * exactly s at the end, but a value the compiler cannot hoist
		 * out of the pass loop (starting at s, it did: PoCL's LLVM
		 * computed u once, every configuration cost the same and the
		 * best was noise) */
		float u = s + (float)p;
		for (int k = 0; k < 1000; k++)
			u = u * 0.5f + s * 0.5f;
		t += u;
	}
	z[i] = t / (PASSES * SPIN) + (WRONG ? 1.0f : 0.0f);
}
