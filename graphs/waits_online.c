/*
 * Why tasks wait without a trace (include/pvmmon/waits.h, log 1.14): the tables of the
 * online wait analysis, which each receiving task fills itself and sends in its record
 * flushes, summed by computation for the report's section and named for the export.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figures.h"
#include "pvmmon/errors.h"
#include "pvmmon/waits.h"

/* The computations and the waiting tasks the section shows. */
#define ONLINE_SHOWN 12

/* Sums of times a task reported: a damaged or hand-made log may hold values whose sum
 * does not fit, which saturates instead of wrapping. */
static int64_t add(int64_t a, int64_t b)
{
	int64_t r;

	if (__builtin_add_overflow(a, b, &r))
		return b > 0 ? INT64_MAX : INT64_MIN;
	return r;
}

static int64_t total(const pvmmon_wait_blame *b) { return add(b->short_ns, b->long_ns); }

/* Before the merge: by computation, then by the task that charged it. */
static int by_key(const void *pa, const void *pb)
{
	const pvmmon_wait_blame *a = pa, *b = pb;

	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	if (a->stmt != b->stmt)
		return a->stmt < b->stmt ? -1 : 1;
	return a->receivers < b->receivers ? -1 : a->receivers > b->receivers;
}

/* After it: largest first; the key settles ties, so the order does not depend on the
 * order the tasks are in. */
static int by_cost(const void *pa, const void *pb)
{
	const pvmmon_wait_blame *a = pa, *b = pb;
	int64_t x = total(a), y = total(b);

	if (x != y)
		return x > y ? -1 : 1;
	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	return a->stmt < b->stmt ? -1 : a->stmt > b->stmt;
}

int pvmmon_waits_online(pvmmon_wait_blame **out, size_t *n, const pvmmon_log *log)
{
	pvmmon_wait_blame *v;
	size_t all = 0, k = 0, m = 0, prev = 0;

	*out = NULL;
	*n = 0;
	if (!log)
		return pvmmon_error_set(PVMMON_EINVAL, "waits: no log");
	for (size_t i = 0; i < log->ntasks; i++)
		all += log->tasks[i].nblames;
	if (all == 0)
		return 0;
	v = calloc(all, sizeof(*v));
	if (!v)
		return pvmmon_error_set(PVMMON_ENOMEM, "waits: out of memory");
	/* Every entry with its task's index in receivers, sorted so that one computation's
	 * entries are adjacent, then merged: the tasks counted once each. */
	for (size_t i = 0; i < log->ntasks; i++)
		for (size_t j = 0; j < log->tasks[i].nblames; j++) {
			const pvmmon_log_blame *b = &log->tasks[i].blames[j];

			v[k++] = (pvmmon_wait_blame){b->tid,     b->stmt,  b->short_ns,
			                             b->long_ns, b->waits, i};
		}
	qsort(v, all, sizeof(*v), by_key);
	for (k = 0; k < all; k++) {
		size_t task = v[k].receivers;

		if (m > 0 && v[m - 1].tid == v[k].tid && v[m - 1].stmt == v[k].stmt) {
			v[m - 1].short_ns = add(v[m - 1].short_ns, v[k].short_ns);
			v[m - 1].long_ns = add(v[m - 1].long_ns, v[k].long_ns);
			v[m - 1].waits += v[k].waits;
			v[m - 1].receivers += task != prev;
		} else {
			v[m] = v[k];
			v[m++].receivers = 1;
		}
		prev = task;
	}
	qsort(v, m, sizeof(*v), by_cost);
	*out = v;
	*n = m;
	return 0;
}

void pvmmon_waits_online_name(char *buf, size_t len, const pvmmon_log *log, int32_t tid,
                              uint32_t stmt)
{
	for (size_t i = 0; log && i < log->ntasks; i++) {
		const pvmmon_log_task *t = &log->tasks[i];
		pvmmon_wait_cause c = {i, -1, stmt, 0, 0};

		if (t->tid != tid)
			continue;
		/* A statement the task's records lack would be "to its end" there. */
		if (stmt != UINT32_MAX && !graphs__stmt_of(t, stmt))
			snprintf(buf, len, "%s before statement %" PRIu32, t->lid ? t->lid : "?",
			         stmt);
		else
			pvmmon_waits_cause_name(buf, len, log, &c);
		return;
	}
	snprintf(buf, len, "t%x before statement %" PRIu32, (unsigned)tid, stmt);
}

/* One waiting task's row: its index, all its waiting the table charged, and the part
 * that came through other tasks' waits. */
typedef struct waiter {
	size_t task;
	int64_t ns, long_ns;
} waiter;

static int by_waiting(const void *pa, const void *pb)
{
	const waiter *a = pa, *b = pb;

	if (a->ns != b->ns)
		return a->ns > b->ns ? -1 : 1;
	return a->task < b->task ? -1 : a->task > b->task;
}

/* The tasks that waited, largest first. */
static void waited_by(const pvmmon_log *log, FILE *out)
{
	waiter *v = calloc(log->ntasks ? log->ntasks : 1, sizeof(*v));
	size_t n = 0;
	char a[32], b[32];

	if (!v)
		return;
	for (size_t i = 0; i < log->ntasks; i++) {
		const pvmmon_log_task *t = &log->tasks[i];

		if (t->nblames == 0)
			continue;
		v[n] = (waiter){i, 0, 0};
		for (size_t j = 0; j < t->nblames; j++) {
			v[n].ns = add(v[n].ns, add(t->blames[j].short_ns, t->blames[j].long_ns));
			v[n].long_ns = add(v[n].long_ns, t->blames[j].long_ns);
		}
		n++;
	}
	qsort(v, n, sizeof(*v), by_waiting);
	fprintf(out, "  %-44s %10s %10s\n", "waited by (task)", "waiting", "propagated");
	for (size_t i = 0; i < n && i < ONLINE_SHOWN; i++) {
		const char *lid = log->tasks[v[i].task].lid;

		fprintf(out, "  %-44s %10s %10s\n", lid ? lid : "?",
		        graphs__fmt_time(a, sizeof(a), v[i].ns),
		        graphs__fmt_time(b, sizeof(b), v[i].long_ns));
	}
	free(v);
}

int pvmmon_waits_online_report(const pvmmon_log *log, FILE *out)
{
	pvmmon_wait_blame *v = NULL;
	size_t n = 0;
	int64_t all = 0, prop = 0;
	uint64_t indirect = 0;
	char name[600], a[32], b[32];
	int rc;

	if (!log || !out)
		return pvmmon_error_set(PVMMON_EINVAL, "waits: no log or no output");
	rc = pvmmon_waits_online(&v, &n, log);
	if (rc < 0 || n == 0)
		return rc;
	for (size_t i = 0; i < n; i++) {
		all = add(all, total(&v[i]));
		prop = add(prop, v[i].long_ns);
	}
	/* The receives' own count of indirect waits: the tables count shares, not waits. */
	for (size_t i = 0; i < log->ntasks; i++)
		for (size_t j = 0; j < log->tasks[i].nstmts; j++)
			indirect += log->tasks[i].stmts[j].indirect;
	fprintf(out, "Why tasks wait (online, without a trace, by segment)\n");
	fprintf(out, "  waiting %s (online), %s of it propagated; %" PRIu64 " waits indirect\n",
	        graphs__fmt_time(a, sizeof(a), all), graphs__fmt_time(b, sizeof(b), prop),
	        indirect);
	fprintf(out, "  %-44s %10s %10s %6s\n", "caused by (task, computation)", "direct",
	        "propagated", "share");
	for (size_t i = 0; i < n && i < ONLINE_SHOWN && total(&v[i]) > 0; i++) {
		pvmmon_waits_online_name(name, sizeof(name), log, v[i].tid, v[i].stmt);
		fprintf(out, "  %-44s %10s %10s %5.1f%%\n", name,
		        graphs__fmt_time(a, sizeof(a), v[i].short_ns),
		        graphs__fmt_time(b, sizeof(b), v[i].long_ns),
		        all > 0 ? 100.0 * (double)total(&v[i]) / (double)all : 0.0);
	}
	waited_by(log, out);
	putc('\n', out);
	free(v);
	return 0;
}
