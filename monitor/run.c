/* The run as a whole, the top of the monitor's modules but main: its defaults, which
 * control messages it admits, the table from message tag to the module that handles
 * it, and freeing every module's state. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clocks.h"
#include "cost.h"
#include "cpsearch.h"
#include "critpath.h"
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
}

static const char *tag_name(int tag)
{
	static const char *const names[] = {
	    "REGISTER", "WELCOME",    "SPAWNED",  "QUERY",  "ANSWER",   "RECORDS",
	    "TASKEXIT", "TRACE",      "CPSAMPLE", "CTL",    "STATUS",   "SNAPSHOT",
	    "RECORD",   "REPLAYDATA", "LID",      "LIDTID", "DIVERGED", "STOPPED",
	    "MONLOST",  "PWAIT",      "PGRANT",   "PASK",   "CLOCK",    "CLOCKSET"};
	unsigned i = (unsigned)tag - (unsigned)WIRE_TAG_REGISTER;

	return i < sizeof(names) / sizeof(names[0]) ? names[i] : "an unknown tag";
}

/* Counts and says a refused control message (once per sender, so that a flood does not
 * flood stderr too). */
static void refuse(mon_run *run, int src, int tag, const char *why)
{
	static int last_src;

	run->refused++;
	if (src != last_src)
		fprintf(stderr, "pvmmon-monitor: refused a control message (%s) from t%x: %s\n",
		        tag_name(tag), (unsigned)src, why);
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

/* Who handles each tag the monitor receives; the token handlers' senders need not be
 * tasks of the run. */
static const struct {
	int tag;
	handler fn;
	token_handler checked;
} handlers[] = {
    {WIRE_TAG_REGISTER, NULL, registry__register}, {WIRE_TAG_SPAWNED, registry__spawned, NULL},
    {WIRE_TAG_QUERY, registry__query, NULL},       {WIRE_TAG_CLOCK, clocks__estimate, NULL},
    {WIRE_TAG_RECORDS, registry__records, NULL},   {WIRE_TAG_TRACE, trace__chunk, NULL},
    {WIRE_TAG_CPSAMPLE, critpath__sample, NULL},   {WIRE_TAG_STATUS, NULL, status__request},
    {WIRE_TAG_RECORD, rrmon__record, NULL},        {WIRE_TAG_LID, rrmon__lid, NULL},
    {WIRE_TAG_DIVERGED, rrmon__diverged, NULL},    {WIRE_TAG_STOPPED, rrmon__stopped, NULL},
    {WIRE_TAG_PWAIT, preserve__message, NULL},
};

void run__dispatch(mon_run *run, int src, int tag, const uint8_t *data, size_t len)
{
	size_t i, n = sizeof(handlers) / sizeof(handlers[0]);

	for (i = 0; i < n && handlers[i].tag != tag; i++)
		;
	if (i == n)
		run->bad_messages++;
	else if (handlers[i].fn)
		handlers[i].fn(run, src, data, len);
	else if (handlers[i].checked(run, src, data, len) < 0)
		refuse(run, src, tag, "wrong token");
	/* Registrations, exits and flushes change what preserve mode may decide. */
	if (run->pr && tag != WIRE_TAG_PWAIT)
		preserve__evaluate(run);
}

void run__task_exit(mon_run *run, int32_t tid)
{
	registry__task_exit(run, tid);
	if (run->pr)
		preserve__evaluate(run);
}

void run__free(mon_run *run)
{
	preserve__free(run);
	cost__free(run);
	rrmon__free(run);
	clocks__free(run);
	tasks__free(run);
	cpsearch__free(run);
	free(run->args);
	free(run->cp_procs);
	free(run->stop_lid);
	run->args = NULL;
	run->cp_procs = NULL;
	run->stop_lid = NULL;
}
