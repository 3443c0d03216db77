/* broken.cl - a template whose kernel does not compile at its defaults. */
#pragma kt param BLOCK values(64, 128) default(64)
#pragma kt launch grid(16) block(BLOCK)
#pragma kt arg z float[1024] out
__kernel void broken(__global float *z)
{
	z[get_global_id(0)] = undeclared_name;
}
