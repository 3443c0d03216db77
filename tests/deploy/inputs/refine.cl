// refine.cl - a kernel whose best configuration at the shapes of a grid
// loses to the default between two of them, for `ktc tune --refine`
// (tests/deploy/grid_cli.sh): with FAST 1 a thread works 1 round at every
// size but n = 2000, where it works 20000; the default, FAST 0, works 200
// rounds everywhere. The rounds leave a value no check looks at.
#pragma kt problem N values(1000) default(1000)
#pragma kt param FAST values(0, 1) default(0)
#pragma kt launch grid(div_ceil(N, 64)) block(64)
#pragma kt arg z uint[N] out
#pragma kt arg x uint[N] in
#pragma kt arg n int = N
#pragma kt verify off
__kernel void rounds(__global uint *z, __global const uint *x, int n)
{
	int i = get_global_id(0);
	if (i >= n)
		return;
	int r = FAST ? (n == 2000 ? 20000 : 1) : 200;
	uint v = x[i];
	for (int k = 0; k < r; k++)
		v = v * 1664525u + 1013904223u;
	z[i] = v;
}
