/*
 * runtime/cuda/profile.c - CUPTI range profiler (CUDA 13's profiling API):
 * a host object builds the configuration image for a few metrics once; each
 * profiled configuration then runs as one user range under user replay, so
 * ktc restores the inputs and flushes L2 itself before every pass instead of
 * letting CUPTI save and restore all device memory.
 */
#include "runtime/cuda/profile.h"
#include "util/cuda.h"

#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_target.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#define PROF_FUNCS(X)                                                          \
	X(cuptiGetResultString)                                                \
	X(cuptiProfilerInitialize)                                             \
	X(cuptiDeviceGetChipName)                                              \
	X(cuptiProfilerGetCounterAvailability)                                 \
	X(cuptiProfilerHostInitialize)                                         \
	X(cuptiProfilerHostDeinitialize)                                       \
	X(cuptiProfilerHostConfigAddMetrics)                                   \
	X(cuptiProfilerHostGetConfigImageSize)                                 \
	X(cuptiProfilerHostGetConfigImage)                                     \
	X(cuptiProfilerHostEvaluateToGpuValues)                                \
	X(cuptiRangeProfilerEnable)                                            \
	X(cuptiRangeProfilerDisable)                                           \
	X(cuptiRangeProfilerGetCounterDataSize)                                \
	X(cuptiRangeProfilerCounterDataImageInitialize)                        \
	X(cuptiRangeProfilerSetConfig)                                         \
	X(cuptiRangeProfilerStart)                                             \
	X(cuptiRangeProfilerStop)                                              \
	X(cuptiRangeProfilerPushRange)                                         \
	X(cuptiRangeProfilerPopRange)                                          \
	X(cuptiRangeProfilerDecodeData)                                        \
	X(cuptiRangeProfilerGetCounterDataInfo)

static const char *metrics[] = {
    "dram__bytes_read.sum",
    "dram__bytes_write.sum",
    "sm__warps_active.avg.pct_of_peak_sustained_active",
    "sm__throughput.avg.pct_of_peak_sustained_elapsed",
};
static const struct {
	const char *name, *unit;
} measures[] = {
    {"dram_read", "B"},
    {"dram_write", "B"},
    {"achieved_occupancy", "%"},
    {"sm_throughput", "%"},
};
enum { NMETRICS = sizeof(metrics) / sizeof(metrics[0]) };

struct kt_cu_profiler {
	void *lib;
#define PROF_FIELD(name) __typeof__(name) *name;
	PROF_FUNCS(PROF_FIELD)
#undef PROF_FIELD
	CUpti_Profiler_Host_Object *host;
	CUpti_RangeProfiler_Object *range;
	uint8_t *config, *counters;
	size_t config_size, counters_size;
};

/* Turns off profiling with one note; always returns 0. */
static int give_up(kt_cu_worker *w, struct kt_cu_profiler *p, CUptiResult r,
                   const char *what)
{
	const char *text = NULL;
	if (p && p->cuptiGetResultString)
		p->cuptiGetResultString(r, &text);
	snprintf(w->profile_note, sizeof(w->profile_note),
	         "hardware counters are not available (%s: %s); the run goes "
	         "on without them",
	         what, text ? text : "CUPTI is not installed");
	w->profile = false;
	kt_cu_profile_close(w);
	return 0;
}

static struct kt_cu_profiler *load_cupti(void)
{
	static const char *names[] = {
	    "libcupti.so.13",
	    "%s/lib64/libcupti.so.13",
	    "%s/extras/CUPTI/lib64/libcupti.so.13",
	    "libcupti.so",
	};
	struct kt_cu_profiler *p = kt_calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	for (size_t i = 0; i < 4 && !p->lib; i++) {
		char path[4096];
		snprintf(path, sizeof(path), names[i], kt_cuda_root());
		p->lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	}
	if (!p->lib) {
		kt_free(p);
		return NULL;
	}
#define PROF_RESOLVE(name)                                                     \
	if (!(*(void **)&p->name = dlsym(p->lib, #name))) {                    \
		dlclose(p->lib);                                               \
		kt_free(p);                                                    \
		return NULL;                                                   \
	}
	PROF_FUNCS(PROF_RESOLVE)
#undef PROF_RESOLVE
	return p;
}

#define TRY(call, what)                                                        \
	do {                                                                   \
		CUptiResult r_ = (call);                                       \
		if (r_ != CUPTI_SUCCESS)                                       \
			return give_up(w, p, r_, what);                        \
	} while (0)

static int host_config(kt_cu_worker *w, struct kt_cu_profiler *p,
                       const char *chip, uint8_t *avail)
{
	CUpti_Profiler_Host_Initialize_Params hi = {
	    .structSize = CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
	hi.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
	hi.pChipName = chip;
	hi.pCounterAvailabilityImage = avail;
	TRY(p->cuptiProfilerHostInitialize(&hi), "cuptiProfilerHostInitialize");
	p->host = hi.pHostObject;
	CUpti_Profiler_Host_ConfigAddMetrics_Params add = {
	    .structSize =
	        CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
	add.pHostObject = p->host;
	add.ppMetricNames = metrics;
	add.numMetrics = NMETRICS;
	TRY(p->cuptiProfilerHostConfigAddMetrics(&add), "adding metrics");
	CUpti_Profiler_Host_GetConfigImageSize_Params cs = {
	    .structSize =
	        CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
	cs.pHostObject = p->host;
	TRY(p->cuptiProfilerHostGetConfigImageSize(&cs), "config image size");
	p->config_size = cs.configImageSize;
	if (!(p->config = kt_calloc(1, p->config_size + 1)))
		return kt_error(KT_ENOMEM, "out of memory");
	CUpti_Profiler_Host_GetConfigImage_Params ci = {
	    .structSize =
	        CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
	ci.pHostObject = p->host;
	ci.pConfigImage = p->config;
	ci.configImageSize = p->config_size;
	TRY(p->cuptiProfilerHostGetConfigImage(&ci), "config image");
	return 0;
}

static int counter_image(kt_cu_worker *w, struct kt_cu_profiler *p)
{
	CUpti_RangeProfiler_Enable_Params en = {
	    .structSize = CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
	en.ctx = w->ctx;
	TRY(p->cuptiRangeProfilerEnable(&en), "cuptiRangeProfilerEnable");
	p->range = en.pRangeProfilerObject;
	CUpti_RangeProfiler_GetCounterDataSize_Params ds = {
	    .structSize =
	        CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
	ds.pRangeProfilerObject = p->range;
	ds.pMetricNames = metrics;
	ds.numMetrics = NMETRICS;
	ds.maxNumOfRanges = 1;
	ds.maxNumRangeTreeNodes = 1;
	TRY(p->cuptiRangeProfilerGetCounterDataSize(&ds), "counter data size");
	p->counters_size = ds.counterDataSize;
	if (!(p->counters = kt_calloc(1, p->counters_size + 1)))
		return kt_error(KT_ENOMEM, "out of memory");
	return 0;
}

static int open_profiler(kt_cu_worker *w)
{
	struct kt_cu_profiler *p = load_cupti();
	if (!p)
		return give_up(w, NULL, CUPTI_ERROR_UNKNOWN, "dlopen libcupti");
	w->profiler = p;
	CUpti_Profiler_Initialize_Params init = {
	    .structSize = CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
	TRY(p->cuptiProfilerInitialize(&init), "cuptiProfilerInitialize");
	CUpti_Device_GetChipName_Params cn = {
	    .structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE};
	cn.deviceIndex = (size_t)w->dev; /* a CUdevice is its ordinal */
	TRY(p->cuptiDeviceGetChipName(&cn), "cuptiDeviceGetChipName");
	CUpti_Profiler_GetCounterAvailability_Params av = {
	    .structSize =
	        CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE};
	av.ctx = w->ctx;
	TRY(p->cuptiProfilerGetCounterAvailability(&av),
	    "counter availability");
	uint8_t *avail = kt_calloc(1, av.counterAvailabilityImageSize + 1);
	if (!avail)
		return kt_error(KT_ENOMEM, "out of memory");
	av.pCounterAvailabilityImage = avail;
	CUptiResult r = p->cuptiProfilerGetCounterAvailability(&av);
	int rc = r == CUPTI_SUCCESS ? host_config(w, p, cn.pChipName, avail)
	                            : give_up(w, p, r, "counter availability");
	kt_free(avail);
	if (!rc && w->profiler)
		rc = counter_image(w, p);
	return rc;
}

static int set_config(kt_cu_worker *w, struct kt_cu_profiler *p)
{
	memset(p->counters, 0, p->counters_size);
	CUpti_RangeProfiler_CounterDataImage_Initialize_Params ci = {
	    .structSize =
	        CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
	ci.pRangeProfilerObject = p->range;
	ci.pCounterData = p->counters;
	ci.counterDataSize = p->counters_size;
	TRY(p->cuptiRangeProfilerCounterDataImageInitialize(&ci),
	    "counter data image");
	CUpti_RangeProfiler_SetConfig_Params sc = {
	    .structSize = CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
	sc.pRangeProfilerObject = p->range;
	sc.pConfig = p->config;
	sc.configSize = p->config_size;
	sc.pCounterDataImage = p->counters;
	sc.counterDataImageSize = p->counters_size;
	sc.range = CUPTI_UserRange;
	sc.replayMode = CUPTI_UserReplay;
	sc.maxRangesPerPass = 1;
	sc.numNestingLevels = 1;
	sc.minNestingLevel = 1;
	sc.passIndex = 0;
	sc.targetNestingLevel = 1;
	TRY(p->cuptiRangeProfilerSetConfig(&sc), "cuptiRangeProfilerSetConfig");
	return 0;
}

/* One replay pass; *done when CUPTI has every pass it needs. */
static int one_pass(kt_cu_worker *w, struct kt_cu_profiler *p, kt_cu_inst *in,
                    const kt_cu_prog *prog, const kt_cu_launch *l, bool *done)
{
	CUresult cr = kt_cu_prepare(w, in, 0, 0);
	if (cr == CUDA_SUCCESS)
		cr = kt_cu_flush(w);
	if (cr == CUDA_SUCCESS)
		cr = w->d.cuStreamSynchronize(w->stream);
	if (cr != CUDA_SUCCESS)
		return kt_cu_check(&w->d, cr, "preparing a profiled run");
	CUpti_RangeProfiler_Start_Params st = {
	    .structSize = CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
	st.pRangeProfilerObject = p->range;
	TRY(p->cuptiRangeProfilerStart(&st), "cuptiRangeProfilerStart");
	CUpti_RangeProfiler_PushRange_Params push = {
	    .structSize = CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE};
	push.pRangeProfilerObject = p->range;
	push.pRangeName = "config";
	TRY(p->cuptiRangeProfilerPushRange(&push),
	    "cuptiRangeProfilerPushRange");
	cr = kt_cu_launch_on(w, in, prog, l);
	if (cr == CUDA_SUCCESS)
		cr = w->d.cuStreamSynchronize(w->stream);
	if (cr != CUDA_SUCCESS) {
		w->broken = true;
		return kt_cu_check(&w->d, cr, "a profiled run");
	}
	CUpti_RangeProfiler_PopRange_Params pop = {
	    .structSize = CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE};
	pop.pRangeProfilerObject = p->range;
	TRY(p->cuptiRangeProfilerPopRange(&pop), "cuptiRangeProfilerPopRange");
	CUpti_RangeProfiler_Stop_Params sp = {
	    .structSize = CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
	sp.pRangeProfilerObject = p->range;
	TRY(p->cuptiRangeProfilerStop(&sp), "cuptiRangeProfilerStop");
	*done = sp.isAllPassSubmitted != 0;
	return kt_cu_beat(w);
}

static int evaluate(kt_cu_worker *w, struct kt_cu_profiler *p, double *v)
{
	CUpti_RangeProfiler_DecodeData_Params dd = {
	    .structSize = CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
	dd.pRangeProfilerObject = p->range;
	TRY(p->cuptiRangeProfilerDecodeData(&dd),
	    "cuptiRangeProfilerDecodeData");
	CUpti_Profiler_Host_EvaluateToGpuValues_Params ev = {
	    .structSize =
	        CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
	ev.pHostObject = p->host;
	ev.pCounterDataImage = p->counters;
	ev.counterDataImageSize = p->counters_size;
	ev.rangeIndex = 0;
	ev.ppMetricNames = metrics;
	ev.numMetrics = NMETRICS;
	ev.pMetricValues = v;
	TRY(p->cuptiProfilerHostEvaluateToGpuValues(&ev), "evaluating metrics");
	return 0;
}

int kt_cu_profile(kt_cu_worker *w, kt_cu_inst *in, const kt_cu_prog *prog,
                  const kt_cu_launch *l, kt_measure *m, size_t *nm, size_t max)
{
	int rc = w->profiler ? 0 : open_profiler(w);
	struct kt_cu_profiler *p = w->profiler;
	if (rc || !w->profile || !p)
		return rc;
	rc = set_config(w, p);
	bool done = false;
	for (int pass = 0; !rc && w->profile && !done && pass < 64; pass++)
		rc = one_pass(w, p, in, prog, l, &done);
	double v[NMETRICS] = {0};
	if (!rc && w->profile && done)
		rc = evaluate(w, p, v);
	for (size_t i = 0; !rc && w->profile && done && i < NMETRICS; i++) {
		if (*nm >= max)
			break;
		snprintf(m[*nm].name, sizeof(m[*nm].name), "%s",
		         measures[i].name);
		snprintf(m[*nm].unit, sizeof(m[*nm].unit), "%s",
		         measures[i].unit);
		m[(*nm)++].value = v[i];
	}
	return rc;
}

void kt_cu_profile_close(kt_cu_worker *w)
{
	struct kt_cu_profiler *p = w->profiler;
	if (!p)
		return;
	if (p->range) {
		CUpti_RangeProfiler_Disable_Params d = {
		    .structSize =
		        CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
		d.pRangeProfilerObject = p->range;
		p->cuptiRangeProfilerDisable(&d);
	}
	if (p->host) {
		CUpti_Profiler_Host_Deinitialize_Params d = {
		    .structSize =
		        CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
		d.pHostObject = p->host;
		p->cuptiProfilerHostDeinitialize(&d);
	}
	kt_free(p->config);
	kt_free(p->counters);
	/* the library stays loaded: CUPTI does not support being unloaded */
	kt_free(p);
	w->profiler = NULL;
}
