// A misspelt directive name gets the closest one.
#pragma kt parm BLOCK values(64, 128)
#pragma kt constrain BLOCK > 1
#pragma kt frobnicate
__global__ void k(float *x, float *y, int n) {}
