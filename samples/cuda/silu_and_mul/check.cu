// check.cu - runs silu_and_mul (SAMPLE_SRC: the original or the template
// with -D values) on random bf16 inputs and compares with ref.c.
#include "../common/check.h"
#include SAMPLE_SRC

static long check_one(const ck_size &z, uint64_t seed)
{
	long t = z["T"], d = z["D"];
	ck_rng r(seed);
	auto in = ck_bf16(r, t * 2 * d, -8, 8);
	std::vector<uint16_t> want(t * d);
	ref_silu_and_mul(want.data(), in.data(), t, d);
	ck_dev<uint16_t> din(in), dout(t * d);
	ck_sync_launch(silu_and_mul(dout.as<__nv_bfloat16>(), din.as<__nv_bfloat16>(),
				    t, d, 0));
	return ck_compare("out", ck_from_bf16(dout.get()), ck_from_bf16(want), 1e-3,
			  2e-2);
}

static double time_one(const ck_size &z, double *spread)
{
	long t = z["T"], d = z["D"];
	ck_rng r(1);
	ck_dev<uint16_t> din(ck_bf16(r, t * 2 * d, -8, 8)), dout(t * d);
	return ck_time_us([&] {
		return silu_and_mul(dout.as<__nv_bfloat16>(), din.as<__nv_bfloat16>(),
				    t, d, 0);
	}, spread);
}

int main(int argc, char **argv)
{
	ck_sample s{"silu_and_mul", {"T", "D"}, {4096, 14336},
		    {{1, 14336}, {7, 18432}, {64, 14336}, {333, 1024}, {2048, 14336},
		     {5, 8}},
		    check_one, time_one};
	return ck_main(s, argc, argv);
}
