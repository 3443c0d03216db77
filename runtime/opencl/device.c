/*
 * device.c - OpenCL platforms and devices: which one `--device` names, what
 * it is called, and the DEVICE_* constants a template's expressions read.
 *
 * The constants come from one table that maps each name to an OpenCL
 * query, so the CUDA-flavoured names (DEVICE_MAX_THREADS_PER_BLOCK,
 * DEVICE_SMEM_PER_BLOCK, DEVICE_SM_COUNT) and the OpenCL ones
 * (..._WORK_GROUP_SIZE,
 * ..._LOCAL_MEM_SIZE, ..._COMPUTE_UNITS) give the same numbers, and a
 * template written for either reads right on both. Every OpenCL status
 * becomes a ktc error here, in ocl_fail.
 */
#include "runtime/opencl/ocl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define E(x)                                                                   \
	{                                                                      \
		x, #x                                                          \
	}
static const struct {
	cl_int code;
	const char *name;
} cl_errors[] = {
    E(CL_DEVICE_NOT_FOUND),
    E(CL_DEVICE_NOT_AVAILABLE),
    E(CL_COMPILER_NOT_AVAILABLE),
    E(CL_MEM_OBJECT_ALLOCATION_FAILURE),
    E(CL_OUT_OF_RESOURCES),
    E(CL_OUT_OF_HOST_MEMORY),
    E(CL_PROFILING_INFO_NOT_AVAILABLE),
    E(CL_BUILD_PROGRAM_FAILURE),
    E(CL_MISALIGNED_SUB_BUFFER_OFFSET),
    E(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST),
    E(CL_INVALID_VALUE),
    E(CL_INVALID_DEVICE_TYPE),
    E(CL_INVALID_PLATFORM),
    E(CL_INVALID_DEVICE),
    E(CL_INVALID_CONTEXT),
    E(CL_INVALID_COMMAND_QUEUE),
    E(CL_INVALID_MEM_OBJECT),
    E(CL_INVALID_BINARY),
    E(CL_INVALID_BUILD_OPTIONS),
    E(CL_INVALID_PROGRAM),
    E(CL_INVALID_PROGRAM_EXECUTABLE),
    E(CL_INVALID_KERNEL_NAME),
    E(CL_INVALID_KERNEL_DEFINITION),
    E(CL_INVALID_KERNEL),
    E(CL_INVALID_ARG_INDEX),
    E(CL_INVALID_ARG_VALUE),
    E(CL_INVALID_ARG_SIZE),
    E(CL_INVALID_KERNEL_ARGS),
    E(CL_INVALID_WORK_DIMENSION),
    E(CL_INVALID_WORK_GROUP_SIZE),
    E(CL_INVALID_WORK_ITEM_SIZE),
    E(CL_INVALID_GLOBAL_OFFSET),
    E(CL_INVALID_EVENT),
    E(CL_INVALID_OPERATION),
    E(CL_INVALID_BUFFER_SIZE),
    E(CL_INVALID_GLOBAL_WORK_SIZE),
    {-1001, "CL_PLATFORM_NOT_FOUND_KHR"},
};
#undef E

const char *ocl_strerror(cl_int err)
{
	static _Thread_local char buf[32];
	for (size_t i = 0; i < sizeof(cl_errors) / sizeof(cl_errors[0]); i++)
		if (cl_errors[i].code == err)
			return cl_errors[i].name;
	snprintf(buf, sizeof(buf), "CL error %d", (int)err);
	return buf;
}

int ocl_fail(cl_int err, const char *what)
{
	return kt_error(KT_EBACKEND, "opencl: %s failed: %s", what,
	                ocl_strerror(err));
}

enum { MAX_PLATFORMS = 16, MAX_DEVICES = 64 };

static int list_platforms(cl_platform_id *ids, cl_uint *n)
{
	cl_int err = clGetPlatformIDs(MAX_PLATFORMS, ids, n);
	if (err == -1001 /* CL_PLATFORM_NOT_FOUND_KHR */ || (!err && !*n))
		return kt_error(
		    KT_EUNSUPPORTED,
		    "no OpenCL platform found: the ICD loader found no "
		    "driver (install one, e.g. pocl-opencl-icd, or check "
		    "OCL_ICD_VENDORS)");
	if (err)
		return ocl_fail(err, "clGetPlatformIDs");
	if (*n > MAX_PLATFORMS)
		*n = MAX_PLATFORMS;
	return 0;
}

static cl_uint list_devices(cl_platform_id p, cl_device_id *ids)
{
	cl_uint n = 0;
	if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, MAX_DEVICES, ids, &n))
		return 0;
	return n < MAX_DEVICES ? n : MAX_DEVICES;
}

static void device_name(cl_device_id d, char *buf, size_t len)
{
	if (clGetDeviceInfo(d, CL_DEVICE_NAME, len, buf, NULL))
		snprintf(buf, len, "?");
	buf[len - 1] = '\0';
}

/* "0:0 'pthread-haswell', 0:1 '...'" for an error message. */
static void describe_all(kt_str *s, const cl_platform_id *plats, cl_uint np)
{
	cl_device_id devs[MAX_DEVICES];
	char name[128];
	for (cl_uint p = 0; p < np; p++) {
		cl_uint nd = list_devices(plats[p], devs);
		for (cl_uint d = 0; d < nd; d++) {
			device_name(devs[d], name, sizeof(name));
			kt_str_addf(s, "%s%u:%u '%s'", s->len ? ", " : "", p, d,
			            name);
		}
	}
}

/* True when spec is "P:D" with both numbers. */
static bool parse_index(const char *spec, unsigned *p, unsigned *d)
{
	char *end;
	unsigned long a = strtoul(spec, &end, 10);
	if (end == spec || *end != ':')
		return false;
	const char *s2 = end + 1;
	unsigned long b = strtoul(s2, &end, 10);
	if (end == s2 || *end)
		return false;
	*p = (unsigned)a;
	*d = (unsigned)b;
	return true;
}

static bool name_matches(cl_platform_id p, cl_device_id d, const char *spec)
{
	char name[256];
	device_name(d, name, sizeof(name));
	if (strstr(name, spec))
		return true;
	if (clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof(name), name, NULL))
		return false;
	name[sizeof(name) - 1] = '\0';
	return strstr(name, spec) != NULL;
}

int ocl_device_select(cl_platform_id *platform, cl_device_id *device,
                      const char *spec)
{
	cl_platform_id plats[MAX_PLATFORMS];
	cl_device_id devs[MAX_DEVICES];
	cl_uint np = 0;
	unsigned want_p = 0, want_d = 0;
	int rc = list_platforms(plats, &np);
	if (rc)
		return rc;
	bool by_index = !spec || !*spec || parse_index(spec, &want_p, &want_d);
	for (cl_uint p = 0; p < np; p++) {
		cl_uint nd = list_devices(plats[p], devs);
		for (cl_uint d = 0; d < nd; d++) {
			if (by_index ? p == want_p && d == want_d
			             : name_matches(plats[p], devs[d], spec)) {
				*platform = plats[p];
				*device = devs[d];
				return 0;
			}
		}
	}
	kt_str all = KT_STR_INIT;
	describe_all(&all, plats, np);
	rc = kt_error(KT_ENOTFOUND, "no OpenCL device '%s' (devices: %s)",
	              spec && *spec ? spec : "0:0", all.len ? all.ptr : "none");
	kt_str_release(&all);
	return rc;
}

static int64_t query_size(cl_device_id d, cl_device_info what)
{
	size_t v = 0;
	return clGetDeviceInfo(d, what, sizeof(v), &v, NULL) ? -1 : (int64_t)v;
}

static int64_t query_ulong(cl_device_id d, cl_device_info what)
{
	cl_ulong v = 0;
	return clGetDeviceInfo(d, what, sizeof(v), &v, NULL) ? -1 : (int64_t)v;
}

static int64_t query_uint(cl_device_id d, cl_device_info what)
{
	cl_uint v = 0;
	return clGetDeviceInfo(d, what, sizeof(v), &v, NULL) ? -1 : (int64_t)v;
}

/* Largest work-group size in dimension `what` (0, 1, 2). */
static int64_t query_item(cl_device_id d, cl_device_info what)
{
	size_t v[3] = {0, 0, 0};
	if (clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof(v), v,
	                    NULL))
		return -1;
	return (int64_t)v[what];
}

/* Vendor extensions: NVIDIA's warp and AMD's wavefront width. */
#define CL_DEVICE_WARP_SIZE_NV 0x4003
#define CL_DEVICE_WAVEFRONT_WIDTH_AMD 0x4043

/*
 * DEVICE_* names (kt_device_consts) and the OpenCL query that answers each;
 * the names missing here (grid limits, registers, compute capability) keep
 * their fallbacks, as does a query the device does not answer.
 */
static const struct {
	const char *name;
	int64_t (*query)(cl_device_id, cl_device_info);
	cl_device_info what;
} const_queries[] = {
    {"DEVICE_SM_COUNT", query_uint, CL_DEVICE_MAX_COMPUTE_UNITS},
    {"DEVICE_COMPUTE_UNITS", query_uint, CL_DEVICE_MAX_COMPUTE_UNITS},
    {"DEVICE_MAX_THREADS_PER_BLOCK", query_size, CL_DEVICE_MAX_WORK_GROUP_SIZE},
    {"DEVICE_MAX_WORK_GROUP_SIZE", query_size, CL_DEVICE_MAX_WORK_GROUP_SIZE},
    {"DEVICE_MAX_BLOCK_DIM_X", query_item, 0},
    {"DEVICE_MAX_BLOCK_DIM_Y", query_item, 1},
    {"DEVICE_MAX_BLOCK_DIM_Z", query_item, 2},
    {"DEVICE_SMEM_PER_BLOCK", query_ulong, CL_DEVICE_LOCAL_MEM_SIZE},
    {"DEVICE_SMEM_PER_BLOCK_OPTIN", query_ulong, CL_DEVICE_LOCAL_MEM_SIZE},
    {"DEVICE_LOCAL_MEM_SIZE", query_ulong, CL_DEVICE_LOCAL_MEM_SIZE},
    {"DEVICE_L2_SIZE", query_ulong, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE},
    {"DEVICE_WARP_SIZE", query_uint, CL_DEVICE_WARP_SIZE_NV},
    {"DEVICE_WARP_SIZE", query_uint, CL_DEVICE_WAVEFRONT_WIDTH_AMD},
};

static void fill_consts(kt_device_info *info, cl_device_id d)
{
	size_t n = kt_device_nconsts < 64 ? kt_device_nconsts : 64;
	for (size_t i = 0; i < n; i++) {
		for (size_t q = 0;
		     q < sizeof(const_queries) / sizeof(const_queries[0]);
		     q++) {
			if (strcmp(kt_device_consts[i].name,
			           const_queries[q].name))
				continue;
			int64_t v =
			    const_queries[q].query(d, const_queries[q].what);
			if (v >= 0) {
				info->consts[i] = v;
				info->has_const[i] = true;
			}
		}
	}
}

static void info_string(char *dst, size_t len, cl_int err)
{
	if (err)
		snprintf(dst, len, "?");
	dst[len - 1] = '\0';
}

void ocl_device_describe(kt_device_info *info, cl_platform_id platform,
                         cl_device_id device)
{
	char dev[80], plat[40];
	cl_device_type type = 0;
	memset(info, 0, sizeof(*info));
	device_name(device, dev, sizeof(dev));
	info_string(plat, sizeof(plat),
	            clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof(plat),
	                              plat, NULL));
	snprintf(info->name, sizeof(info->name), "%s (%s)", dev, plat);
	snprintf(info->backend, sizeof(info->backend), "opencl");
	info_string(info->driver, sizeof(info->driver),
	            clGetDeviceInfo(device, CL_DRIVER_VERSION,
	                            sizeof(info->driver), info->driver, NULL));
	info_string(info->runtime, sizeof(info->runtime),
	            clGetDeviceInfo(device, CL_DEVICE_VERSION,
	                            sizeof(info->runtime), info->runtime,
	                            NULL));
	clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof(type), &type, NULL);
	snprintf(info->arch, sizeof(info->arch), "%s",
	         type & CL_DEVICE_TYPE_GPU           ? "gpu"
	         : type & CL_DEVICE_TYPE_CPU         ? "cpu"
	         : type & CL_DEVICE_TYPE_ACCELERATOR ? "accelerator"
	                                             : "other");
	fill_consts(info, device);
}

void ocl_device_values(kt_value *out, const kt_model *m,
                       const kt_device_info *info)
{
	for (size_t j = 0; j < m->ndevices; j++) {
		out[j] = m->devices[j].fallback;
		for (size_t i = 0; i < kt_device_nconsts && i < 64; i++)
			if (info->has_const[i] &&
			    !strcmp(kt_device_consts[i].name,
			            m->devices[j].name))
				out[j] = kt_int(info->consts[i]);
	}
}
