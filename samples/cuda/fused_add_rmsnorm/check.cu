// check.cu - runs fused_add_rmsnorm (SAMPLE_SRC: the original or the
// template with -D values) on random bf16 rows and compares both in-place
// outputs with ref.c.
#include "../common/check.h"
#include SAMPLE_SRC

static long check_one(const ck_size &z, uint64_t seed)
{
	long t = z["T"], d = z["D"];
	ck_rng r(seed);
	auto in = ck_bf16(r, t * d, -3, 3), res = ck_bf16(r, t * d, -3, 3);
	auto w = ck_bf16(r, d, -2, 2);
	ck_dev<uint16_t> din(in), dres(res), dw(w);
	ref_fused_add_rmsnorm(in.data(), res.data(), w.data(), t, d, 1e-6f);
	if (!ck_run(fused_add_rmsnorm(din.as<__nv_bfloat16>(), dres.as<__nv_bfloat16>(),
				      dw.as<__nv_bfloat16>(), t, d, 1e-6f, 0)))
		return -1;
	return ck_compare("in", ck_from_bf16(din.get()), ck_from_bf16(in), 1e-3,
			  2e-2) +
	       ck_compare("residual", ck_from_bf16(dres.get()), ck_from_bf16(res),
			  0, 0);
}

static double time_one(const ck_size &z, double *spread)
{
	long t = z["T"], d = z["D"];
	ck_rng r(1);
	ck_dev<uint16_t> din(ck_bf16(r, t * d, -3, 3)), dres(ck_bf16(r, t * d, -3, 3));
	ck_dev<uint16_t> dw(ck_bf16(r, d, -2, 2));
	// in place: each run works on the last one's output, which stays finite
	return ck_time_us([&] {
		return fused_add_rmsnorm(din.as<__nv_bfloat16>(), dres.as<__nv_bfloat16>(),
					 dw.as<__nv_bfloat16>(), t, d, 1e-6f, 0);
	}, spread);
}

int main(int argc, char **argv)
{
	ck_sample s{"fused_add_rmsnorm", {"T", "D"}, {4096, 7168},
		    {{1, 7168}, {3, 4096}, {64, 8192}, {257, 7168}, {1000, 4096},
		     {2048, 8192}, {5, 512}},
		    check_one, time_one};
	return ck_main(s, argc, argv);
}
