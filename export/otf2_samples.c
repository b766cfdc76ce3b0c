/*
 * `pvmmon export --otf2` of a sampled run: each task's call-path samples as OTF2
 * calling-context samples (CallingContext definitions, one InterruptGenerator per rate,
 * CallingContextSample events), the paths resolved by graphs/samples.c as the reports
 * and the other export tables have them.
 */
#include <stdlib.h>
#include <string.h>

#include <otf2/otf2.h>

#include "../graphs/samples.h"
#include "otf2_samples.h"
#include "pvmmon/errors.h"

/* The most frames of one path written (deeper ones are cut at this depth). */
#define MAX_DEPTH 256

typedef struct ctx {
	uint32_t name;   /* index of its procedure's name: its region */
	uint32_t parent; /* OTF2_UNDEFINED_CALLING_CONTEXT for a root */
} ctx;

struct export_otf2_ctxs {
	char **names;
	size_t nnames, cap_names;
	ctx *ctxs;
	size_t nctxs, cap_ctxs;
	uint32_t *rates;
	size_t nrates;
};

int export__otf2_ctxs_new(export_otf2_ctxs **out)
{
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : pvmmon_error_set(PVMMON_ENOMEM, "export: out of memory");
}

void export__otf2_ctxs_free(export_otf2_ctxs *cx)
{
	if (!cx)
		return;
	for (size_t i = 0; i < cx->nnames; i++)
		free(cx->names[i]);
	free(cx->names);
	free(cx->ctxs);
	free(cx->rates);
	free(cx);
}

/* Grows *p (n items of size each, capacity *cap) for one more: 0 or -1. */
static int grow(void **p, size_t n, size_t *cap, size_t size)
{
	void *q;

	if (n < *cap)
		return 0;
	q = realloc(*p, (*cap ? 2 * *cap : 64) * size);
	if (!q)
		return -1;
	*p = q;
	*cap = *cap ? 2 * *cap : 64;
	return 0;
}

/* The index of the name of len bytes at s, added when new; -1 when memory is short. */
static int64_t name_index(export_otf2_ctxs *cx, const char *s, size_t len)
{
	for (size_t i = 0; i < cx->nnames; i++)
		if (strlen(cx->names[i]) == len && !strncmp(cx->names[i], s, len))
			return (int64_t)i;
	if (grow((void **)&cx->names, cx->nnames, &cx->cap_names, sizeof(*cx->names)) < 0 ||
	    !(cx->names[cx->nnames] = strndup(s, len)))
		return -1;
	return (int64_t)cx->nnames++;
}

/* The calling context of name under parent, added when new; -1 when memory is short. */
static int64_t ctx_index(export_otf2_ctxs *cx, uint32_t name, uint32_t parent)
{
	for (size_t i = 0; i < cx->nctxs; i++)
		if (cx->ctxs[i].name == name && cx->ctxs[i].parent == parent)
			return (int64_t)i;
	if (grow((void **)&cx->ctxs, cx->nctxs, &cx->cap_ctxs, sizeof(*cx->ctxs)) < 0)
		return -1;
	cx->ctxs[cx->nctxs] = (ctx){name, parent};
	return (int64_t)cx->nctxs++;
}

/* The interrupt generator of rate hz, added when new; -1 when memory is short. */
static int64_t rate_index(export_otf2_ctxs *cx, uint32_t hz)
{
	uint32_t *r;

	for (size_t i = 0; i < cx->nrates; i++)
		if (cx->rates[i] == hz)
			return (int64_t)i;
	r = realloc(cx->rates, (cx->nrates + 1) * sizeof(*r));
	if (!r)
		return -1;
	cx->rates = r;
	cx->rates[cx->nrates] = hz;
	return (int64_t)cx->nrates++;
}

/* The leaf calling context of a path's text ("main > f > g") and its depth into *depth;
 * -1 when memory is short. */
static int64_t path_ctx(export_otf2_ctxs *cx, const char *text, uint32_t *depth)
{
	uint32_t parent = OTF2_UNDEFINED_CALLING_CONTEXT;
	const char *p = text;

	*depth = 0;
	while (*p && *depth < MAX_DEPTH) {
		const char *end = strstr(p, " > ");
		size_t len = end ? (size_t)(end - p) : strlen(p);
		int64_t n = name_index(cx, p, len), c;

		if (n < 0 || (c = ctx_index(cx, (uint32_t)n, parent)) < 0)
			return -1;
		parent = (uint32_t)c;
		(*depth)++;
		p = end ? end + 3 : p + len;
	}
	return parent == OTF2_UNDEFINED_CALLING_CONTEXT ? -2 : (int64_t)parent;
}

int export__otf2_samples(OTF2_EvtWriter *w, export_otf2_ctxs *cx, const pvmmon_log_task *t,
                         uint64_t ts, uint64_t *count)
{
	OTF2_ErrorCode err = OTF2_SUCCESS;
	graphs_samples s;
	int64_t gen;
	int rc;

	*count = 0;
	if (!t->samples)
		return 0;
	if ((rc = graphs__samples_of(t, &s)) < 0)
		return rc;
	gen = rate_index(cx, s.hz);
	for (size_t i = 0; gen >= 0 && rc == 0 && err == OTF2_SUCCESS && i < s.npaths; i++) {
		uint32_t depth;
		int64_t c = path_ctx(cx, s.paths[i].text, &depth);

		if (c == -2)
			continue;
		if (c < 0) {
			rc = PVMMON_ENOMEM;
			break;
		}
		for (uint64_t k = 0; k < s.paths[i].count && err == OTF2_SUCCESS; k++) {
			err = OTF2_EvtWriter_CallingContextSample(w, NULL, ts, (uint32_t)c, depth,
			                                          (uint32_t)gen);
			(*count)++;
		}
	}
	graphs__samples_clear(&s);
	if (gen < 0 || rc == PVMMON_ENOMEM)
		return pvmmon_error_set(PVMMON_ENOMEM, "export: out of memory");
	if (err != OTF2_SUCCESS)
		return pvmmon_error_set(PVMMON_EIO, "export: OTF2 cannot write the samples of task %s: %s",
		                        t->lid ? t->lid : "?", OTF2_Error_GetDescription(err));
	return 0;
}

int export__otf2_samples_defs(OTF2_GlobalDefWriter *g, const export_otf2_ctxs *cx,
                              uint32_t s_first, uint32_t r_first)
{
	uint32_t s_gen = s_first + (uint32_t)cx->nnames, s_empty = s_gen + 1;
	OTF2_ErrorCode err = OTF2_SUCCESS;

	if (!cx->nctxs)
		return 0;
	for (size_t i = 0; i < cx->nnames && err == OTF2_SUCCESS; i++)
		err = OTF2_GlobalDefWriter_WriteString(g, s_first + (uint32_t)i, cx->names[i]);
	if (err == OTF2_SUCCESS)
		err = OTF2_GlobalDefWriter_WriteString(g, s_gen, "CPU-time sampling (pvmmon run --sample)");
	if (err == OTF2_SUCCESS)
		err = OTF2_GlobalDefWriter_WriteString(g, s_empty, "");
	/* A region per sampled procedure, named as the reports name it. */
	for (size_t i = 0; i < cx->nnames && err == OTF2_SUCCESS; i++)
		err = OTF2_GlobalDefWriter_WriteRegion(
		    g, r_first + (uint32_t)i, s_first + (uint32_t)i, s_first + (uint32_t)i, s_empty,
		    OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_SAMPLING, OTF2_REGION_FLAG_NONE,
		    s_empty, 0, 0);
	/* Parents come before their children (a path's contexts are made from main in). */
	for (size_t i = 0; i < cx->nctxs && err == OTF2_SUCCESS; i++)
		err = OTF2_GlobalDefWriter_WriteCallingContext(g, (uint32_t)i,
		                                               r_first + cx->ctxs[i].name,
		                                               OTF2_UNDEFINED_SOURCE_CODE_LOCATION,
		                                               cx->ctxs[i].parent);
	/* A timer of CPU time: a period of 10^9 / hz ns. */
	for (size_t i = 0; i < cx->nrates && err == OTF2_SUCCESS; i++)
		err = OTF2_GlobalDefWriter_WriteInterruptGenerator(
		    g, (uint32_t)i, s_gen, OTF2_INTERRUPT_GENERATOR_MODE_TIME, OTF2_BASE_DECIMAL, -9,
		    cx->rates[i] ? 1000000000u / cx->rates[i] : 0);
	return (int)err;
}
