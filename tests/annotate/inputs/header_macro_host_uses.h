// A block size the project keeps in a header, used by two host functions.
#include <cuda_runtime.h>

#define ROWS_BLOCK 256
