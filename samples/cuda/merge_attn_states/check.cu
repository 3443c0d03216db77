// check.cu - runs merge_attn_states (SAMPLE_SRC: the original or the
// template with -D values) on random partial results, some lse at +-inf,
// and compares with ref.c.
#include "../common/check.h"
#include SAMPLE_SRC

static long check_one(const ck_size &z, uint64_t seed)
{
	long t = z["T"], h = z["H"], d = z["HD"], n = t * h * d;
	ck_rng r(seed);
	auto va = ck_bf16(r, n, -2, 2), vb = ck_bf16(r, n, -2, 2);
	auto sa = ck_f32(r, t * h, -6, 6), sb = ck_f32(r, t * h, -6, 6);
	for (long i = 0; i < t * h; i += 7) // empty partials on one side
		(i % 2 ? sa : sb)[i] = i % 3 ? INFINITY : -INFINITY;
	std::vector<uint16_t> wv(n);
	std::vector<float> ws(t * h);
	ref_merge_attn_states(wv.data(), ws.data(), va.data(), sa.data(), vb.data(),
			      sb.data(), t, h, d);
	ck_dev<uint16_t> dva(va), dvb(vb), dout(n);
	ck_dev<float> dsa(sa), dsb(sb), dls(t * h);
	if (!ck_run(merge_attn_states(dout.as<__nv_bfloat16>(), dls.p,
				      dva.as<__nv_bfloat16>(), dsa.p,
				      dvb.as<__nv_bfloat16>(), dsb.p, t, h, d, 0)))
		return -1;
	return ck_compare("out", ck_from_bf16(dout.get()), ck_from_bf16(wv), 1e-3,
			  2e-2) +
	       ck_compare("out_lse", dls.get(), ws, 1e-5, 1e-5);
}

static double time_one(const ck_size &z, double *spread)
{
	long t = z["T"], h = z["H"], d = z["HD"], n = t * h * d;
	ck_rng r(1);
	ck_dev<uint16_t> dva(ck_bf16(r, n, -2, 2)), dvb(ck_bf16(r, n, -2, 2)), dout(n);
	ck_dev<float> dsa(ck_f32(r, t * h, -6, 6)), dsb(ck_f32(r, t * h, -6, 6));
	ck_dev<float> dls(t * h);
	return ck_time_us([&] {
		return merge_attn_states(dout.as<__nv_bfloat16>(), dls.p,
					 dva.as<__nv_bfloat16>(), dsa.p,
					 dvb.as<__nv_bfloat16>(), dsb.p, t, h, d, 0);
	}, spread);
}

int main(int argc, char **argv)
{
	ck_sample s{"merge_attn_states", {"T", "H", "HD"}, {4096, 32, 128},
		    {{1, 32, 128}, {3, 64, 128}, {64, 32, 128}, {333, 32, 128},
		     {4096, 32, 128}, {7, 5, 64}},
		    check_one, time_one};
	return ck_main(s, argc, argv);
}
