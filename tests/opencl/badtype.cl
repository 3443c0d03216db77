/* badtype.cl - an argument of a type the grammar does not know (float4). */
#pragma kt param BLOCK values(64, 128) default(64)
#pragma kt launch grid(16) block(BLOCK)
#pragma kt arg x float4[1024] in
#pragma kt arg z float[1024] out
__kernel void badtype(__global const float4 *x, __global float *z)
{
	z[get_global_id(0)] = x[get_global_id(0) / 4].x;
}
