/*
 * cuda.h - where the CUDA toolkit is and which GPU ktc targets when none is
 * named: one answer for the frontend's parse, the rewriter's verification
 * and the CUDA backend's NVRTC and CUPTI, so they never disagree.
 */
#ifndef KTC_UTIL_CUDA_H
#define KTC_UTIL_CUDA_H

/* The target when neither --arch nor a device says otherwise: Hopper's
 * arch-specific target, the GPU ktc's tuning runs were made on. */
#define KT_CUDA_DEFAULT_ARCH "sm_90a"

/* The toolkit root: $CUDA_HOME when set, else the root the build was
 * configured with (KTC_CUDA_ROOT), else /usr/local/cuda. */
const char *kt_cuda_root(void);

#endif
