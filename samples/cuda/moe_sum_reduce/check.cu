// check.cu - runs moe_sum_reduce (SAMPLE_SRC: the original or the template
// with -D values) on random bf16 expert outputs and compares with ref.c.
#include "../common/check.h"
#include SAMPLE_SRC

static long check_one(const ck_size &z, uint64_t seed)
{
	long t = z["T"], k = z["K"], d = z["D"];
	ck_rng r(seed);
	auto x = ck_bf16(r, t * k * d, -2, 2);
	std::vector<uint16_t> want(t * d);
	ref_moe_sum_reduce(want.data(), x.data(), t, k, d, 2.5f);
	ck_dev<uint16_t> dx(x), dout(t * d);
	if (!ck_run(moe_sum_reduce(dx.as<__nv_bfloat16>(), dout.as<__nv_bfloat16>(),
				   (int)t, (int)k, (int)d, 2.5f, 0)))
		return -1;
	return ck_compare("out", ck_from_bf16(dout.get()), ck_from_bf16(want), 1e-3,
			  1e-2);
}

static double time_one(const ck_size &z, double *spread)
{
	long t = z["T"], k = z["K"], d = z["D"];
	ck_rng r(1);
	ck_dev<uint16_t> dx(ck_bf16(r, t * k * d, -2, 2)), dout(t * d);
	return ck_time_us([&] {
		return moe_sum_reduce(dx.as<__nv_bfloat16>(), dout.as<__nv_bfloat16>(),
				      (int)t, (int)k, (int)d, 2.5f, 0);
	}, spread);
}

int main(int argc, char **argv)
{
	ck_sample s{"moe_sum_reduce", {"T", "K", "D"}, {4096, 8, 7168},
		    {{1, 8, 7168}, {3, 8, 4096}, {64, 8, 7168}, {257, 8, 4096},
		     {1000, 8, 7168}, {5, 8, 64}},
		    check_one, time_one};
	return ck_main(s, argc, argv);
}
