// check.cu - runs per_tensor_quant_fp8, both passes (SAMPLE_SRC: the
// original or the template with -D values), on random bf16 tensors and
// compares the scale and the fp8 codes with ref.c, exactly.
#include "../common/check.h"
#include SAMPLE_SRC

static long check_one(const ck_size &z, uint64_t seed)
{
	long n = z["T"] * z["D"];
	ck_rng r(seed);
	auto in = ck_bf16(r, n, -8, 8);
	in[r.below(n)] = ref_f32_to_bf16(-100.f); // the max in a random place
	std::vector<uint8_t> wq(n);
	std::vector<float> ws(1);
	ref_per_tensor_absmax(ws.data(), in.data(), n);
	ref_per_tensor_quant_fp8(wq.data(), in.data(), ws[0], n);
	ck_dev<uint16_t> din(in);
	ck_dev<uint8_t> dq(n);
	ck_dev<float> ds(1);
	if (!ck_run(per_tensor_quant_fp8(din.as<__nv_bfloat16>(), dq.as<__nv_fp8_e4m3>(),
					 ds.p, n, 0)))
		return -1;
	return ck_compare("scale", ds.get(), ws, 0, 0) +
	       ck_compare("q", ck_from_fp8(dq.get()), ck_from_fp8(wq), 0, 0);
}

static double time_one(const ck_size &z, double *spread)
{
	long n = z["T"] * z["D"];
	ck_rng r(1);
	ck_dev<uint16_t> din(ck_bf16(r, n, -8, 8));
	ck_dev<uint8_t> dq(n);
	ck_dev<float> ds(1);
	return ck_time_us([&] {
		return per_tensor_quant_fp8(din.as<__nv_bfloat16>(), dq.as<__nv_fp8_e4m3>(),
					    ds.p, n, 0);
	}, spread);
}

int main(int argc, char **argv)
{
	ck_sample s{"per_tensor_quant_fp8", {"T", "D"}, {4096, 8192},
		    {{1, 8192}, {3, 7168}, {1, 1001}, {64, 8192}, {333, 7168},
		     {4096, 8192}},
		    check_one, time_one};
	return ck_main(s, argc, argv);
}
