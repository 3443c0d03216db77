/* Forms of one computation that agree on ordinary inputs and differ on the
 * special values the backend mixes in when asked (kt_backend_options
 * .specials): FORM 0 (the default) is relu as x > 0 ? x : 0 (NaN gives 0);
 * 1 writes it as x < 0 ? 0 : x (NaN gives NaN); 2 uses fmaxf (NaN gives 0,
 * as the default); 3 clamps to +-1e30 first (Inf gives 1e30). The input
 * is bf16 and the output float, so the fill of a narrow type is exercised
 * too. BLOCK only doubles the configurations. */
#include <cuda_bf16.h>

#pragma kt problem N values(1048576) default(1048576)
#pragma kt param FORM values(0, 1, 2, 3) default(0)
#pragma kt param BLOCK values(128, 256) default(256)
#pragma kt launch grid(div_ceil(N, BLOCK)) block(BLOCK)
#pragma kt arg y float[N] out
#pragma kt arg x bf16[N] in
#pragma kt arg n int = N
#ifndef FORM
#define FORM 0
#endif
__global__ void specials(float *y, const __nv_bfloat16 *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float v = __bfloat162float(x[i]);
	if (FORM == 3)
		v = fminf(fmaxf(v, -1e30f), 1e30f);
	y[i] = FORM == 1   ? (v < 0 ? 0 : v)
	       : FORM == 2 ? fmaxf(v, 0.0f)
	                   : (v > 0 ? v : 0);
}
