// A block size the project keeps in a header, for two kernels.
#include <cuda_runtime.h>

#define PAIR_BLOCK 256
