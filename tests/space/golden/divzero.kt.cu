// N % GROUP divides by zero when GROUP is 0: only those configurations go.
#pragma kt param BLOCK values(64, 128, 256) default(128)
#pragma kt param GROUP values(0, 2, 4, 8) default(2)
#pragma kt problem N values(96)
#pragma kt constraint N % GROUP == 0
#pragma kt constraint BLOCK * GROUP <= 1024
__global__ void scan(float *x)
{
	x[threadIdx.x] *= BLOCK * GROUP;
}
