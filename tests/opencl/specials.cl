/*
 * specials.cl - variants that agree on ordinary inputs and differ on the
 * special values `ktc tune --specials` mixes in (tests/opencl/tune_cli.sh):
 *   0 relu written as x > 0 ? x : 0 (the default): NaN gives 0
 *   1 relu written as x < 0 ? 0 : x: NaN gives NaN
 *   2 relu by fmax(x, 0): NaN gives 0, as the default
 *   3 clamps to +-1e30 first: Inf becomes 1e30
 */
#ifndef FORM
#define FORM 0
#endif

#pragma kt problem N values(4096) default(4096)
#pragma kt param FORM values(0, 1, 2, 3) default(0)
#pragma kt launch grid(N / 64) block(64)
#pragma kt arg y float[N] out
#pragma kt arg x float[N] in
#pragma kt arg n int = N
__kernel void relu(__global float *y, __global const float *x, int n)
{
	int i = get_global_id(0);
	if (i >= n)
		return;
	float v = x[i];
	if (FORM == 3)
		v = clamp(v, -1e30f, 1e30f);
	y[i] = FORM == 1   ? (v < 0 ? 0 : v)
	       : FORM == 2 ? fmax(v, 0.0f)
	                   : (v > 0 ? v : 0);
}
