/*
 * rt_offline.c - a host program built against an installed ktc runtime
 * (ktc::rt from find_package, or pkg-config's ktcrt): it opens the runtime
 * for a described H100 (no GPU needed), loads TEMPLATE, prepares a shape
 * (NVRTC compiles it into CACHE) and prints the configuration chosen.
 *
 *   rt_offline TEMPLATE CACHE N
 */
#include <ktc/rt.h>

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: rt_offline TEMPLATE CACHE N\n");
		return 2;
	}
	kt_rt_options o = {.cache_dir = argv[2],
	                   .offline_name = "NVIDIA H100 80GB HBM3",
	                   .offline_arch = "sm_90a",
	                   .offline_driver = 13000};
	kt_rt *rt = NULL;
	kt_rt_kernel *k = NULL;
	int64_t n = strtoll(argv[3], NULL, 10);
	char key[256];
	const char *why = NULL;
	if (kt_rt_open(&rt, &o) || kt_rt_load(&k, rt, argv[1], NULL, NULL) ||
	    kt_rt_choice(k, &n, key, sizeof(key), &why)) {
		fprintf(stderr, "rt_offline: %s\n", kt_rt_error());
		kt_rt_close(rt);
		return 1;
	}
	printf("%s: %s (%s) for %s\n", kt_rt_device_name(rt), key, why,
	       kt_rt_device_arch(rt));
	kt_rt_close(rt);
	return 0;
}
