// check.cu - runs moe_align_block_size, both kernels (SAMPLE_SRC: the
// original or the template with -D values), on random expert ids and
// compares with ref.c: the padded total and the expert of each block
// exactly, the sorted ids exactly once each expert's segment is sorted (the
// order inside a segment comes from atomics).
#include "../common/check.h"
#include SAMPLE_SRC

static long check_one(const ck_size &z, uint64_t seed)
{
	long numel = z["T"] * z["K"], e = z["E"], bs = z["BS"];
	long padded = numel + e * (bs - 1), nblocks = (padded + bs - 1) / bs;
	ck_rng r(seed);
	std::vector<int32_t> ids(numel);
	for (auto &x : ids) // skewed: a few experts take most tokens
		x = (int32_t)(r.below(4) ? r.below(e) : r.below(e < 8 ? e : 8));
	std::vector<int32_t> ws(padded), we(nblocks), wt(1), wc(e + 1);
	ref_moe_align_block_size(ws.data(), we.data(), wt.data(), wc.data(), ids.data(),
				 numel, e, bs);
	ck_dev<int32_t> dids(ids), ds(padded), de(nblocks), dt(1), dc(e + 1);
	if (!ck_run(moe_align_block_size(dids.p, ds.p, de.p, dt.p, dc.p, (int)numel,
					 (int)e, (int)bs, 0)))
		return -1;
	auto gs = ds.get();
	for (long x = 0; x < e; x++) // sort each expert's segment
		std::sort(gs.begin() + wc[x], gs.begin() + wc[x + 1]);
	return ck_compare("total", ck_from(dt.get()), ck_from(wt), 0, 0) +
	       ck_compare("expert_ids", ck_from(de.get()), ck_from(we), 0, 0) +
	       ck_compare("sorted_ids", ck_from(gs), ck_from(ws), 0, 0);
}

static double time_one(const ck_size &z, double *spread)
{
	long numel = z["T"] * z["K"], e = z["E"], bs = z["BS"];
	long padded = numel + e * (bs - 1);
	ck_rng r(1);
	std::vector<int32_t> ids(numel);
	for (auto &x : ids)
		x = (int32_t)r.below(e);
	ck_dev<int32_t> dids(ids), ds(padded), de((padded + bs - 1) / bs), dt(1);
	ck_dev<int32_t> dc(e + 1);
	return ck_time_us([&] {
		return moe_align_block_size(dids.p, ds.p, de.p, dt.p, dc.p, (int)numel,
					    (int)e, (int)bs, 0);
	}, spread);
}

int main(int argc, char **argv)
{
	ck_sample s{"moe_align_block_size", {"T", "K", "E", "BS"}, {4096, 8, 256, 64},
		    {{1, 8, 256, 64}, {3, 8, 64, 16}, {64, 8, 256, 64}, {333, 8, 64, 128},
		     {4096, 8, 256, 64}, {2049, 8, 64, 64}, {5, 2, 8, 4}},
		    check_one, time_one};
	return ck_main(s, argc, argv);
}
