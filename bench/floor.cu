// floor.cu - what the samples' timing harness (samples/cuda/common/check.h)
// measures for nothing and for a plain copy: the floor under a kernel's
// time at decode sizes, where launch and memory latency, not bandwidth,
// decide. bench/samples.sh runs it with the bytes each memory-bound tuning
// run moves, so the report can set a tuned time beside a copy of as many
// bytes on the same harness (a cold L2, the median of 50 launches).
//
//   floor BYTES...    prints "empty time_us=X spread=Y graph_us=Z" once,
//                     then for each BYTES "copy bytes=BYTES time_us=..."
//                     (half read, half written, 16-byte words, 256-thread
//                     blocks); time_us on a cold L2, graph_us in the steady
//                     state of a CUDA graph (samples/cuda/common/check.h)
#include "../samples/cuda/common/check.h"

__global__ void floor_empty_kernel() {}

__global__ void floor_copy_kernel(int4 *__restrict__ dst,
				  const int4 *__restrict__ src, size_t n)
{
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
	     i += (size_t)gridDim.x * blockDim.x)
		dst[i] = src[i];
}

static void print_time(const char *what, double us, double spread)
{
	printf("%s time_us=%.3f spread=%.3f graph_us=%.3f\n", what, us, spread,
	       ck_graph_us);
}

int main(int argc, char **argv)
{
	int ndev = 0, sms = 0;
	if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
		printf("floor: no CUDA device: skipped\n");
		return 77;
	}
	CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
	double spread = 0, us = ck_time_us([] {
		floor_empty_kernel<<<1, 32>>>();
		return cudaGetLastError();
	}, &spread);
	print_time("empty", us, spread);
	for (int i = 1; i < argc; i++) {
		size_t bytes = strtoull(argv[i], nullptr, 10);
		size_t n = std::max<size_t>(bytes / 2 / sizeof(int4), 1);
		int4 *src = nullptr, *dst = nullptr;
		CK(cudaMalloc(&src, n * sizeof(int4)));
		CK(cudaMalloc(&dst, n * sizeof(int4)));
		CK(cudaMemset(src, 1, n * sizeof(int4)));
		size_t blocks = std::min<size_t>((n + 255) / 256, (size_t)sms * 8);
		us = ck_time_us([&] {
			floor_copy_kernel<<<(unsigned)blocks, 256>>>(dst, src, n);
			return cudaGetLastError();
		}, &spread);
		char what[64];
		snprintf(what, sizeof what, "copy bytes=%zu", bytes);
		print_time(what, us, spread);
		CK(cudaFree(src));
		CK(cudaFree(dst));
	}
	return 0;
}
