// ktc apply: the best configuration in results.json (synthetic landscape 'bowl' seed 1 (not a device), N=1000): 1.15346 ms
/* apply_edge.kt.cu - places `ktc apply` must get right (tests/cuda/apply.sh):
 * BLOCK and ITEMS named in this comment do not count as uses,
 * "ITEMS" in a string neither, a first use inside a macro continued over
 * lines gets its definition before the macro, and a pragma without
 * default(...) that runs over two lines gets one at its end. */
#ifndef BLOCK
#define BLOCK 128 // ktc apply
#endif
#define STEP(i) \
	((i) + BLOCK)
static const char *label = "ITEMS";
const char *edge_label(void) { return label; }
#pragma kt param BLOCK values(64, 128) default(128)
#pragma kt param ITEMS \
	values(1, 2, 3) default(2)
#pragma kt problem N values(1000)
#pragma kt launch grid(div_ceil(N, BLOCK * ITEMS)) block(BLOCK)
#pragma kt arg y f32[N] out
#pragma kt arg n int = N
__global__ void edge(float *y, int n)
{
#ifndef ITEMS
#define ITEMS 2 // ktc apply
#endif
	int base = blockIdx.x * BLOCK * ITEMS + threadIdx.x; /* BLOCK */
	for (int k = 0; k < ITEMS; k++)
		if (base + k * BLOCK < n)
			y[base + k * BLOCK] = (float)STEP(k);
}
