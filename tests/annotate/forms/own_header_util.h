// own_header_util.h: device helpers beside host includes and host code.
#pragma once
#include <stdbool.h>
#include <stdio.h>
#include <vector>

#include "own_header_math.h"

#define KT_GAIN 3.0f

struct pair_f {
	float lo, hi;
};

static inline __device__ float twice(float x)
{
	return 2.0f * x;
}

template <typename T> __device__ T clamp_to(T x, pair_f lim)
{
	return x < lim.lo ? lim.lo : (x > lim.hi ? lim.hi : x);
}

struct host_buffer {
	std::vector<float> data;
	size_t size() const
	{
		return data.size();
	}
};

static void report(bool ok)
{
	printf("%s\n", ok ? "ok" : "bad");
}

std::vector<int> sizes_of(int n);

/* attributes spelled through macros before a host prototype */
#define KT_NORETURN [[noreturn]]
#define KT_API __attribute__((visibility("default")))
KT_NORETURN KT_API void fail_hard(const char *why);

enum kt_mode { kt_fast, kt_exact };

/* a GNU `__extension__` (NVRTC does not know it) in a device type */
typedef struct {
	__extension__ union {
		struct {
			float lo, hi;
		};
		float both[2];
	};
} range_f;

/* CUDA runtime device functions that NVRTC does not declare */
static __device__ void wait_for_previous_grid()
{
	cudaGridDependencySynchronize();
	cudaTriggerProgrammaticLaunchCompletion();
}
