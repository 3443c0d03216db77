// A constraint that cannot be evaluated for any configuration is an error.
#pragma kt param BLOCK values(64, 128, 256) default(128)
#pragma kt problem N values(0, 16)
#pragma kt set PER_ITEM = BLOCK / N
#pragma kt constraint PER_ITEM >= 1
#pragma kt constraint BLOCK <= DEVICE_MAX_THREADS_PER_BLOCK
__global__ void fill(float *x)
{
	x[threadIdx.x] = PER_ITEM;
}
