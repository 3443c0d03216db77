// check.cu - runs rotary_embedding (SAMPLE_SRC: the original or the
// template with -D values) on random queries, keys and positions with a
// real cos / sin cache (base 10000), and compares with ref.c.
#include "../common/check.h"
#include SAMPLE_SRC

static std::vector<float> cos_sin(long maxpos, long dim)
{
	std::vector<float> c(maxpos * dim);
	for (long p = 0; p < maxpos; p++)
		for (long r = 0; r < dim / 2; r++) {
			double inv = pow(10000.0, -2.0 * r / dim);
			c[p * dim + r] = (float)cos(p * inv);
			c[p * dim + dim / 2 + r] = (float)sin(p * inv);
		}
	return c;
}

static long check_one(const ck_size &z, uint64_t seed)
{
	long t = z["T"], qh = z["QH"], kh = z["KH"], d = z["HD"], maxpos = 4096;
	ck_rng r(seed);
	auto q = ck_bf16(r, t * qh * d, -2, 2), k = ck_bf16(r, t * kh * d, -2, 2);
	std::vector<int64_t> pos(t);
	for (auto &p : pos)
		p = r.below(maxpos);
	auto cache = cos_sin(maxpos, d);
	ck_dev<uint16_t> dq(q), dk(k);
	ck_dev<int64_t> dpos(pos);
	ck_dev<float> dc(cache);
	ref_rotary_neox(q.data(), k.data(), pos.data(), cache.data(), t, qh, kh, d);
	if (!ck_run(rotary_embedding(reinterpret_cast<const long *>(dpos.p),
				     dq.as<__nv_bfloat16>(), dk.as<__nv_bfloat16>(), dc.p,
				     (int)t, (int)qh, (int)kh, (int)d, 0)))
		return -1;
	return ck_compare("query", ck_from_bf16(dq.get()), ck_from_bf16(q), 1e-2, 1e-2) +
	       ck_compare("key", ck_from_bf16(dk.get()), ck_from_bf16(k), 1e-2, 1e-2);
}

static double time_one(const ck_size &z, double *spread)
{
	long t = z["T"], qh = z["QH"], kh = z["KH"], d = z["HD"], maxpos = 4096;
	ck_rng r(1);
	std::vector<int64_t> pos(t);
	for (auto &p : pos)
		p = r.below(maxpos);
	ck_dev<uint16_t> dq(ck_bf16(r, t * qh * d, -2, 2)), dk(ck_bf16(r, t * kh * d, -2, 2));
	ck_dev<int64_t> dpos(pos);
	ck_dev<float> dc(cos_sin(maxpos, d));
	return ck_time_us([&] {
		return rotary_embedding(reinterpret_cast<const long *>(dpos.p),
					dq.as<__nv_bfloat16>(), dk.as<__nv_bfloat16>(), dc.p,
					(int)t, (int)qh, (int)kh, (int)d, 0);
	}, spread);
}

int main(int argc, char **argv)
{
	ck_sample s{"rotary_embedding", {"T", "QH", "KH", "HD"}, {4096, 32, 8, 128},
		    {{1, 32, 8, 128}, {3, 32, 8, 128}, {64, 32, 8, 128}, {333, 32, 8, 128},
		     {4096, 32, 8, 128}, {5, 3, 1, 64}},
		    check_one, time_one};
	return ck_main(s, argc, argv);
}
