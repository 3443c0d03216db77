/*
 * ktc/annotate.h - the annotate pipeline's data in one include: what the
 * frontend finds in a CUDA file (ktc/frontend.h) and the edit plan the
 * planner hands to the verifying rewriter (ktc/plan.h). It declares
 * nothing of its own; the library's stages include the header of the stage
 * that owns what they use.
 */
#ifndef KTC_ANNOTATE_H
#define KTC_ANNOTATE_H

#include "ktc/frontend.h"
#include "ktc/plan.h"

#endif
