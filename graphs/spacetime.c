/* Space-time diagrams of a traced run (as XPVM draws them): Graphviz source, every node placed. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "pvmmon/errors.h"
#include "pvmmon/report.h"
#include "figures.h"

/*
 * The drawing, in points. Lanes are quantised into NCOLS columns of COL_PT points, so a
 * lane is at most NCOLS boxes however many events it has; lane labels sit left of
 * PLOT_X. Below the lanes are the time axis and the legend.
 */
#define NCOLS 600
#define COL_PT 2.0
#define PLOT_W (NCOLS * COL_PT)
#define PLOT_X 160.0
#define LABEL_W 150.0
#define LEGEND_Y 12.0
#define TICK_LABEL_Y 34.0
#define AXIS_Y 46.0
#define LANES_Y 56.0

/* Arrows beyond this are sampled evenly in send order. */
#define MAX_ARROWS 2000

/* What a task was doing, in the order a column's ties are settled. */
typedef enum state { COMPUTING = 0, WAITING, COMMUNICATING, OVERHEAD, NSTATES } state;

static const struct {
	const char *name;   /* for tooltips */
	const char *legend;
	const char *colour;
} states[NSTATES] = {
    {"computing", "computing", "#2ca02c"},
    {"waiting", "waiting for a message", "#d62728"},
    {"communicating", "communicating inside PVM", "#1f77b4"},
    {"monitoring overhead", "monitoring overhead", "#ff7f0e"},
};

/* The stretch of a task's time that is drawn; nothing when to <= from. */
typedef struct lane {
	int64_t from, to;
} lane;

/* A matched message: when it was sent (real time) and the send and receive events, by
 * task and event index. */
typedef struct arrow {
	int64_t sent;
	size_t st, se, rt, re;
} arrow;

/* Everything the writers below share. */
typedef struct diagram {
	const pvmmon_log *log;
	pvmmon_timebase tb;
	FILE *out;
	lane *lanes;
	int64_t t0, span; /* the plotted time range, span > 0 */
	double pitch;     /* vertical distance between lanes */
	double (*acc)[NSTATES]; /* per column of the current lane: column-widths per state */
	size_t nboxes;
} diagram;

/* A receive that may block until a message arrives (nrecv never waits). */
static int blocks(pvmmon_event_op op)
{
	return op == PVMMON_EV_RECV || op == PVMMON_EV_TRECV || op == PVMMON_EV_PRECV;
}

/* Where the trace stops being whole, in real time: never when nothing was dropped. */
static int64_t cut_ns(const pvmmon_log *log)
{
	return log->trace.dropped > 0 ? log->trace.complete_until_ns : INT64_MAX;
}

/*
 * The drawn stretch of task t. In real time a lane runs from the task's start to its
 * end, cut where the trace stops being whole. In virtual time it runs to the task's
 * last virtual time; when the trace was cut before the task ended, the rest of its
 * events are missing, so its lane stops at the end of its last traced event (and is
 * not drawn if it has none).
 */
static lane lane_of(const pvmmon_log *log, const pvmmon_log_task *t, pvmmon_timebase tb)
{
	int64_t cut = cut_ns(log);
	lane l = {t->start_ns, t->start_ns};

	if (tb == PVMMON_TIME_REAL) {
		l.to = t->end_ns < cut ? t->end_ns : cut;
	} else if (t->end_ns <= cut) {
		l.to = t->start_ns + t->virtual_ns;
	} else if (t->nevents > 0) {
		l.to = t->events[t->nevents - 1].vt1;
	}
	return l;
}

/* The x of time ns. */
static double x_of(const diagram *d, int64_t ns)
{
	return PLOT_X + (double)(ns - d->t0) * PLOT_W / (double)d->span;
}

/* The y of task i's lane centre: task 0 at the top (Graphviz's y grows upwards). */
static double y_of(const diagram *d, size_t i)
{
	return LANES_Y + (double)(d->log->ntasks - 1 - i) * d->pitch + d->pitch / 2;
}

/* Adds [a, b) in state s to the current lane's columns, clipped to the lane l. */
static void add(diagram *d, const lane *l, int64_t a, int64_t b, state s)
{
	double ca, cb;

	if (a < l->from)
		a = l->from;
	if (b > l->to)
		b = l->to;
	if (b <= a)
		return;
	ca = (double)(a - d->t0) * NCOLS / (double)d->span;
	cb = (double)(b - d->t0) * NCOLS / (double)d->span;
	for (long c = (long)ca; c < NCOLS && (double)c < cb; c++) {
		double lo = ca > (double)c ? ca : (double)c;
		double hi = cb < (double)(c + 1) ? cb : (double)(c + 1);

		if (c >= 0 && hi > lo)
			d->acc[c][s] += hi - lo;
	}
}

/*
 * Fills the columns of task t's lane. Real time: the wrapper's own time before and
 * after the real PVM call is monitoring overhead, the call itself is waiting when it is
 * a blocking receive and communicating otherwise. Virtual time has no overhead: a
 * receive waits for its synchronisation delay and communicates for the rest, other
 * calls communicate. Time between calls is computing.
 */
static void fill_lane(diagram *d, const pvmmon_log_task *t, const lane *l)
{
	int64_t prev = l->from;

	memset(d->acc, 0, NCOLS * sizeof(*d->acc));
	for (size_t k = 0; k < t->nevents; k++) {
		const pvmmon_log_event *e = &t->events[k];
		int64_t end;

		if (d->tb == PVMMON_TIME_REAL) {
			add(d, l, prev, e->rt[0], COMPUTING);
			add(d, l, e->rt[0], e->rt[1], OVERHEAD);
			add(d, l, e->rt[1], e->rt[2], blocks(e->op) ? WAITING : COMMUNICATING);
			add(d, l, e->rt[2], e->rt[3], OVERHEAD);
			end = e->rt[3];
		} else {
			int64_t sync = pvmmon_event_op_receives(e->op) && e->sync > 0 ? e->sync : 0;

			if (sync > e->vt1 - e->vt0)
				sync = e->vt1 - e->vt0;
			add(d, l, prev, e->vt0, COMPUTING);
			add(d, l, e->vt0, e->vt0 + sync, WAITING);
			add(d, l, e->vt0 + sync, e->vt1, COMMUNICATING);
			end = e->vt1;
		}
		/* Calls can only overlap through clock noise; computing never steps back. */
		if (end > prev)
			prev = end;
	}
	add(d, l, prev, l->to, COMPUTING);
}

/* The state a column shows: the one with the largest share, -1 for an empty column. */
static int column_state(const double *acc)
{
	int best = -1;

	for (int s = 0; s < NSTATES; s++)
		if (acc[s] > 0 && (best < 0 || acc[s] > acc[best]))
			best = s;
	return best;
}

/* The time (from the plot's start) where column c begins. */
static int64_t col_ns(const diagram *d, int c)
{
	return (int64_t)((double)c * (double)d->span / NCOLS + 0.5);
}

/* Writes task i's lane as runs of columns of one state, one box per run. */
static void put_lane_boxes(diagram *d, size_t i)
{
	double y = y_of(d, i), h = d->pitch / 2;
	const char *lid = d->log->tasks[i].lid;
	int c = 0;

	while (c < NCOLS) {
		int s = column_state(d->acc[c]), end = c + 1;
		double share = 0;
		char t1[32];

		if (s < 0) {
			c++;
			continue;
		}
		while (end < NCOLS && column_state(d->acc[end]) == s)
			end++;
		for (int k = c; k < end; k++)
			share += d->acc[k][s];
		fprintf(d->out,
			"  b%zu [pos=\"%.1f,%.1f!\", width=%.4f, height=%.4f, fillcolor=\"%s\", "
			"tooltip=\"",
			d->nboxes++, PLOT_X + (c + end) * COL_PT / 2, y, (end - c) * COL_PT / 72,
			h / 72, states[s].colour);
		/* The tooltip the interactive report shows: task, state, time and stretch. */
		graphs__put_escaped(d->out, lid ? lid : "?");
		fprintf(d->out, ": %s %s", states[s].name,
			graphs__fmt_time(t1, sizeof(t1),
					 (int64_t)(share * (double)d->span / NCOLS + 0.5)));
		fprintf(d->out, " from %s", graphs__fmt_time(t1, sizeof(t1), col_ns(d, c)));
		fprintf(d->out, " to %s\"];\n", graphs__fmt_time(t1, sizeof(t1), col_ns(d, end)));
		c = end;
	}
}

/* The label at the left of task t's lane: logical id, tid and program. */
static void put_lane_label(diagram *d, size_t i)
{
	const pvmmon_log_task *t = &d->log->tasks[i];

	fprintf(d->out, "  l%zu [pos=\"%.1f,%.1f!\", width=%.4f, height=%.4f, label=\"", i,
		PLOT_X - 5 - LABEL_W / 2, y_of(d, i), LABEL_W / 72, d->pitch / 72);
	graphs__put_escaped(d->out, t->lid ? t->lid : "?");
	fprintf(d->out, "  t%x  ", (unsigned)t->tid);
	graphs__put_escaped(d->out, graphs__base_name(t->program ? t->program : "?"));
	/* Right-justified, against the lane. */
	fputs("\\r\"];\n", d->out);
}

/* The time axis: a line under the lanes and about 5 to 11 ticks from the plot's start. */
static void put_axis(diagram *d)
{
	int64_t step = 1;

	/* The smallest step of 1, 2 or 5 times a power of ten giving at most 11 ticks;
	 * span / mag reaches 10 before mag can overflow. */
	for (int64_t mag = 1;; mag *= 10) {
		if (d->span / mag <= 10) {
			step = mag;
			break;
		}
		if (d->span / (2 * mag) <= 10) {
			step = 2 * mag;
			break;
		}
		if (d->span / (5 * mag) <= 10) {
			step = 5 * mag;
			break;
		}
	}
	fprintf(d->out,
		"  axis [pos=\"%.1f,%.1f!\", width=%.4f, height=%.4f, shape=box, style=filled, "
		"label=\"\", fillcolor=black, "
		"tooltip=\"time\"];\n",
		PLOT_X + PLOT_W / 2, AXIS_Y, PLOT_W / 72, 0.5 / 72);
	for (int64_t at = 0, k = 0; at <= d->span; at += step, k++) {
		char t1[32];

		fprintf(d->out,
			"  tick%" PRId64 " [pos=\"%.1f,%.1f!\", width=%.4f, height=%.4f, "
			"shape=box, style=filled, label=\"\", fillcolor=black, tooltip=\"%s\"];\n",
			k, x_of(d, d->t0 + at), AXIS_Y - 2.5, 0.5 / 72, 5.0 / 72,
			graphs__fmt_time(t1, sizeof(t1), at));
		fprintf(d->out,
			"  ticklabel%" PRId64 " [pos=\"%.1f,%.1f!\", width=%.4f, height=%.4f, "
			"label=\"%s\"];\n",
			k, x_of(d, d->t0 + at), TICK_LABEL_Y, 60.0 / 72, 14.0 / 72, t1);
	}
}

/* The legend under the axis: one swatch and name per state drawn on this time axis. */
static void put_legend(diagram *d)
{
	double x = PLOT_X;

	for (int s = 0; s < NSTATES; s++) {
		if (s == OVERHEAD && d->tb == PVMMON_TIME_VIRTUAL)
			continue;
		fprintf(d->out,
			"  key%d [pos=\"%.1f,%.1f!\", width=%.4f, height=%.4f, fillcolor=\"%s\", "
			"tooltip=\"%s\"];\n",
			s, x + 6, LEGEND_Y, 12.0 / 72, 8.0 / 72, states[s].colour,
			states[s].legend);
		fprintf(d->out,
			"  keylabel%d [pos=\"%.1f,%.1f!\", width=%.4f, height=%.4f, "
			"label=\"%s\\l\"];\n",
			s, x + 16 + 75, LEGEND_Y, 150.0 / 72, 14.0 / 72, states[s].legend);
		x += 180;
	}
}

/* Send order: the send's real start, then task and event for a stable order. */
static int by_send(const void *pa, const void *pb)
{
	const arrow *a = pa, *b = pb;

	if (a->sent != b->sent)
		return a->sent < b->sent ? -1 : 1;
	if (a->st != b->st)
		return a->st < b->st ? -1 : 1;
	return a->se < b->se ? -1 : a->se > b->se;
}

/* Where on its lane an arrow starts (send) or ends (receive: the arrival). */
static int64_t send_point(const diagram *d, const pvmmon_log_event *e)
{
	return d->tb == PVMMON_TIME_REAL ? e->rt[1] : e->vt0;
}

static int64_t arrival_point(const diagram *d, const pvmmon_log_event *e)
{
	int64_t sync = e->sync > 0 ? e->sync : 0;

	if (d->tb == PVMMON_TIME_REAL)
		return e->rt[2];
	return e->vt0 + (sync < e->vt1 - e->vt0 ? sync : e->vt1 - e->vt0);
}

static int on_lane(const diagram *d, size_t task, int64_t ns)
{
	return d->lanes[task].to > d->lanes[task].from && ns >= d->lanes[task].from &&
	       ns <= d->lanes[task].to;
}

/*
 * The matched messages whose ends are both on drawn lanes, in send order, into *out
 * and *n: each send (with a sequence number) pairs with the receive of the same sender,
 * receiver and sequence number.
 */
static int match_messages(diagram *d, arrow **out, size_t *n)
{
	const pvmmon_log *log = d->log;
	size_t nrecv = 0, nsend = 0, k = 0;
	graphs_recv_key *keys = NULL;
	arrow *arrows = NULL;

	*out = NULL;
	*n = 0;
	for (size_t i = 0; i < log->ntasks; i++)
		for (size_t j = 0; j < log->tasks[i].nevents; j++) {
			const pvmmon_log_event *e = &log->tasks[i].events[j];

			if (e->peer == 0 || e->seq < 0)
				continue;
			if (pvmmon_event_op_sends(e->op))
				nsend++;
			else if (pvmmon_event_op_receives(e->op))
				nrecv++;
		}
	keys = calloc(nrecv ? nrecv : 1, sizeof(*keys));
	arrows = calloc(nsend ? nsend : 1, sizeof(*arrows));
	if (!keys || !arrows) {
		free(keys);
		free(arrows);
		return pvmmon_error_set(PVMMON_ENOMEM, "report: out of memory");
	}
	for (size_t i = 0; i < log->ntasks; i++)
		for (size_t j = 0; j < log->tasks[i].nevents; j++) {
			const pvmmon_log_event *e = &log->tasks[i].events[j];

			if (e->peer != 0 && e->seq >= 0 && pvmmon_event_op_receives(e->op))
				keys[k++] = (graphs_recv_key){log->tasks[i].tid, e->peer, e->seq, i, j};
		}
	graphs__sort_receives(keys, nrecv);
	for (size_t i = 0; i < log->ntasks; i++)
		for (size_t j = 0; j < log->tasks[i].nevents; j++) {
			const pvmmon_log_event *e = &log->tasks[i].events[j];
			const graphs_recv_key *r;
			size_t at;

			if (e->peer == 0 || e->seq < 0 || !pvmmon_event_op_sends(e->op))
				continue;
			at = graphs__find_receive(keys, nrecv, e->peer, log->tasks[i].tid, e->seq);
			r = at < nrecv ? &keys[at] : NULL;
			/* A message whose receiver was not traced, or whose end is cut, has no
			 * arrow. */
			if (!r || !on_lane(d, i, send_point(d, e)) ||
			    !on_lane(d, r->a, arrival_point(d, &log->tasks[r->a].events[r->b])))
				continue;
			arrows[(*n)++] = (arrow){e->rt[0], i, j, r->a, r->b};
		}
	free(keys);
	qsort(arrows, *n, sizeof(*arrows), by_send);
	*out = arrows;
	return 0;
}

/*
 * The k-th of the MAX_ARROWS messages drawn out of n in send order: one from each of
 * MAX_ARROWS equal slices, so that a long run keeps its shape. Within its slice it is
 * chosen by a fixed hash of k, not always the first, or a program that sends in a
 * regular pattern would show the same few pairs of tasks over and over.
 */
static size_t pick(size_t k, size_t n)
{
	size_t lo, hi;

	if (n <= MAX_ARROWS)
		return k;
	lo = k * n / MAX_ARROWS;
	hi = (k + 1) * n / MAX_ARROWS;
	return lo + (size_t)(((uint32_t)k * 2654435761u) >> 8) % (hi - lo);
}

/* Writes what and the name of task t's statement with id (DOT-escaped), if it has one. */
static void put_stmt(FILE *out, const char *what, const pvmmon_log_task *t, uint32_t id)
{
	char name[512];

	for (size_t k = 0; k < t->nstmts; k++)
		if (t->stmts[k].id == id) {
			fputs(what, out);
			graphs__put_escaped(out, graphs__stmt_name(name, sizeof(name), t, &t->stmts[k]));
			return;
		}
}

/* Writes arrow a: an invisible point at each end and the edge between them. */
static void put_arrow(diagram *d, size_t id, const arrow *a)
{
	const pvmmon_log_task *s = &d->log->tasks[a->st], *r = &d->log->tasks[a->rt];
	const pvmmon_log_event *se = &s->events[a->se], *re = &r->events[a->re];
	const char *sop = pvmmon_event_op_name(se->op), *rop = pvmmon_event_op_name(re->op);
	char t1[32], b1[32];

	fprintf(d->out, "  s%zu [pos=\"%.1f,%.1f!\"];\n  r%zu [pos=\"%.1f,%.1f!\"];\n", id,
		x_of(d, send_point(d, se)), y_of(d, a->st), id, x_of(d, arrival_point(d, re)),
		y_of(d, a->rt));
	fprintf(d->out, "  s%zu -> r%zu [tooltip=\"", id, id);
	graphs__put_escaped(d->out, s->lid ? s->lid : "?");
	fprintf(d->out, " %s -> ", sop ? sop : "?");
	graphs__put_escaped(d->out, r->lid ? r->lid : "?");
	fprintf(d->out, " %s from t%x tag %d, %s, sync %s", rop ? rop : "?", (unsigned)s->tid,
		(int)se->tag, graphs__fmt_bytes(b1, sizeof(b1), re->bytes),
		graphs__fmt_time(t1, sizeof(t1), re->sync > 0 ? re->sync : 0));
	/* Times from the plot's start and both statements, for the interactive report. */
	fprintf(d->out, "; sent at %s",
		graphs__fmt_time(t1, sizeof(t1), send_point(d, se) - d->t0));
	fprintf(d->out, ", arrived at %s",
		graphs__fmt_time(t1, sizeof(t1), arrival_point(d, re) - d->t0));
	put_stmt(d->out, "; send at ", s, se->stmt);
	put_stmt(d->out, ", receive at ", r, re->stmt);
	fputs("\"];\n", d->out);
}

/*
 * Where a node of the critical path is on its lane: at (resume 0) the end of the work
 * that leads to it, or (resume 1) the start of the work that follows it. In virtual time
 * these are the node's own times. In real time: a task's start and end, a send's real
 * call, a receive's entry and the message's arrival, the end of a spawn call, a probe.
 */
static int64_t path_point(const diagram *d, const pvmmon_cpath_node *n, int resume)
{
	const pvmmon_log_task *t = &d->log->tasks[n->task];
	const pvmmon_log_event *e = n->event < t->nevents ? &t->events[n->event] : NULL;

	if (d->tb == PVMMON_TIME_VIRTUAL)
		return resume ? n->resume : n->vt;
	/* A start or end with an event is where the task started or stopped collecting
	 * (pvmmon cp start|stop); the default case below gives its time. */
	if (n->kind == PVMMON_CPATH_START && !e)
		return t->start_ns;
	if (n->kind == PVMMON_CPATH_END && !e)
		return t->end_ns;
	if (!e)
		return n->vt;
	switch (n->kind) {
	case PVMMON_CPATH_SEND: return send_point(d, e);
	case PVMMON_CPATH_RECV: return resume ? arrival_point(d, e) : e->rt[0];
	case PVMMON_CPATH_SPAWN: return e->rt[2];
	default: return e->rt[0];
	}
}

/* Clips ns to task's drawn lane. */
static int64_t clip(const diagram *d, size_t task, int64_t ns)
{
	if (ns < d->lanes[task].from)
		return d->lanes[task].from;
	return ns > d->lanes[task].to ? d->lanes[task].to : ns;
}

/* One piece of the drawn path: a line from (task a, time ta) to (task b, time tb). */
static void put_path_piece(diagram *d, size_t *id, size_t a, int64_t ta, size_t b, int64_t tb,
			   const char *attrs)
{
	fprintf(d->out, "  cpa%zu [pos=\"%.1f,%.1f!\"];\n  cpb%zu [pos=\"%.1f,%.1f!\"];\n", *id,
		x_of(d, clip(d, a, ta)), y_of(d, a), *id, x_of(d, clip(d, b, tb)), y_of(d, b));
	fprintf(d->out, "  cpa%zu -> cpb%zu [%s];\n", *id, *id, attrs);
	(*id)++;
}

/*
 * Draws the critical path over the diagram: each stretch of work on it as a thick line
 * along its lane (consecutive stretches joined, so enter and exit nodes do not break
 * it, but a wait does), each message on it as a thick arrow, each spawn dashed.
 */
static void put_path(diagram *d, const pvmmon_cpath *cp)
{
	static const char work[] = "dir=none, penwidth=4, color=\"#000000\", "
				   "tooltip=\"critical path: work\"";
	size_t id = 0, open_task = 0;
	int64_t from = 0, to = 0;
	int open = 0;

	for (size_t i = 1; i < cp->npath; i++) {
		const pvmmon_cpath_node *a = &cp->path[i - 1], *b = &cp->path[i];

		if (b->task >= d->log->ntasks || a->task >= d->log->ntasks)
			continue;
		if (b->via == PVMMON_CPATH_VIA_LOCAL) {
			int64_t s = path_point(d, a, 1), e = path_point(d, b, 0);

			if (open && open_task == b->task && s == to) {
				if (e > to)
					to = e;
				continue;
			}
			if (open && to > from)
				put_path_piece(d, &id, open_task, from, open_task, to, work);
			open = 1;
			open_task = b->task;
			from = s;
			to = e > s ? e : s;
			continue;
		}
		if (open && to > from)
			put_path_piece(d, &id, open_task, from, open_task, to, work);
		open = 0;
		if (b->via == PVMMON_CPATH_VIA_MESSAGE)
			put_path_piece(d, &id, a->task, path_point(d, a, 0), b->task,
				       path_point(d, b, 1),
				       "arrowsize=0.8, penwidth=2.5, color=\"#000000\", "
				       "tooltip=\"critical path: message\"");
		else if (b->via == PVMMON_CPATH_VIA_SPAWN)
			put_path_piece(d, &id, a->task, path_point(d, a, 1), b->task,
				       path_point(d, b, 0),
				       "arrowsize=0.8, penwidth=2.5, style=dashed, color=\"#000000\", "
				       "tooltip=\"critical path: spawn\"");
	}
	if (open && to > from)
		put_path_piece(d, &id, open_task, from, open_task, to, work);
}

/* The graph's label: what is drawn, how many messages, and whether the trace is whole. */
static void put_label(diagram *d, size_t shown, size_t matched, const pvmmon_cpath *cp)
{
	const pvmmon_log *log = d->log;
	char t1[32];

	fputs("  graph [label=\"", d->out);
	graphs__put_escaped(d->out, graphs__base_name(log->program ? log->program : "?"));
	fputs(d->tb == PVMMON_TIME_REAL
		      ? ": space-time diagram, real time (monitoring overhead included)"
		      : ": space-time diagram, virtual time (monitoring overhead removed)",
	      d->out);
	fprintf(d->out, "\\l%zu tasks; time from the first task's start; ", log->ntasks);
	if (shown < matched)
		fprintf(d->out, "showing %zu of %zu messages (evenly sampled)", shown, matched);
	else
		fprintf(d->out, "%zu messages", matched);
	if (log->trace.dropped > 0) {
		fprintf(d->out,
			"\\ltrace truncated: %" PRIu64 " events dropped, complete only until %s "
			"of real time; ",
			log->trace.dropped,
			graphs__fmt_time(t1, sizeof(t1), log->trace.complete_until_ns - d->t0));
		fputs(d->tb == PVMMON_TIME_REAL
			      ? "lanes stop there"
			      : "lanes of tasks running then stop at their last traced event",
		      d->out);
	}
	if (cp)
		fprintf(d->out, "\\lcritical path (thick black): %s, ends in task %s",
			graphs__fmt_time(t1, sizeof(t1), cp->length_ns),
			cp->end_task < log->ntasks && log->tasks[cp->end_task].lid
				? log->tasks[cp->end_task].lid
				: "?");
	/* DOT's \l ends a left-justified line. */
	fputs("\\l\"];\n", d->out);
}

int64_t graphs__spacetime_span(const pvmmon_log *log, pvmmon_timebase tb)
{
	int64_t t0 = 0, end = 0;
	int any = 0;

	/* As the diagram below: from the earliest drawn lane's start to the latest end. */
	for (size_t i = 0; log && i < log->ntasks; i++) {
		lane l = lane_of(log, &log->tasks[i], tb);

		if (l.to <= l.from)
			continue;
		if (!any || l.from < t0)
			t0 = l.from;
		if (!any || l.to > end)
			end = l.to;
		any = 1;
	}
	return end - t0;
}

int pvmmon_report_dot_spacetime(const pvmmon_log *log, pvmmon_timebase tb, FILE *out)
{
	return pvmmon_report_dot_spacetime_cp(log, tb, NULL, out);
}

int pvmmon_report_dot_spacetime_cp(const pvmmon_log *log, pvmmon_timebase tb,
				   const pvmmon_cpath *cp, FILE *out)
{
	diagram d = {log, tb, out, NULL, 0, 0, 0, NULL, 0};
	arrow *arrows = NULL;
	size_t narrows = 0, shown, nevents = 0;
	int64_t end = 0;
	int rc, any = 0;

	if (!log || !out || (tb != PVMMON_TIME_VIRTUAL && tb != PVMMON_TIME_REAL))
		return pvmmon_error_set(PVMMON_EINVAL, "report: no log, time axis or output");
	if (!log->trace.enabled)
		return pvmmon_error_set(PVMMON_EINVAL,
					"report: no space-time diagram: the run was not traced "
					"(pvmmon run --trace)");
	for (size_t i = 0; i < log->ntasks; i++)
		nevents += log->tasks[i].nevents;
	if (!nevents)
		return pvmmon_error_set(PVMMON_EINVAL,
					"report: no space-time diagram: the trace holds no events");
	d.lanes = calloc(log->ntasks, sizeof(*d.lanes));
	d.acc = calloc(NCOLS, sizeof(*d.acc));
	if (!d.lanes || !d.acc) {
		rc = pvmmon_error_set(PVMMON_ENOMEM, "report: out of memory");
		goto out;
	}
	/* The plot spans the drawn lanes, from the earliest start to the latest end. */
	for (size_t i = 0; i < log->ntasks; i++) {
		d.lanes[i] = lane_of(log, &log->tasks[i], tb);
		if (d.lanes[i].to <= d.lanes[i].from)
			continue;
		if (!any || d.lanes[i].from < d.t0)
			d.t0 = d.lanes[i].from;
		if (!any || d.lanes[i].to > end)
			end = d.lanes[i].to;
		any = 1;
	}
	if (!any) {
		rc = pvmmon_error_set(PVMMON_EINVAL,
				      "report: no space-time diagram: no task has traced time");
		goto out;
	}
	d.span = end - d.t0;
	d.pitch = log->ntasks <= 16 ? 40 : log->ntasks <= 32 ? 24 : 16;
	rc = match_messages(&d, &arrows, &narrows);
	if (rc < 0)
		goto out;
	shown = narrows < MAX_ARROWS ? narrows : MAX_ARROWS;

	/* nop2: every node is where pos puts it, and edges are straight lines. */
	fputs("digraph spacetime {\n  graph [layout=nop2, splines=line, outputorder=nodesfirst, "
	      "fontname=\"Helvetica\", fontsize=12, labelloc=t, labeljust=l];\n",
	      out);
	put_label(&d, shown, narrows, cp);
	fputs("  node [shape=plaintext, fixedsize=true, fontname=\"Helvetica\", fontsize=9];\n",
	      out);
	for (size_t i = 0; i < log->ntasks; i++)
		put_lane_label(&d, i);
	put_axis(&d);
	fputs("  node [shape=box, style=filled, color=transparent, penwidth=0, label=\"\"];\n",
	      out);
	put_legend(&d);
	for (size_t i = 0; i < log->ntasks; i++) {
		if (d.lanes[i].to <= d.lanes[i].from)
			continue;
		fill_lane(&d, &log->tasks[i], &d.lanes[i]);
		put_lane_boxes(&d, i);
	}
	fputs("  node [shape=point, width=0.01, height=0.01, style=invis];\n"
	      "  edge [arrowsize=0.4, penwidth=0.6, color=\"#333333\"];\n",
	      out);
	for (size_t k = 0; k < shown; k++)
		put_arrow(&d, k, &arrows[pick(k, narrows)]);
	if (cp)
		put_path(&d, cp);
	fputs("}\n", out);
	if (ferror(out))
		rc = pvmmon_error_set(PVMMON_EIO, "report: cannot write a graph");
out:
	free(arrows);
	free(d.acc);
	free(d.lanes);
	return rc;
}
