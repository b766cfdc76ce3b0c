/* The run as a whole, the top of the monitor's modules but main: its defaults, which
 * control messages it admits, the table from message tag to the module that handles
 * it, and freeing every module's state. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calib.h"
#include "clocks.h"
#include "cost.h"
#include "cpsearch.h"
#include "critpath.h"
#include "ending.h"
#include "findings.h"
#include "hang.h"
#include "preserve.h"
#include "pvmmon/errors.h"
#include "registry.h"
#include "rrmon.h"
#include "run.h"
#include "status.h"
#include "tasks.h"
#include "trace.h"

void run__init(mon_run *run, const mon_io *io)
{
	memset(run, 0, sizeof(*run));
	run->io = *io;
	run->rr_mode = 1; /* every run can be replayed unless told otherwise */
	run->flush_ms = 1000;
	run->linger_ns = 10000000000LL;
	run->checkpoint_ns = 10000000000LL;
	run->trace_cut = INT64_MAX;
	run->hist_buckets = 128;
	run->hist_width_ns = 10000000;
	run->hist_hottest = 8;
}

/* Counts and says a refused control message (once per sender, so that a flood does not
 * flood stderr too). */
static void refuse(mon_run *run, int src, int tag, const char *why)
{
	static int last_src;

	run->refused++;
	if (src != last_src)
		fprintf(stderr, "pvmmon-monitor: refused a control message (%s) from t%x: %s\n",
		        wire__tag_name(tag), (unsigned)src, why);
	last_src = src;
}

int run__admitted(mon_run *run, int src, int tag)
{
	if (tag == WIRE_TAG_REGISTER || tag == WIRE_TAG_STATUS)
		return 1;
	if (tag == WIRE_TAG_TASKEXIT) {
		if (src & (int)0x80000000)
			return 1;
		refuse(run, src, tag, "not from a pvmd");
		return 0;
	}
	if (!tasks__find(run, src)) {
		refuse(run, src, tag, "not a task of this run");
		return 0;
	}
	return 1;
}

typedef void (*handler)(mon_run *run, int src, const uint8_t *data, size_t len);
/* A handler that checks the run's token: PVMMON_EINVAL when it is wrong. */
typedef int (*token_handler)(mon_run *run, int src, const uint8_t *data, size_t len);

/* Who handles each kind of message the monitor receives (common/wire_tags.def); the
 * token handlers' senders need not be tasks of the run. */
static const struct {
	handler fn;
	token_handler checked;
} handlers[WIRE_NKINDS] = {
    [WIRE_KIND_REGISTER] = {NULL, registry__register},
    [WIRE_KIND_SPAWNED] = {registry__spawned, NULL},
    [WIRE_KIND_QUERY] = {registry__query, NULL},
    [WIRE_KIND_CLOCK] = {clocks__estimate, NULL},
    [WIRE_KIND_CALIB] = {calib__message, NULL},
    [WIRE_KIND_RECORDS] = {registry__records, NULL},
    [WIRE_KIND_TRACE] = {trace__chunk, NULL},
    [WIRE_KIND_CPSAMPLE] = {critpath__sample, NULL},
    [WIRE_KIND_STATUS] = {NULL, status__request},
    [WIRE_KIND_RECORD] = {rrmon__record, NULL},
    [WIRE_KIND_LID] = {rrmon__lid, NULL},
    [WIRE_KIND_DIVERGED] = {rrmon__diverged, NULL},
    [WIRE_KIND_STOPPED] = {rrmon__stopped, NULL},
    [WIRE_KIND_PWAIT] = {preserve__message, NULL},
    [WIRE_KIND_FATAL] = {ending__fatal, NULL},
    [WIRE_KIND_WAIT] = {hang__wait, NULL},
    [WIRE_KIND_WAITEND] = {hang__waitend, NULL},
    [WIRE_KIND_FINDING] = {findings__message, NULL},
};

void run__dispatch(mon_run *run, int src, int tag, const uint8_t *data, size_t len)
{
	int k = wire__tag_kind(tag);

	if (k < 0 || (!handlers[k].fn && !handlers[k].checked))
		run->bad_messages++;
	else if (handlers[k].fn)
		handlers[k].fn(run, src, data, len);
	else if (handlers[k].checked(run, src, data, len) < 0)
		refuse(run, src, tag, "wrong token");
	/* Registrations, exits and flushes change what preserve mode may decide. */
	if (run->pr && tag != WIRE_TAG_PWAIT)
		preserve__evaluate(run);
}

void run__task_exit(mon_run *run, int32_t tid)
{
	registry__task_exit(run, tid);
	hang__evaluate(run);
	if (run->pr)
		preserve__evaluate(run);
}

void run__free(mon_run *run)
{
	preserve__free(run);
	hang__free(run);
	cost__free(run);
	rrmon__free(run);
	clocks__free(run);
	calib__free(run);
	findings__free(run);
	tasks__free(run);
	cpsearch__free(run);
	free(run->args);
	free(run->cp_procs);
	free(run->hist_run);
	free(run->hist_ctl);
	free(run->stop_lid);
	run->args = NULL;
	run->cp_procs = NULL;
	run->stop_lid = NULL;
}
