/* The live view of a running program (`pvmmon top`): one screen of text from a snapshot. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "pvmmon/errors.h"
#include "pvmmon/report.h"
#include "figures.h"
#include "histo.h"

/* How many statements the view lists, and buckets each task's sparkline shows. */
#define TOP_STMTS 8
#define SPARK 16

/* Whether the terminal takes UTF-8 (the locale's variables say so), for block
 * characters; else the sparkline is drawn in ASCII. */
static int utf8(void)
{
	const char *v = getenv("LC_ALL");

	if (!v || !*v)
		v = getenv("LC_CTYPE");
	if (!v || !*v)
		v = getenv("LANG");
	return v && (strcasestr(v, "UTF-8") || strcasestr(v, "utf8"));
}

/*
 * Task t's share of time computing in each of its last SPARK buckets, one character
 * each from low to high (blank: nothing), from its compute histogram on the virtual
 * axis (else the real one). The last bucket is the one still filling. Nothing when the
 * task has no histogram.
 */
static void spark(const pvmmon_log_task *t, FILE *out)
{
	static const char *const blocks[] = {" ",      "\u2581", "\u2582", "\u2583", "\u2584",
	                                     "\u2585", "\u2586", "\u2587", "\u2588"};
	static const char ascii[] = " .:-=+*#@";
	const pvmmon_log_hist *h =
	    graphs__hist_find(t->hists, t->nhists, PVMMON_HIST_COMPUTE, PVMMON_FOCUS_TASK, NULL, 0,
	                      PVMMON_AXIS_VIRTUAL);
	int u = utf8();

	if (!h)
		h = graphs__hist_find(t->hists, t->nhists, PVMMON_HIST_COMPUTE, PVMMON_FOCUS_TASK,
		                      NULL, 0, PVMMON_AXIS_REAL);
	size_t end;

	if (!h || h->width_ns <= 0)
		return;
	/* The bucket still filling is the one of the task's time at its last flush (the
	 * histogram holds all of the run's buckets, the later ones empty); on the real axis,
	 * the last with any computing. */
	if (h->axis == PVMMON_AXIS_VIRTUAL && t->virtual_ns > 0) {
		int64_t at = t->start_ns + t->virtual_ns - h->start_ns;

		end = at < 0 ? 0 : (size_t)(at / h->width_ns) + 1;
	} else {
		end = (size_t)((graphs__hist_used_end(h) - h->start_ns) / h->width_ns);
	}
	if (end > h->nbuckets)
		end = h->nbuckets;
	fputc(' ', out);
	for (size_t i = end > SPARK ? end - SPARK : 0; i < end; i++) {
		int64_t v = h->values[i] < 0 ? 0 : h->values[i];
		int k = v >= h->width_ns ? 8 : (int)(v * 8 / h->width_ns);

		/* Any computing at all shows, however little. */
		if (k == 0 && v > 0)
			k = 1;
		if (u)
			fputs(blocks[k], out);
		else
			fputc(ascii[k], out);
	}
}

static int any_hists(const pvmmon_log *log)
{
	for (size_t i = 0; i < log->ntasks; i++)
		if (log->tasks[i].nhists)
			return 1;
	return 0;
}

typedef struct hot {
	const pvmmon_log_task *task;
	const pvmmon_log_stmt *stmt;
} hot;

static int cmp_hot(const void *a, const void *b)
{
	const hot *x = a, *y = b;

	if (x->stmt->time_ns != y->stmt->time_ns)
		return x->stmt->time_ns > y->stmt->time_ns ? -1 : 1;
	return x->task != y->task ? (x->task < y->task ? -1 : 1) : 0;
}

static void tasks(const pvmmon_log *log, FILE *out)
{
	char t1[32], t2[32];

	int sp = any_hists(log);

	fprintf(out, "%-10s %-9s %-8s %-16s %12s %12s %9s %9s%s\n", "task", "tid", "state",
		"program", "virtual", "intrusion", "sent", "received",
		sp ? " computing, last buckets" : "");
	for (size_t i = 0; i < log->ntasks; i++) {
		const pvmmon_log_task *t = &log->tasks[i];

		fprintf(out, "%-10s t%-8x %-8s %-16.16s %12s %12s %9" PRIu64 " %9" PRIu64,
			t->lid ? t->lid : "?", (unsigned)t->tid, pvmmon_task_status_name(t->status),
			graphs__base_name(t->program ? t->program : "?"),
			graphs__fmt_time(t1, sizeof(t1), t->virtual_ns),
			graphs__fmt_time(t2, sizeof(t2), t->intrusion_ns), t->msgs_sent, t->msgs_recv);
		spark(t, out);
		fputc('\n', out);
	}
}

/* Where tasks wait longer than the threshold, and the hangs said so far. */
static void waits(const pvmmon_log *log, FILE *out)
{
	for (size_t i = 0; i < log->ntasks; i++)
		if (log->tasks[i].waiting && log->tasks[i].status == PVMMON_TASK_RUNNING)
			fprintf(out, "task %s waiting %s\n", log->tasks[i].lid ? log->tasks[i].lid : "?",
				log->tasks[i].waiting);
	for (size_t i = 0; i < log->nhangs; i++)
		fprintf(out, "hang: %s: %s\n", log->hangs[i].kind ? log->hangs[i].kind : "?",
			log->hangs[i].text ? log->hangs[i].text : "");
}

static int hottest(const pvmmon_log *log, FILE *out)
{
	size_t n = 0, k = 0;
	hot *h;
	char name[512], t1[32], t2[32];

	for (size_t i = 0; i < log->ntasks; i++)
		n += log->tasks[i].nstmts;
	if (!n) {
		fputs("\nno communication statements yet\n", out);
		return 0;
	}
	h = calloc(n, sizeof(*h));
	if (!h)
		return pvmmon_error_set(PVMMON_ENOMEM, "top: out of memory");
	for (size_t i = 0; i < log->ntasks; i++)
		for (size_t j = 0; j < log->tasks[i].nstmts; j++)
			h[k++] = (hot){&log->tasks[i], &log->tasks[i].stmts[j]};
	qsort(h, n, sizeof(*h), cmp_hot);
	fprintf(out, "\n%-40s %-8s %10s %12s %12s\n", "hottest statements", "task", "count",
		"time", "sync delay");
	for (k = 0; k < n && k < TOP_STMTS; k++)
		fprintf(out, "%-40.40s %-8s %10" PRIu64 " %12s %12s\n",
		        graphs__stmt_name(name, sizeof(name), h[k].task, h[k].stmt),
		        h[k].task->lid ? h[k].task->lid : "?", h[k].stmt->count,
		        graphs__fmt_time(t1, sizeof(t1), h[k].stmt->time_ns),
		        graphs__fmt_time(t2, sizeof(t2), h[k].stmt->sync_ns));
	free(h);
	return 0;
}

static void critical_path(const pvmmon_log *log, FILE *out)
{
	const pvmmon_log_cp *cp = &log->cp;
	char t1[32], t2[32];

	if (!cp->enabled) {
		fputs("\ncritical path: not collected (pvmmon run --cp=..., or pvmmon cp start)\n",
		      out);
		return;
	}
	fprintf(out, "\ncritical path %s: length %s (%s shares, selection %u, %" PRIu64
		     " samples)\n",
		cp->collecting ? "so far" : "(stopped)", graphs__fmt_time(t1, sizeof(t1), cp->length_ns),
		cp->exclusive ? "exclusive" : "inclusive", (unsigned)cp->generation, cp->samples);
	for (size_t k = 0; k < cp->nprocs; k++)
		fprintf(out, "  %-30.30s share %12s %6.1f%%   zeroing %12s %6.1f%%\n",
			cp->procs[k].name ? cp->procs[k].name : "?",
			graphs__fmt_time(t1, sizeof(t1), cp->procs[k].share_ns),
			graphs__percent(cp->procs[k].share_ns, cp->length_ns),
			graphs__fmt_time(t2, sizeof(t2), cp->procs[k].zero_ns),
			graphs__percent(cp->procs[k].zero_ns, cp->length_ns));
}

/*
 * Observed and predicted cost (seed 004): the time tasks spent in monitoring code and
 * what the calibrated probe costs predict for what they counted, against their real
 * time, and what switched-off sites still cost when any do; the budget and the
 * switches of probe sites so far.
 */
static void cost(const pvmmon_log *log, FILE *out)
{
	int64_t obs = 0, pred = 0, off = 0, span = 0;
	size_t i, n = 0;

	for (i = 0; i < log->ntasks; i++) {
		const pvmmon_log_task *t = &log->tasks[i];

		if (!t->cost.known)
			continue;
		obs += t->cost.observed_ns;
		pred += t->cost.predicted_ns;
		off += t->cost.static_ns;
		span += t->end_ns - t->start_ns;
		n++;
	}
	if (n)
		fprintf(out, "observed cost %.2f%%, predicted %.2f%%", graphs__percent(obs, span),
			graphs__percent(pred, span));
	if (n && off > 0)
		fprintf(out, ", switched off %.2f%%", graphs__percent(off, span));
	if (log->budget_pct > 0)
		fprintf(out, "%sbudget %g%%", n ? "; " : "", log->budget_pct);
	if (log->nswitches)
		fprintf(out, "%s%zu switch%s of probe sites, last: %s %s (%s)",
			n || log->budget_pct > 0 ? "; " : "", log->nswitches,
			log->nswitches == 1 ? "" : "es",
			log->switches[log->nswitches - 1].on ? "enable" : "disable",
			log->switches[log->nswitches - 1].resource,
			log->switches[log->nswitches - 1].by);
	if (n || log->budget_pct > 0 || log->nswitches)
		fputc('\n', out);
	fputc('\n', out);
}

int pvmmon_report_top(const pvmmon_log *log, FILE *out)
{
	char t1[32], t2[32];
	int64_t vsum = 0, isum = 0;
	size_t running = 0;
	int rc;

	if (!log || !out)
		return pvmmon_error_set(PVMMON_EINVAL, "top: nothing to show");
	for (size_t i = 0; i < log->ntasks; i++) {
		vsum += log->tasks[i].virtual_ns;
		isum += log->tasks[i].intrusion_ns;
		running += log->tasks[i].status == PVMMON_TASK_RUNNING;
	}
	fprintf(out, "pvmmon top: %s, running for %s, %zu task%s (%zu running)\n",
		graphs__base_name(log->program ? log->program : "?"),
		graphs__fmt_time(t1, sizeof(t1), log->wall_ns), log->ntasks,
		log->ntasks == 1 ? "" : "s", running);
	/* Monitoring cost: the time tasks spent in monitoring code, against their whole
	 * time so far (as of their last flush). */
	fprintf(out, "monitoring cost: %s of %s (%.2f%%)\n", graphs__fmt_time(t2, sizeof(t2), isum),
		graphs__fmt_time(t1, sizeof(t1), vsum + isum), graphs__percent(isum, vsum + isum));
	cost(log, out);
	tasks(log, out);
	waits(log, out);
	rc = hottest(log, out);
	critical_path(log, out);
	if (rc == 0 && ferror(out))
		rc = pvmmon_error_set(PVMMON_EIO, "top: cannot write");
	return rc;
}
