// check.cu - runs moe_topk_softmax (SAMPLE_SRC: the original or the
// template with -D values) on random router logits and compares the chosen
// experts (exactly) and their probabilities with ref.c.
#include "../common/check.h"
#include SAMPLE_SRC

static long check_one(const ck_size &z, uint64_t seed)
{
	long t = z["T"], e = z["E"], k = z["K"];
	ck_rng r(seed);
	auto logits = ck_f32(r, t * e, -4, 4);
	std::vector<float> ww(t * k);
	std::vector<int32_t> wi(t * k);
	ref_moe_topk_softmax(ww.data(), wi.data(), logits.data(), t, e, k);
	ck_dev<float> dl(logits), dw(t * k);
	ck_dev<int32_t> di(t * k);
	if (!ck_run(moe_topk_softmax(dl.p, dw.p, di.p, (int)t, (int)e, (int)k, 0)))
		return -1;
	return ck_compare("ids", ck_from(di.get()), ck_from(wi), 0, 0) +
	       ck_compare("weights", dw.get(), ww, 1e-7, 1e-4);
}

static double time_one(const ck_size &z, double *spread)
{
	long t = z["T"], e = z["E"], k = z["K"];
	ck_rng r(1);
	ck_dev<float> dl(ck_f32(r, t * e, -4, 4)), dw(t * k);
	ck_dev<int32_t> di(t * k);
	return ck_time_us([&] {
		return moe_topk_softmax(dl.p, dw.p, di.p, (int)t, (int)e, (int)k, 0);
	}, spread);
}

int main(int argc, char **argv)
{
	ck_sample s{"moe_topk_softmax", {"T", "E", "K"}, {4096, 256, 8},
		    {{1, 256, 8}, {3, 64, 8}, {64, 256, 8}, {333, 64, 8}, {4096, 256, 8},
		     {1001, 256, 8}, {17, 64, 64}},
		    check_one, time_one};
	return ck_main(s, argc, argv);
}
