#pragma kt param A values(1, 2)
#pragma kt constraint A == "two"
#pragma kt kernel template("float", A, "unterminated)
__global__ void k(float *x, float *y, int n) {}
