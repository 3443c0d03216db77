// check.cu - runs rmsnorm (SAMPLE_SRC: the original or the template with -D
// values) on random bf16 rows and weights and compares with ref.c.
#include "../common/check.h"
#include SAMPLE_SRC

static long check_one(const ck_size &z, uint64_t seed)
{
	long t = z["T"], d = z["D"];
	ck_rng r(seed);
	auto in = ck_bf16(r, t * d, -3, 3), w = ck_bf16(r, d, -2, 2);
	std::vector<uint16_t> want(t * d);
	ref_rmsnorm(want.data(), in.data(), w.data(), t, d, 1e-6f);
	ck_dev<uint16_t> din(in), dw(w), dout(t * d);
	if (!ck_run(rmsnorm(dout.as<__nv_bfloat16>(), din.as<__nv_bfloat16>(),
			    dw.as<__nv_bfloat16>(), t, d, 1e-6f, 0)))
		return -1;
	return ck_compare("out", ck_from_bf16(dout.get()), ck_from_bf16(want), 1e-3,
			  2e-2);
}

static double time_one(const ck_size &z, double *spread)
{
	long t = z["T"], d = z["D"];
	ck_rng r(1);
	ck_dev<uint16_t> din(ck_bf16(r, t * d, -3, 3)), dw(ck_bf16(r, d, -2, 2));
	ck_dev<uint16_t> dout(t * d);
	return ck_time_us([&] {
		return rmsnorm(dout.as<__nv_bfloat16>(), din.as<__nv_bfloat16>(),
			       dw.as<__nv_bfloat16>(), t, d, 1e-6f, 0);
	}, spread);
}

int main(int argc, char **argv)
{
	ck_sample s{"rmsnorm", {"T", "D"}, {4096, 4096},
		    {{1, 4096}, {3, 7168}, {64, 8192}, {257, 4096}, {1000, 7168},
		     {2048, 8192}, {5, 512}},
		    check_one, time_one};
	return ck_main(s, argc, argv);
}
