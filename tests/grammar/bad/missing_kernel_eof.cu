#pragma kt param A values(1, 2)
#pragma kt constraint A > 0
