// hoist_atomics_negative.cu - block-strided loops of atomics where loads
// must stay after the earlier iterations' atomics: each reads memory the
// loop may update. hoist_loads is not offered for any of them.
#include <cuda_runtime.h>

// the loop reads the array it updates (restrict says nothing of one
// pointer's own loads and atomics)
__global__ void self_update(int *__restrict__ a, int n)
{
	for (int i = threadIdx.x; i < n; i += blockDim.x)
		atomicAdd(&a[a[i] & 255], 1);
}

// two global pointers, neither __restrict__: counts may alias keys
__global__ void maybe_aliased(const int *keys, int *counts, int n)
{
	for (int i = threadIdx.x; i < n; i += blockDim.x)
		atomicAdd(&counts[keys[i]], 1);
}

// two arrays of dynamic shared memory: both start at the same address
__global__ void dynamic_shared(int m)
{
	extern __shared__ int counts[];
	extern __shared__ int order[];
	for (int i = threadIdx.x; i < m; i += blockDim.x)
		order[i] = i;
	__syncthreads();
	for (int i = threadIdx.x; i < m; i += blockDim.x)
		atomicAdd(&counts[order[i] % 64], 1);
}

// the bound is read from memory the atomics update
__global__ void moving_bound(const int *__restrict__ keys,
			     int *__restrict__ counts, int n)
{
	for (int i = threadIdx.x; i < counts[0]; i += blockDim.x)
		atomicAdd(&counts[keys[i] + 1], 1);
}

// a barrier in the loop
__global__ void with_barrier(const int *__restrict__ keys,
			     int *__restrict__ counts, int n)
{
	for (int i = threadIdx.x; i < n; i += blockDim.x) {
		atomicAdd(&counts[keys[i]], 1);
		__syncthreads();
	}
}

// a stride the kernel is given: nothing says it is positive
__global__ void given_stride(const int *__restrict__ keys,
			     int *__restrict__ counts, int n, int step)
{
	for (int i = threadIdx.x; i < n; i += step)
		atomicAdd(&counts[keys[i]], 1);
}

// the counters are where a table's pointer points: __restrict__ says the
// table is not aliased, not what its pointers reach (keys, maybe)
__global__ void through_table(const int *keys, int *const *__restrict__ table,
			      int n)
{
	for (int i = threadIdx.x; i < n; i += blockDim.x)
		atomicAdd(&table[blockIdx.x][keys[i]], 1);
}

void launch(int *a, const int *keys, int *counts, int *const *table, int n,
	    int m, cudaStream_t stream)
{
	self_update<<<1, 256, 0, stream>>>(a, n);
	maybe_aliased<<<1, 256, 0, stream>>>(keys, counts, n);
	dynamic_shared<<<1, 256, m * sizeof(int), stream>>>(m);
	moving_bound<<<1, 256, 0, stream>>>(keys, counts, n);
	with_barrier<<<1, 256, 0, stream>>>(keys, counts, n);
	given_stride<<<1, 256, 0, stream>>>(keys, counts, n, 256);
	through_table<<<4, 256, 0, stream>>>(keys, table, n);
}
