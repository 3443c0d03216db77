// check.cu - runs transpose (SAMPLE_SRC: the original or the template with
// -D values) on random bf16 matrices, odd shapes included, and compares
// with ref.c exactly.
#include "../common/check.h"
#include SAMPLE_SRC

static long check_one(const ck_size &z, uint64_t seed)
{
	long t = z["T"], h = z["H"];
	ck_rng r(seed);
	auto in = ck_bf16(r, t * h, -100, 100);
	std::vector<uint16_t> want(t * h);
	ref_transpose(want.data(), in.data(), t, h);
	ck_dev<uint16_t> din(in), dout(t * h);
	if (!ck_run(transpose(dout.as<__nv_bfloat16>(), din.as<__nv_bfloat16>(), (int)t,
			      (int)h, 0)))
		return -1;
	return ck_compare("out", ck_from_bf16(dout.get()), ck_from_bf16(want), 0, 0);
}

static double time_one(const ck_size &z, double *spread)
{
	long t = z["T"], h = z["H"];
	ck_rng r(1);
	ck_dev<uint16_t> din(ck_bf16(r, t * h, -100, 100)), dout(t * h);
	return ck_time_us([&] {
		return transpose(dout.as<__nv_bfloat16>(), din.as<__nv_bfloat16>(), (int)t,
				 (int)h, 0);
	}, spread);
}

int main(int argc, char **argv)
{
	ck_sample s{"transpose", {"T", "H"}, {4096, 7168},
		    {{1, 7168}, {3, 4096}, {333, 7168}, {4096, 7168}, {1001, 999},
		     {64, 33}},
		    check_one, time_one};
	return ck_main(s, argc, argv);
}
