/*
 * names.c - the candidates' enum names (roles, sites, reasons, kinds) and
 * positions in a text: what the frontend reports and the plan's JSON
 * spells. This file builds without libclang, so plans are read and
 * checked (planner/plan_read.c) on machines that have none.
 */
#include "ktc/frontend.h"

#include <string.h>

static const char *const role_names[KT_ROLE_COUNT_] = {
    "block_size",       "grid",       "smem",
    "unroll",           "tile",       "vector_width",
    "items_per_thread", "group_size", "warps",
    "per_block",        "other",
};
static const char *const site_names[KT_SITE_COUNT_] = {
    "expr",         "launch_grid",   "launch_block",  "launch_smem",
    "dim3",         "pragma_unroll", "macro",         "constexpr",
    "template_arg", "array_dim",     "launch_bounds",
};
static const char *const reason_names[KT_REASON_COUNT_] = {
    "warp_size", "fp8_max", "format_group", "eps",  "shift",
    "mask",      "shuffle", "trivial",      "math", "type_size",
    "untied",    "unsafe",  "ambiguous",
};
static const char *const cand_names[KT_CAND_COUNT_] = {
    "launch",    "dim3",          "block_tied", "unroll", "macro",
    "constexpr", "template_arg",  "array_dim",  "vector", "items",
    "group",     "launch_bounds", "literal",
};

static const char *name_of(const char *const *names, int n, int v)
{
	return v >= 0 && v < n ? names[v] : "?";
}

static int index_of(const char *const *names, int n, const char *s)
{
	for (int i = 0; s && i < n; i++)
		if (!strcmp(names[i], s))
			return i;
	return -1;
}

const char *kt_role_name(kt_role r)
{
	return name_of(role_names, KT_ROLE_COUNT_, (int)r);
}
const char *kt_site_name(kt_site s)
{
	return name_of(site_names, KT_SITE_COUNT_, (int)s);
}
const char *kt_reason_name(kt_reason r)
{
	return name_of(reason_names, KT_REASON_COUNT_, (int)r);
}
const char *kt_cand_kind_name(kt_cand_kind k)
{
	return name_of(cand_names, KT_CAND_COUNT_, (int)k);
}
int kt_role_from_name(const char *s)
{
	return index_of(role_names, KT_ROLE_COUNT_, s);
}
int kt_site_from_name(const char *s)
{
	return index_of(site_names, KT_SITE_COUNT_, s);
}
int kt_reason_from_name(const char *s)
{
	return index_of(reason_names, KT_REASON_COUNT_, s);
}

kt_pos kt_pos_at(const char *text, size_t len, uint32_t offset)
{
	kt_pos pos = {.offset = offset, .line = 1, .col = 1};
	for (size_t i = 0; i < offset && i < len; i++) {
		if (text[i] == '\n') {
			pos.line++;
			pos.col = 1;
		} else {
			pos.col++;
		}
	}
	return pos;
}
