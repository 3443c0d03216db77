/*
 * types.c - the element types of kernel arguments with their C spellings,
 * and the DEVICE_* constants expressions may use.
 *
 * The fallback of each DEVICE_* constant is the value an NVIDIA H100 SXM5
 * (compute capability 9.0) reports; it stands in wherever no device answers
 * (`ktc space` on a machine without a GPU). A backend overrides each one
 * with what its device reports, by the same index.
 */
#include "grammar/grammar.h"

#include <float.h>
#include <string.h>

static const struct type_info {
	const char *name;
	size_t size;
	bool is_float;
	double lo, hi;
} types[KT_TYPE_COUNT_] = {
    [KT_TYPE_F64] = {"f64", 8, true, -DBL_MAX, DBL_MAX},
    [KT_TYPE_F32] = {"f32", 4, true, -FLT_MAX, FLT_MAX},
    [KT_TYPE_F16] = {"f16", 2, true, -65504, 65504},
    [KT_TYPE_BF16] = {"bf16", 2, true, -3.3895313892515355e38,
                      3.3895313892515355e38},
    [KT_TYPE_FP8_E4M3] = {"fp8e4m3", 1, true, -448, 448},
    [KT_TYPE_FP8_E5M2] = {"fp8e5m2", 1, true, -57344, 57344},
    [KT_TYPE_I8] = {"i8", 1, false, -128, 127},
    [KT_TYPE_I16] = {"i16", 2, false, -32768, 32767},
    [KT_TYPE_I32] = {"i32", 4, false, -2147483648.0, 2147483647.0},
    [KT_TYPE_I64] = {"i64", 8, false, -9223372036854775808.0,
                     9223372036854775807.0},
    [KT_TYPE_U8] = {"u8", 1, false, 0, 255},
    [KT_TYPE_U16] = {"u16", 2, false, 0, 65535},
    [KT_TYPE_U32] = {"u32", 4, false, 0, 4294967295.0},
    [KT_TYPE_U64] = {"u64", 8, false, 0, 18446744073709551615.0},
};

size_t kt_type_size(kt_type t)
{
	return (unsigned)t < KT_TYPE_COUNT_ ? types[t].size : 0;
}

const char *kt_type_name(kt_type t)
{
	return (unsigned)t < KT_TYPE_COUNT_ ? types[t].name : "?";
}

bool kt_type_is_float(kt_type t)
{
	return (unsigned)t < KT_TYPE_COUNT_ && types[t].is_float;
}

void gram_type_range(kt_type t, double *lo, double *hi)
{
	*lo = (unsigned)t < KT_TYPE_COUNT_ ? types[t].lo : 0;
	*hi = (unsigned)t < KT_TYPE_COUNT_ ? types[t].hi : 0;
}

/*
 * C, CUDA and OpenCL spellings. `long` is 64-bit (LP64 hosts, CUDA device
 * code and OpenCL agree) and plain `char` is signed, as on x86 and in CUDA.
 */
static const struct alias {
	const char *spelling;
	kt_type type;
} aliases[] = {
    {"double", KT_TYPE_F64},
    {"float", KT_TYPE_F32},
    {"half", KT_TYPE_F16},
    {"__half", KT_TYPE_F16},
    {"__nv_bfloat16", KT_TYPE_BF16},
    {"nv_bfloat16", KT_TYPE_BF16},
    {"__bf16", KT_TYPE_BF16},
    {"__nv_fp8_e4m3", KT_TYPE_FP8_E4M3},
    {"__nv_fp8_e5m2", KT_TYPE_FP8_E5M2},
    {"char", KT_TYPE_I8},
    {"signed char", KT_TYPE_I8},
    {"int8_t", KT_TYPE_I8},
    {"short", KT_TYPE_I16},
    {"short int", KT_TYPE_I16},
    {"signed short", KT_TYPE_I16},
    {"int16_t", KT_TYPE_I16},
    {"int", KT_TYPE_I32},
    {"signed", KT_TYPE_I32},
    {"signed int", KT_TYPE_I32},
    {"int32_t", KT_TYPE_I32},
    {"long", KT_TYPE_I64},
    {"long int", KT_TYPE_I64},
    {"long long", KT_TYPE_I64},
    {"long long int", KT_TYPE_I64},
    {"signed long", KT_TYPE_I64},
    {"signed long long", KT_TYPE_I64},
    {"int64_t", KT_TYPE_I64},
    {"ptrdiff_t", KT_TYPE_I64},
    {"unsigned char", KT_TYPE_U8},
    {"uchar", KT_TYPE_U8},
    {"uint8_t", KT_TYPE_U8},
    {"unsigned short", KT_TYPE_U16},
    {"unsigned short int", KT_TYPE_U16},
    {"ushort", KT_TYPE_U16},
    {"uint16_t", KT_TYPE_U16},
    {"unsigned", KT_TYPE_U32},
    {"unsigned int", KT_TYPE_U32},
    {"uint", KT_TYPE_U32},
    {"uint32_t", KT_TYPE_U32},
    {"unsigned long", KT_TYPE_U64},
    {"unsigned long int", KT_TYPE_U64},
    {"unsigned long long", KT_TYPE_U64},
    {"unsigned long long int", KT_TYPE_U64},
    {"ulong", KT_TYPE_U64},
    {"uint64_t", KT_TYPE_U64},
    {"size_t", KT_TYPE_U64},
};
enum { NALIASES = sizeof(aliases) / sizeof(aliases[0]) };

/* Every accepted spelling, for "did you mean". */
const char *const gram_type_spellings[] = {
    "f64",
    "f32",
    "f16",
    "bf16",
    "fp8e4m3",
    "fp8e5m2",
    "i8",
    "i16",
    "i32",
    "i64",
    "u8",
    "u16",
    "u32",
    "u64",
    "double",
    "float",
    "half",
    "__half",
    "__nv_bfloat16",
    "nv_bfloat16",
    "__bf16",
    "__nv_fp8_e4m3",
    "__nv_fp8_e5m2",
    "char",
    "int8_t",
    "short",
    "int16_t",
    "int",
    "signed",
    "int32_t",
    "long",
    "int64_t",
    "ptrdiff_t",
    "uchar",
    "uint8_t",
    "ushort",
    "uint16_t",
    "unsigned",
    "uint",
    "uint32_t",
    "ulong",
    "uint64_t",
    "size_t",
};
const size_t gram_ntype_spellings =
    sizeof(gram_type_spellings) / sizeof(gram_type_spellings[0]);

int gram_type_lookup(const char *spelling)
{
	for (int t = 0; t < KT_TYPE_COUNT_; t++)
		if (!strcmp(types[t].name, spelling))
			return t;
	for (size_t i = 0; i < NALIASES; i++)
		if (!strcmp(aliases[i].spelling, spelling))
			return (int)aliases[i].type;
	return -1;
}

const kt_device_const_info kt_device_consts[] = {
    {"DEVICE_SM_COUNT", 132, "streaming multiprocessors (CUDA)"},
    {"DEVICE_MAX_THREADS_PER_BLOCK", 1024, "threads in one block"},
    {"DEVICE_MAX_BLOCK_DIM_X", 1024, "largest block size in x"},
    {"DEVICE_MAX_BLOCK_DIM_Y", 1024, "largest block size in y"},
    {"DEVICE_MAX_BLOCK_DIM_Z", 64, "largest block size in z"},
    {"DEVICE_MAX_GRID_DIM_X", 2147483647, "largest grid size in x"},
    {"DEVICE_MAX_GRID_DIM_Y", 65535, "largest grid size in y"},
    {"DEVICE_MAX_GRID_DIM_Z", 65535, "largest grid size in z"},
    {"DEVICE_WARP_SIZE", 32, "threads in a warp"},
    {"DEVICE_SMEM_PER_BLOCK", 49152,
     "shared memory a block gets without opting in (bytes)"},
    {"DEVICE_SMEM_PER_BLOCK_OPTIN", 232448,
     "shared memory a block may opt in to (bytes)"},
    {"DEVICE_SMEM_PER_SM", 233472, "shared memory of one SM (bytes)"},
    {"DEVICE_REGS_PER_BLOCK", 65536, "32-bit registers one block may use"},
    {"DEVICE_REGS_PER_SM", 65536, "32-bit registers of one SM"},
    {"DEVICE_MAX_REGS_PER_THREAD", 255, "registers one thread may use"},
    {"DEVICE_MAX_THREADS_PER_SM", 2048, "resident threads per SM"},
    {"DEVICE_MAX_BLOCKS_PER_SM", 32, "resident blocks per SM"},
    {"DEVICE_L2_SIZE", 52428800, "L2 cache (bytes)"},
    {"DEVICE_CC_MAJOR", 9, "compute capability, major"},
    {"DEVICE_CC_MINOR", 0, "compute capability, minor"},
    {"DEVICE_COMPUTE_UNITS", 132,
     "compute units (OpenCL); the SM count on CUDA"},
    {"DEVICE_LOCAL_MEM_SIZE", 49152,
     "local memory of a work-group (OpenCL, bytes); shared memory per "
     "block on CUDA"},
    {"DEVICE_MAX_WORK_GROUP_SIZE", 1024,
     "work-items in a work-group (OpenCL); threads per block on CUDA"},
};
const size_t kt_device_nconsts =
    sizeof(kt_device_consts) / sizeof(kt_device_consts[0]);

_Static_assert(sizeof(kt_device_consts) / sizeof(kt_device_consts[0]) < 64,
               "kt_device_info holds 64 device constants");

int kt_device_const_index(const char *name)
{
	return gram_device_lookup(name, strlen(name));
}

int gram_device_lookup(const char *name, size_t n)
{
	for (size_t i = 0; i < kt_device_nconsts; i++)
		if (strlen(kt_device_consts[i].name) == n &&
		    !memcmp(kt_device_consts[i].name, name, n))
			return (int)i;
	return -1;
}
