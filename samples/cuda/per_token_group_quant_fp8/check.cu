// check.cu - runs per_token_group_quant_fp8 (SAMPLE_SRC: the original or
// the template with -D values) on random bf16 rows and compares the fp8
// codes and the scales with ref.c; both must agree exactly, since the
// kernel does the same float operations.
#include "../common/check.h"
#include SAMPLE_SRC

static long check_one(const ck_size &z, uint64_t seed)
{
	long t = z["T"], d = z["D"];
	ck_rng r(seed);
	auto in = ck_bf16(r, t * d, -8, 8);
	for (long i = 0; i < t * d; i += 997) // a few groups of tiny values
		in[i] = ref_f32_to_bf16(r.uniform(-1e-3f, 1e-3f));
	std::vector<uint8_t> wq(t * d);
	std::vector<float> ws(t * d / 128);
	ref_per_token_group_quant_fp8(wq.data(), ws.data(), in.data(), t, d, 128);
	ck_dev<uint16_t> din(in);
	ck_dev<uint8_t> dq(t * d);
	ck_dev<float> ds(t * d / 128);
	if (!ck_run(per_token_group_quant_fp8(din.as<__nv_bfloat16>(),
					      dq.as<__nv_fp8_e4m3>(), ds.p, t, d, 0)))
		return -1;
	return ck_compare("q", ck_from_fp8(dq.get()), ck_from_fp8(wq), 0, 0) +
	       ck_compare("scales", ds.get(), ws, 0, 0);
}

static double time_one(const ck_size &z, double *spread)
{
	long t = z["T"], d = z["D"];
	ck_rng r(1);
	ck_dev<uint16_t> din(ck_bf16(r, t * d, -8, 8));
	ck_dev<uint8_t> dq(t * d);
	ck_dev<float> ds(t * d / 128);
	return ck_time_us([&] {
		return per_token_group_quant_fp8(din.as<__nv_bfloat16>(),
						 dq.as<__nv_fp8_e4m3>(), ds.p, t, d, 0);
	}, spread);
}

int main(int argc, char **argv)
{
	ck_sample s{"per_token_group_quant_fp8", {"T", "D"}, {4096, 7168},
		    {{1, 7168}, {3, 4096}, {7, 7168}, {64, 7168}, {333, 4096},
		     {2048, 7168}, {1, 128}},
		    check_one, time_one};
	return ck_main(s, argc, argv);
}
