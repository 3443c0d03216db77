// nvcc_fails: libclang parses it, nvcc refuses it (an #error under __NVCC__):
// scripts/annotate-all.sh lists it apart from the files nvcc compiles.
#ifdef __NVCC__
#error "this file is built by another compiler"
#endif
__global__ void add_one(float *y, int n)
{
	int i = blockIdx.x * 256 + threadIdx.x;
	if (i < n)
		y[i] += 1.0f;
}
void launch(float *y, int n) { add_one<<<(n + 255) / 256, 256>>>(y, n); }
