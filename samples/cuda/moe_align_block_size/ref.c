/*
 * ref.c - CPU reference of moe_align_block_size: count per expert, pad each
 * count up to a multiple of block, offsets by a running sum, then walk the
 * ids in order and put each index at its expert's next slot (so inside an
 * expert's segment the indices increase).
 */
#include <stdlib.h>

#include "../common/ref.h"

void ref_moe_align_block_size(int32_t *sorted, int32_t *expert_ids,
                              int32_t *total, int32_t *cumsum,
                              const int32_t *ids, long numel, long experts,
                              long block)
{
	long max_padded = numel + experts * (block - 1);
	long max_blocks = (max_padded + block - 1) / block;
	int32_t *next = calloc((size_t)experts, sizeof(int32_t));
	if (!next)
		return;
	for (long i = 0; i < numel; i++)
		next[ids[i]]++;
	cumsum[0] = 0;
	for (long e = 0; e < experts; e++)
		cumsum[e + 1] = cumsum[e] + (int32_t)((next[e] + block - 1) /
		                                      block * block);
	*total = cumsum[experts];
	for (long i = 0; i < max_padded; i++)
		sorted[i] = (int32_t)numel;
	for (long b = 0; b < max_blocks; b++)
		expert_ids[b] = -1;
	for (long e = 0; e < experts; e++) {
		next[e] = cumsum[e];
		for (long b = cumsum[e] / block; b < cumsum[e + 1] / block; b++)
			expert_ids[b] = (int32_t)e;
	}
	for (long i = 0; i < numel; i++)
		sorted[next[ids[i]]++] = (int32_t)i;
	free(next);
}
