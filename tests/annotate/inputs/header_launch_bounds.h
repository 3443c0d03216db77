// header_launch_bounds.h: a block size defined in a header.
#pragma once
#define QUANT_BLOCK_SIZE 256
