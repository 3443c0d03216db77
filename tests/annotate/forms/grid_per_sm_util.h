// grid_per_sm_util.h - a rounding macro of another file, for
// grid_per_sm.cu.
#ifndef GRID_PER_SM_UTIL_H
#define GRID_PER_SM_UTIL_H
#define ROUND_UP(x, m) (((x) + (m)-1) / (m) * (m))
#endif
