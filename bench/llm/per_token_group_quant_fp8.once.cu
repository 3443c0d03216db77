{
	constexpr int kGroup = 128;
	constexpr int kVecs = kGroup / 8 / 16; // 16-byte vectors per lane
	const int lane = threadIdx.x % 16;
	const long g = (long)blockIdx.x * (blockDim.x / 16) + threadIdx.x / 16;
	const uint4 *x = reinterpret_cast<const uint4 *>(in + g * kGroup);
	const unsigned mask = blockDim.x >= 32 ? 0xffffffffu : (1u << blockDim.x) - 1;

	// each lane reads its part of the group once and keeps it in
	// registers for the quantisation, instead of reading it again
	uint4 v[kVecs];
	float amax = 1e-10f;
	for (int j = 0; j < kVecs; j++) {
		v[j] = x[lane + 16 * j];
		const __nv_bfloat162 *p = reinterpret_cast<const __nv_bfloat162 *>(&v[j]);
		for (int k = 0; k < 4; k++) {
			float2 f = __bfloat1622float2(p[k]);
			amax = fmaxf(amax, fmaxf(fabsf(f.x), fabsf(f.y)));
		}
	}
	for (int off = 8; off > 0; off /= 2)
		amax = fmaxf(amax, __shfl_xor_sync(mask, amax, off));
	const float scale = amax / 448.f;
	if (lane == 0)
		scales[g] = scale;

	// the eight fp8 bytes of a vector go out in one 8-byte store
	for (int j = 0; j < kVecs; j++) {
		const __nv_bfloat16 *p = reinterpret_cast<const __nv_bfloat16 *>(&v[j]);
		uint2 packed;
		unsigned char *b = reinterpret_cast<unsigned char *>(&packed);
		for (int k = 0; k < 8; k++) {
			float y = fminf(fmaxf(__bfloat162float(p[k]) / scale, -448.f), 448.f);
			b[k] = __nv_cvt_float_to_fp8(y, __NV_SATFINITE, __NV_E4M3);
		}
		*reinterpret_cast<uint2 *>(q + g * kGroup + (lane + 16 * j) * 8) = packed;
	}
}
