// header_block_macro.h: block sizes defined in a header, as ggml's
// per-operation headers define CUDA_<OP>_BLOCK_SIZE.
#pragma once
#define SCALE_BLOCK_SIZE 256
#define SUM_BLOCK_SIZE 128
