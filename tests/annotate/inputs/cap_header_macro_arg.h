// Helpers a project keeps in a header: a clamp and its block size.
#include <cuda_runtime.h>

#define CLAMP_MIN(a, b) ((a) < (b) ? (a) : (b))
#define SHIFT_BLOCK 256
