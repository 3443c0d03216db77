/*
 * ref.c - CPU reference of transpose: out[c][r] = in[r][c].
 */
#include "../common/ref.h"

void ref_transpose(uint16_t *out, const uint16_t *in, long rows, long cols)
{
	for (long r = 0; r < rows; r++)
		for (long c = 0; c < cols; c++)
			out[c * rows + r] = in[r * cols + c];
}
