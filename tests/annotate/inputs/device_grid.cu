// Grids sized from the device, as persistent and grid-stride launches
// are: an attribute read with cudaDeviceGetAttribute, a cudaDeviceProp
// field (of an object, through a local, through a pointer a host function
// returns), clamped by the problem. The launch line takes the grammar's
// device constant (DEVICE_SM_COUNT), which `ktc tune` fills for the
// device it runs on. A local a call writes through its address is not its
// initialiser: with an unknown call it is a size the host decides.
#include <algorithm>
#include <cuda_runtime.h>

__global__ void fill_kernel(float *out, float v, int n)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += blockDim.x * gridDim.x)
		out[i] = v;
}

__global__ void add_kernel(float *out, const float *in, int n)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += blockDim.x * gridDim.x)
		out[i] += in[i];
}

__global__ void scale_kernel(float *out, const float *in, float a, int n)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += blockDim.x * gridDim.x)
		out[i] = a * in[i];
}

__global__ void copy_kernel(float *out, const float *in, int n)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += blockDim.x * gridDim.x)
		out[i] = in[i];
}

__global__ void zero_kernel(float *out, int n)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += blockDim.x * gridDim.x)
		out[i] = 0.0f;
}

const cudaDeviceProp *device_properties();
void blocks_for(int *blocks, int n);
void waves_for(int &waves, int n);

void fill(float *out, float v, int n, cudaStream_t s)
{
	int dev = 0, sms = 0;
	cudaGetDevice(&dev);
	cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
	fill_kernel<<<sms * 4, 256, 0, s>>>(out, v, n);
}

void add(float *out, const float *in, int n, cudaStream_t s)
{
	cudaDeviceProp prop;
	cudaGetDeviceProperties(&prop, 0);
	const int blocks = prop.multiProcessorCount * 2;
	add_kernel<<<blocks, 128, 0, s>>>(out, in, n);
}

void scale(float *out, const float *in, float a, int n, cudaStream_t s)
{
	const cudaDeviceProp *props = device_properties();
	int grid = std::min(props->multiProcessorCount * 8, (n + 511) / 512);
	scale_kernel<<<grid, 512, 0, s>>>(out, in, a, n);
}

void copy(float *out, const float *in, int n, cudaStream_t s)
{
	int blocks = 1;
	blocks_for(&blocks, n);
	copy_kernel<<<blocks, 256, 0, s>>>(out, in, n);
}

void zero(float *out, int n, cudaStream_t s)
{
	int waves = 2;
	waves_for(waves, n);
	zero_kernel<<<waves * 132, 128, 0, s>>>(out, n);
}
