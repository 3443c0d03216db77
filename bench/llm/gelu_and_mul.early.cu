{
	const long t = blockIdx.x;
	const uint4 *x = reinterpret_cast<const uint4 *>(in + t * 2 * d);
	const uint4 *y = reinterpret_cast<const uint4 *>(in + t * 2 * d + d);
	uint4 *o = reinterpret_cast<uint4 *>(out + t * d);
	for (int i = threadIdx.x + blockIdx.y * blockDim.x; i < d / 8;
	     i += blockDim.x * gridDim.y) {
		uint4 xv = x[i], yv = y[i], ov;
		const __nv_bfloat162 *xp = reinterpret_cast<const __nv_bfloat162 *>(&xv);
		const __nv_bfloat162 *yp = reinterpret_cast<const __nv_bfloat162 *>(&yv);
		__nv_bfloat162 *op = reinterpret_cast<__nv_bfloat162 *>(&ov);
		for (int k = 0; k < 4; k++) {
			float2 a = __bfloat1622float2(xp[k]);
			float2 b = __bfloat1622float2(yp[k]);
			// gelu(a) * b = h + h * erf(a / sqrt(2)), h = a * b / 2:
			// b is needed before the erf, so its load is issued with a's
			float h0 = 0.5f * a.x * b.x, h1 = 0.5f * a.y * b.y;
			op[k] = __floats2bfloat162_rn(
			    h0 + h0 * erff(a.x * 0.70710678118654752f),
			    h1 + h1 * erff(a.y * 0.70710678118654752f));
		}
		o[i] = ov;
	}
}
