// Host code already kept from NVRTC by the file's own guards, in each form
// the rewriter recognises, beside host code that is not (host_d).
#include <cuda_runtime.h>
#ifndef __CUDACC_RTC__
#include <vector>
static int host_a(void) { return 1; }
#endif
#if !defined(__CUDACC_RTC__)
static int host_b(void) { return 2; }
#endif
#ifdef __CUDACC_RTC__
#define KT_TEST_RTC 1
#else
static int host_c(void) { return 3; }
#endif
#if defined(__CUDACC_RTC__) || defined(KT_TEST_OTHER)
#else
static int host_d(void) { return 4; }
#endif

__global__ void zero(float *y) { y[blockIdx.x * 256 + threadIdx.x] = 0; }

#ifndef __CUDACC_RTC__
#if KT_TEST_OTHER
#else
#endif
void launch(float *y, int n) { zero<<<n / 256, 256>>>(y); }
#endif
