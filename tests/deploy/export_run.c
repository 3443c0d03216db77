/*
 * export_run.c - runs the C that `ktc export` wrote for
 * tests/deploy/inputs/scale.kt.cu (y = 2.5 x) on the GPU: at tuned shapes,
 * an untuned one (the nearest's configuration) and one where the
 * nearest's constraint fails (the defaults), each launch's outputs
 * checked. Exits 77 where there is no CUDA device.
 */
#include "scale_tuned.h"

#include <stdio.h>
#include <stdlib.h>

static int run_at(const char *device, int64_t n)
{
	size_t bytes = (size_t)n * sizeof(float);
	float *x = malloc(bytes), *y = malloc(bytes);
	CUdeviceptr dx = 0, dy = 0;
	int bad = !x || !y;
	for (int64_t i = 0; !bad && i < n; i++)
		x[i] = (float)(i % 1000) - 500.0f;
	bad = bad || cuMemAlloc(&dx, bytes) || cuMemAlloc(&dy, bytes) ||
	      cuMemcpyHtoD(dx, x, bytes) || cuMemsetD8(dy, 0xff, bytes);
	void *args[4] = {&dy, &dx, NULL, NULL};
	CUresult r = bad ? CUDA_ERROR_UNKNOWN : scale(n, args, NULL);
	bad = bad || r != CUDA_SUCCESS || cuCtxSynchronize() ||
	      cuMemcpyDtoH(y, dy, bytes);
	int64_t wrong = 0;
	for (int64_t i = 0; !bad && i < n; i++)
		wrong += y[i] != 2.5f * x[i];
	const char *key = NULL;
	scale_config_for(device, n, &key);
	printf("N=%lld: %s, launch %d, %lld of %lld wrong\n", (long long)n,
	       key ? key : "?", (int)r, (long long)wrong, (long long)n);
	if (dx)
		cuMemFree(dx);
	if (dy)
		cuMemFree(dy);
	free(x);
	free(y);
	return bad || wrong;
}

int main(void)
{
	CUdevice dev;
	CUcontext ctx;
	int count = 0;
	if (cuInit(0) || cuDeviceGetCount(&count) || count == 0) {
		printf("no CUDA device: skipped\n");
		return 77;
	}
	char name[256];
	if (cuDeviceGet(&dev, 0) || cuDeviceGetName(name, sizeof(name), dev) ||
	    cuDevicePrimaryCtxRetain(&ctx, dev) || cuCtxSetCurrent(ctx))
		return 1;
	printf("on %s\n", name);
	int failures = 0;
	const int64_t shapes[] = {1024, 65536, 1000, 50002, 3};
	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++)
		failures += run_at(name, shapes[i]);
	return failures ? 1 : 0;
}
