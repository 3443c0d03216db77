// launch_bounds_macro: the block is a macro of the file (`#define BS
// 256`) that the kernels' `__launch_bounds__(BS)` name too: the define
// becomes the parameter and the bounds follow it by expansion (up to
// 61c3ba0 each bound was also an edit of the macro parameter, and the
// built-in planner's plan was refused as invalid: nothing annotated).
// The second kernel's launch pragma keeps the define's default, which
// its bound then reads too.
#define BS 256
__global__ void __launch_bounds__(BS) k1(float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = 1.0f;
}
__global__ void __launch_bounds__(BS) k2(float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = 2.0f;
}
void run(float *y, int n)
{
	k1<<<(n + BS - 1) / BS, BS>>>(y, n);
	k2<<<(n + BS - 1) / BS, BS>>>(y, n);
}
