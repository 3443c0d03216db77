/*
 * opencl_kernels.cl - OpenCL C for annotate's golden test: no host code,
 * each kernel launched by the `#pragma kt launch` line above it.
 *   scale    one element per work-item from get_global_id(0): items per
 *            thread, the grid of its launch line shrinking
 *   rowsum   a work-group per row, a column loop strided by the
 *            work-group's size and a `#pragma unroll 4`: the row split,
 *            a second grid dimension in its launch line, and UNROLL
 *            (not vectorize: the row's offset `row * d` needs d's value
 *            at a launch, which no code says)
 *   vecadd   a contiguous loop: vectorize, with vloadN / vstoreN
 */
#ifndef ROWSUM_UNROLL
#define ROWSUM_UNROLL 4
#endif
#ifndef ITEMS_PER_THREAD
#define ITEMS_PER_THREAD 1
#endif
#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#ifndef SPLIT
#define SPLIT 1
#endif
#ifndef BLOCK_SIZE_2
#define BLOCK_SIZE_2 128
#endif
#ifndef VEC
#define VEC 1
#endif
#ifndef BLOCK_SIZE_3
#define BLOCK_SIZE_3 256
#endif
#define KT_VLOAD_(n) vload##n
#define KT_VLOAD(n) KT_VLOAD_(n)
#define KT_VSTORE_(n) vstore##n
#define KT_VSTORE(n) KT_VSTORE_(n)

#pragma kt launch grid(((((N + (BLOCK_SIZE - 1)) / BLOCK_SIZE) + ITEMS_PER_THREAD - 1) / ITEMS_PER_THREAD)) block(BLOCK_SIZE)
#pragma kt param ITEMS_PER_THREAD values(1, 2, 4, 8) default(1)
#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
// ktc: complete and uncomment: #pragma kt problem N values(?)
// ktc: complete and uncomment: #pragma kt arg y float[?] out
// ktc: complete and uncomment: #pragma kt arg x float[?] in
// ktc: complete and uncomment: #pragma kt arg a float = ?
// ktc: complete and uncomment: #pragma kt arg n int = ?
__kernel void scale(__global float *y, __global const float *x, float a,
                    int n)
{
#pragma unroll
	for (int kt_item = 0; kt_item < ITEMS_PER_THREAD; kt_item++) {
		int i = (get_global_id(0)) + kt_item * get_global_size(0);
		if (i < n)
			y[i] = a * x[i];
	}
}

#pragma kt launch grid(ROWS, SPLIT) block(BLOCK_SIZE_2)
#pragma kt param ROWSUM_UNROLL values(1, 2, 4, 8, 16) default(4)
#pragma kt param SPLIT values(1, 2, 4, 8, 16, 32) default(1)
#pragma kt param BLOCK_SIZE_2 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(128)
// ktc: complete and uncomment: #pragma kt problem ROWS values(?)
// ktc: complete and uncomment: #pragma kt arg y float[?] out
// ktc: complete and uncomment: #pragma kt arg x float[?] in
// ktc: complete and uncomment: #pragma kt arg d int = ?
__kernel void rowsum(__global float *y, __global const float *x, int d)
{
	int row = get_group_id(0);
#pragma unroll ROWSUM_UNROLL
	for (int j = get_local_id(0) + (SPLIT == 1 ? 0 : get_group_id(1) * get_local_size(0)); j < d; j += (get_local_size(0)) * (SPLIT == 1 ? 1 : get_num_groups(1)))
		y[row * d + j] = x[row * d + j] + 1.0f;
}

#pragma kt launch grid(1) block(BLOCK_SIZE_3)
#pragma kt param VEC values(1, 2, 4) default(1)
#pragma kt param BLOCK_SIZE_3 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
// ktc: complete and uncomment: #pragma kt arg c float[?] out
// ktc: complete and uncomment: #pragma kt arg a float[?] in
// ktc: complete and uncomment: #pragma kt arg b float[?] in
// ktc: complete and uncomment: #pragma kt arg n int = ?
__kernel void vecadd(__global float *c, __global const float *a,
                     __global const float *b, int n)
{
#if VEC == 1
	for (int j = get_local_id(0); j < n; j += get_local_size(0))
		c[j] = a[j] + b[j];
#else
	{
		const bool kt_aligned = (((size_t)(&c[0]) | (size_t)(&a[0]) | (size_t)(&b[0])) % (VEC * 4)) == 0;
		const int kt_nvec = kt_aligned ? (int)((n) / VEC) : 0;
		for (int kt_v = get_local_id(0); kt_v < kt_nvec; kt_v += get_local_size(0)) {
			float kt_c[VEC];
			float kt_a[VEC];
			float kt_b[VEC];
			KT_VSTORE(VEC)(KT_VLOAD(VEC)(0, &a[(0) + kt_v * VEC]), 0, kt_a);
			KT_VSTORE(VEC)(KT_VLOAD(VEC)(0, &b[(0) + kt_v * VEC]), 0, kt_b);
#pragma unroll
			for (int kt_e = 0; kt_e < VEC; kt_e++) {
				const __private int j = kt_v * VEC + kt_e;
				(void)j;
				kt_c[kt_e] = kt_a[kt_e] + kt_b[kt_e];
			}
			KT_VSTORE(VEC)(KT_VLOAD(VEC)(0, kt_c), 0, &c[(0) + kt_v * VEC]);
		}
		for (__private int j = kt_nvec * VEC + (get_local_id(0)); j < (n); j += get_local_size(0))
			c[j] = a[j] + b[j];
	}
#endif
}
