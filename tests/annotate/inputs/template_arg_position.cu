// A kernel template launched from a function template: in `scale<4,
// kSquare>` the kernel's name is a reference of its own in the AST, so
// which template parameter an argument sets comes from the text. The 4
// sets kItems, the items per thread (not kSquare, the second): the grid
// follows it, and the block, as the launch writes them.
template <int kItems, bool kSquare>
__global__ void scale(float *x, int n)
{
	int i = (blockIdx.x * blockDim.x + threadIdx.x) * kItems;
	for (int j = 0; j < kItems; j++)
		if (i + j < n)
			x[i + j] = kSquare ? x[i + j] * x[i + j] : 2.0f * x[i + j];
}

template <bool kSquare>
void launch(float *x, int n)
{
	scale<4, kSquare><<<(n + 128 * 4 - 1) / (128 * 4), 128>>>(x, n);
}

void run(float *x, int n, bool square)
{
	if (square)
		launch<true>(x, n);
	else
		launch<false>(x, n);
}
