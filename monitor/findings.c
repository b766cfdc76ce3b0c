/*
 * The PVM usage errors tasks found (pvmhooks/checks.c): each FINDING names its task's
 * statement and the other task's, which are resolved here to source lines, said once
 * per statement (pair) on stderr ("pvmmon: usage: ...") and kept with their counts,
 * summed over the tasks that found them, for the log.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pvm3.h>

#include "findings.h"
#include "tasks.h"

/* One finding said: its key (kind and statements), its text, the first task, and the
 * latest count from each task that found it. */
typedef struct mon_find {
	uint8_t kind;
	char *key, *text, *task;
	/* Said yet; what it is said from: the first report, its task and the other, and
	 * their statements' places. */
	int said;
	wire_finding w;
	int32_t tid;
	char *at, *oat;
	size_t n;
	/* The latest count of each task's finding (one statement of a task can be more
	 * than one call site: an unrolled loop's). */
	struct {
		int32_t tid;
		uint64_t offset, other_offset;
		int32_t tag, code;
		uint64_t count;
	} * per;
} mon_find;

struct mon_findings {
	mon_find *f;
	size_t n;
};

static const char *const kind_names[] = {"", "unpack", "queued", "unfreed", "ignored"};

/* "1 int", "3 ints", "a string", "2 unsigned shorts" for n items of PVM type. */
static void items(char *buf, size_t len, int type, uint32_t n)
{
	static const char *const names[] = {
	    [PVM_STR] = "string",   [PVM_BYTE] = "byte",       [PVM_SHORT] = "short",
	    [PVM_INT] = "int",      [PVM_FLOAT] = "float",     [PVM_CPLX] = "complex",
	    [PVM_DOUBLE] = "double", [PVM_DCPLX] = "double complex", [PVM_LONG] = "long",
	    [PVM_USHORT] = "unsigned short", [PVM_UINT] = "unsigned int",
	    [PVM_ULONG] = "unsigned long"};
	const char *name = type >= 0 && type < (int)(sizeof(names) / sizeof(names[0]))
	                       ? names[type] : "item";

	if (type == PVM_STR && n == 1)
		snprintf(buf, len, "a string");
	else
		snprintf(buf, len, "%u %s%s", n, name, n == 1 ? "" : "s");
}

/* Where statement offset of module is, as a source line when it resolves. */
static void place(const mon_run *run, int32_t tid, const char *module, uint64_t offset,
                  char *buf, size_t len)
{
	pvmmon_log_stmt s;

	if (!module || offset == UINT64_MAX) {
		snprintf(buf, len, "an unknown statement");
		return;
	}
	memset(&s, 0, sizeof(s));
	s.module = (char *)module;
	s.offset = offset;
	tasks__stmt_place(run, tid, &s, buf, len);
	free(s.file);
	free(s.function);
	free(s.op);
}

static const char *lid_of(const mon_task *t) { return t && t->rec.lid ? t->rec.lid : "?"; }

/* The text of finding f of task t at statement at (other: the other task, or NULL, its
 * statement oat); what exit counts says its count. */
static char *describe(const mon_task *t, const mon_task *other, const wire_finding *f,
                      const char *at, const char *oat)
{
	char a[64], b[64], *text = NULL;
	int rc = -1;
	unsigned long long n = (unsigned long long)f->count;
	switch (f->kind) {
	case WIRE_CHECK_UNPACK:
		items(a, sizeof(a), f->a_type, f->a_count);
		items(b, sizeof(b), f->b_type, f->b_count);
		if (f->past_end && f->b_type < 0)
			rc = asprintf(&text,
			              "task %s unpacked %s at %s from an empty message of task %s "
			              "(tag %d)",
			              lid_of(t), a, at, lid_of(other), f->tag);
		else if (f->past_end)
			rc = asprintf(&text,
			              "task %s unpacked %s at %s past the end of a message whose "
			              "last pack was %s at %s by task %s (tag %d)",
			              lid_of(t), a, at, b, oat, lid_of(other), f->tag);
		else
			rc = asprintf(&text,
			              "task %s unpacked %s at %s from a message packed as %s at %s "
			              "by task %s (tag %d)",
			              lid_of(t), a, at, b, oat, lid_of(other), f->tag);
		break;
	case WIRE_CHECK_QUEUED:
		if (other)
			rc = asprintf(&text,
			              "task %s exited with %llu message%s never received from task "
			              "%s (tag %d), sent at %s",
			              lid_of(t), n, n == 1 ? "" : "s", lid_of(other), f->tag, oat);
		else
			rc = asprintf(&text,
			              "task %s exited with %llu message%s never received from t%x "
			              "(tag %d, not monitored)",
			              lid_of(t), n, n == 1 ? "" : "s", (unsigned)f->a_type, f->tag);
		break;
	case WIRE_CHECK_UNFREED:
		rc = asprintf(&text,
		              "task %s exited with %llu buffer%s made at %s (pvm_mkbuf) never freed",
		              lid_of(t), n, n == 1 ? "" : "s", at);
		break;
	default:
		rc = asprintf(&text,
		              "task %s went on past an error result %d of %s at %s",
		              lid_of(t), f->a_type, f->call ? f->call : "a PVM call", at);
		break;
	}
	return rc < 0 ? NULL : text;
}

/* The finding with key, made (said) when new; NULL when memory is short. */
static mon_find *find_key(struct mon_findings *fs, const char *key, int *fresh)
{
	mon_find *f;

	*fresh = 0;
	for (size_t i = 0; i < fs->n; i++)
		if (!strcmp(fs->f[i].key, key))
			return &fs->f[i];
	if (!(f = realloc(fs->f, (fs->n + 1) * sizeof(*f))))
		return NULL;
	fs->f = f;
	f = &fs->f[fs->n++];
	memset(f, 0, sizeof(*f));
	f->key = strdup(key);
	*fresh = 1;
	return f;
}

/* Takes task tid's latest count of its finding w as f's. */
static void take_count(mon_find *f, int32_t tid, const wire_finding *w)
{
	void *p;

	for (size_t i = 0; i < f->n; i++)
		if (f->per[i].tid == tid && f->per[i].offset == w->offset &&
		    f->per[i].other_offset == w->other_offset && f->per[i].tag == w->tag &&
		    f->per[i].code == w->a_type) {
			f->per[i].count = w->count;
			return;
		}
	if (!(p = realloc(f->per, (f->n + 1) * sizeof(*f->per))))
		return;
	f->per = p;
	f->per[f->n].tid = tid;
	f->per[f->n].offset = w->offset;
	f->per[f->n].other_offset = w->other_offset;
	f->per[f->n].tag = w->tag;
	f->per[f->n].code = w->a_type;
	f->per[f->n++].count = w->count;
}

/* The count of f over every task and call site. */
static uint64_t total(const mon_find *f)
{
	uint64_t n = 0;

	for (size_t k = 0; k < f->n; k++)
		n += f->per[k].count;
	return n;
}

/* Says f on stderr (its text made now, with its count so far). */
static void say(const mon_run *run, mon_find *f)
{
	const mon_task *t = tasks__find(run, f->tid), *other = NULL;

	if (f->w.other_index != UINT32_MAX && f->w.other_index < tasks__count(run))
		other = tasks__at(run, f->w.other_index);
	f->w.count = total(f);
	free(f->text);
	f->text = describe(t, other, &f->w, f->at, f->oat);
	f->said = 1;
	fprintf(stderr, "pvmmon: usage: %s\n", f->text ? f->text : "(no memory)");
	fflush(stderr);
}

void findings__message(mon_run *run, int src, const uint8_t *data, size_t len)
{
	struct mon_findings *fs = run->findings;
	mon_task *t = tasks__find(run, src), *other = NULL;
	wire_finding w;
	mon_find *f;
	char key[2048], at[512], oat[512];
	int fresh;

	if (!t || wire__finding_decode(&w, data, len) != 0) {
		run->bad_messages++;
		return;
	}
	if (!fs && !(fs = run->findings = calloc(1, sizeof(*fs))))
		goto out;
	if (w.other_index != UINT32_MAX && w.other_index < tasks__count(run))
		other = tasks__at(run, w.other_index);
	/* Once per statement (pair), by source line where they resolve (an unrolled loop's
	 * call sites are one statement); queued messages also per tag and sender, an ignored
	 * error's per code. */
	place(run, t->rec.tid, w.module, w.offset, at, sizeof(at));
	place(run, other ? other->rec.tid : 0, other ? other->exe : NULL, w.other_offset, oat,
	      sizeof(oat));
	snprintf(key, sizeof(key), "%u|%s|%s|%s|%d|%d|%d", w.kind, at, oat,
	         other && other->exe ? other->exe : "", w.kind == WIRE_CHECK_QUEUED ? w.tag : 0,
	         w.kind == WIRE_CHECK_IGNORED ? w.a_type : 0,
	         w.kind == WIRE_CHECK_QUEUED ? w.a_type : 0);
	if (!(f = find_key(fs, key, &fresh)))
		goto out;
	if (fresh) {
		f->kind = w.kind;
		f->w = w;
		f->w.module = NULL;
		w.call = NULL; /* kept in f->w */
		f->tid = src;
		f->at = strdup(at);
		f->oat = strdup(oat);
		f->task = strdup(lid_of(t));
	}
	take_count(f, src, &w);
	/* What a task counts at its exit is said with its count when its final records
	 * come (they follow its findings: PVM keeps the order of one sender's messages). */
	if (!f->said && (w.kind == WIRE_CHECK_UNPACK || w.kind == WIRE_CHECK_IGNORED))
		say(run, f);
out:
	wire__finding_clear(&w);
}

void findings__task_final(mon_run *run, int32_t tid)
{
	struct mon_findings *fs = run->findings;

	for (size_t i = 0; fs && i < fs->n; i++)
		if (!fs->f[i].said && fs->f[i].tid == tid)
			say(run, &fs->f[i]);
}

void findings__to_log(mon_run *run, pvmmon_log *log)
{
	struct mon_findings *fs = run->findings;

	if (!fs || !fs->n || !(log->findings = calloc(fs->n, sizeof(*log->findings))))
		return;
	for (size_t i = 0; i < fs->n; i++) {
		pvmmon_log_finding *o = &log->findings[i];
		mon_find *f = &fs->f[i];

		/* A task that ended without its final records: said now. */
		if (!f->said)
			say(run, f);
		o->kind = strdup(kind_names[f->kind <= WIRE_CHECK_LAST ? f->kind : 0]);
		o->task = f->task ? strdup(f->task) : NULL;
		o->text = f->text ? strdup(f->text) : NULL;
		o->count = total(f);
	}
	log->nfindings = fs->n;
}

void findings__free(mon_run *run)
{
	struct mon_findings *fs = run->findings;

	if (!fs)
		return;
	for (size_t i = 0; i < fs->n; i++) {
		free(fs->f[i].key);
		free(fs->f[i].text);
		free(fs->f[i].task);
		free(fs->f[i].per);
		free(fs->f[i].at);
		free(fs->f[i].oat);
		free(fs->f[i].w.call);
	}
	free(fs->f);
	free(fs);
	run->findings = NULL;
}
