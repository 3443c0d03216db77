/*
 * export_main.c - links against the C that `ktc export` wrote for
 * tests/deploy/inputs/scale.kt.cu (a wisdom of two shapes on an H100) and
 * checks its dispatch without a GPU: exact shapes, the nearest, the
 * default where the nearest's constraint fails, the default on another
 * device.
 */
#include "scale_tuned.h"

#include <stdio.h>
#include <string.h>

static int failures;

static void expect(const char *device, int64_t n, const char *want)
{
	const char *key = NULL;
	int c = scale_config_for(device, n, &key);
	if (c < 0 || !key || strcmp(key, want)) {
		fprintf(stderr, "N=%lld on %s: got %s, want %s\n", (long long)n,
		        device, key ? key : "(none)", want);
		failures++;
	}
}

int main(void)
{
	const char *h100 = "NVIDIA H100 80GB HBM3";
	expect(h100, 1024, "BLOCK=64,ITEMS=1");
	expect(h100, 65536, "BLOCK=256,ITEMS=4");
	expect(h100, 2000, "BLOCK=64,ITEMS=1");
	expect(h100, 40000, "BLOCK=256,ITEMS=4");
	expect(h100, 50002, "BLOCK=128,ITEMS=1"); /* 50002 % 4 != 0 */
	expect("NVIDIA A100-SXM4-80GB", 1024, "BLOCK=128,ITEMS=1");
	printf("%s\n",
	       failures ? "export dispatch: FAILED" : "export dispatch: ok");
	return failures ? 1 : 0;
}
