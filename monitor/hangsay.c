/* Hangs in words (monitor/hang_impl.h): each diagnosis hang.c finds certain, said once
 * on stderr with every wait's statement and kept for the log. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/clock.h"
#include "hang_impl.h"

const char *hang__lid_of(const mon_run *run, int32_t tid)
{
	const mon_task *t = tasks__find(run, tid);

	return t && t->rec.lid ? t->rec.lid : "?";
}

/* A wait's context in words: none for the base context (0), which almost every
 * program receives in; " in context N" for one the program made (pvm_newcontext). */
const char *hang__ctx_words(char *buf, size_t size, int32_t ctx)
{
	buf[0] = '\0';
	if (ctx == -1)
		snprintf(buf, size, " in any context");
	else if (ctx != 0)
		snprintf(buf, size, " in context %d", (int)ctx);
	return buf;
}

/* How task s, which has ended, ended: "it exited", "killed by SIGSEGV", ... */
const char *hang__ended_how(const mon_task *s, char *buf, size_t size)
{
	if (s->rec.signal)
		snprintf(buf, size, "killed by %s", pvmmon_signal_name(s->rec.signal));
	else if (s->noexit)
		snprintf(buf, size, "it exited without pvm_exit");
	else
		snprintf(buf, size, "%s",
		         s->final ? "it exited"
		                  : "without its final flush: it crashed or was killed");
	return buf;
}

/* "task 0.1 waits at f.c:42 for tag 2 from 0.2" ("polls" for a polling wait; then its
 * context, when not the base; graphs/waitfor.c reads it back) */
void hang__describe(const mon_run *run, const hang_task *t, char *buf, size_t size)
{
	char tag[32], from[64], ctx[48];

	if (t->w.tag == -1)
		snprintf(tag, sizeof(tag), "any tag");
	else
		snprintf(tag, sizeof(tag), "tag %d", (int)t->w.tag);
	if (t->w.src == -1)
		snprintf(from, sizeof(from), "any task");
	else
		snprintf(from, sizeof(from), "%s", hang__lid_of(run, t->w.src));
	snprintf(buf, size, "task %s %s at %s for %s from %s%s", hang__lid_of(run, t->tid),
	         t->w.op == WIRE_WAIT_POLL ? "polls" : "waits", t->where, tag, from,
	         hang__ctx_words(ctx, sizeof(ctx), t->w.ctx));
}

/* Whether the condition named key was said before. */
int hang__known(const struct mon_hang *h, const char *key)
{
	for (size_t i = 0; i < h->nkeys; i++)
		if (!strcmp(h->keys[i], key))
			return 1;
	return 0;
}

/* Whether the condition named key was said before (it is remembered now). */
int hang__said(struct mon_hang *h, const char *key)
{
	char **k;

	if (hang__known(h, key))
		return 1;
	k = realloc(h->keys, (h->nkeys + 1) * sizeof(*k));
	if (!k)
		return 1;
	h->keys = k;
	h->keys[h->nkeys++] = strdup(key);
	return 0;
}

/* Says a diagnosis on stderr and keeps it for the log; with --on-hang=abort the run
 * stops. */
void hang__say(mon_run *run, struct mon_hang *h, const char *kind, const char *label,
                const char *text, int64_t since)
{
	char **k = realloc(h->kinds, (h->ndiag + 1) * sizeof(*k));
	char **t = k ? realloc(h->texts, (h->ndiag + 1) * sizeof(*t)) : NULL;
	int64_t *d = t ? realloc(h->delays, (h->ndiag + 1) * sizeof(*d)) : NULL;
	int64_t delay = since > 0 ? pvmmon_clock_now() - since : 0;

	fprintf(stderr, "pvmmon: %s: %s (said %" PRId64 " ms after the last task blocked)\n", label,
	        text, delay / 1000000);
	fflush(stderr);
	if (k)
		h->kinds = k;
	if (t)
		h->texts = t;
	if (d) {
		h->delays = d;
		h->delays[h->ndiag] = delay;
		h->kinds[h->ndiag] = strdup(kind);
		h->texts[h->ndiag++] = strdup(text);
	}
	/* A replay told that its recorded message cannot come reports a divergence, which
	 * ends the run (status 3) instead. */
	if (run->on_deadlock_abort && !h->verdicts)
		run->deadlocked = 1;
}

/* Appends to a growing text (a memstream). */
void hang__key_add(FILE *f, const hang_task *t)
{
	fprintf(f, "%x:%u;", (unsigned)t->tid, t->w.seq);
}

/* The key of the whole stuck set: each stuck task's wait (heap; NULL: no memory). */
char *hang__all_key(const struct mon_hang *h)
{
	char *key = NULL;
	size_t klen;
	FILE *kf = open_memstream(&key, &klen);

	if (!kf)
		return NULL;
	fprintf(kf, "all:");
	for (size_t i = 0; i < h->n; i++)
		if (h->t[i].stuck)
			hang__key_add(kf, &h->t[i]);
	fclose(kf);
	return key;
}

/* Says that every task that has not ended is stuck (the stuck set), with each one's
 * wait in tid order (the master first); when one waits for anyone, the words say what
 * outside the program could still send it a message, instead of "nothing can come". */
void hang__say_all(mon_run *run, struct mon_hang *h)
{
	char *text = NULL, line[800];
	size_t tlen;
	int64_t since = 0;
	int anyone = 0, ended = 0;
	FILE *tf = open_memstream(&text, &tlen);

	if (!tf)
		return;
	for (size_t i = 0; i < tasks__count(run); i++)
		ended |= tasks__at(run, i)->gone;
	for (size_t i = 0; i < h->n; i++)
		anyone |= h->t[i].stuck && h->t[i].w.src == -1;
	if (anyone)
		fprintf(tf, "every task%s waits and no message can come from inside the program",
		        ended ? " that has not ended" : "");
	else
		fprintf(tf,
		        "every task that has not ended waits and nothing it waits for can come");
	for (const hang_task *t = NULL, *prev = NULL;; prev = t, t = NULL) {
		for (size_t i = 0; i < h->n; i++)
			if (h->t[i].stuck && (!prev || h->t[i].tid > prev->tid) &&
			    (!t || h->t[i].tid < t->tid))
				t = &h->t[i];
		if (!t)
			break;
		since = t->w.rt_start > since ? t->w.rt_start : since;
		hang__describe(run, t, line, sizeof(line));
		fprintf(tf, "; %s", line);
	}
	if (anyone)
		fprintf(tf, "; only a sender outside the program's monitored tasks could end a "
		            "wait for any task (a task started from the PVM console or by another "
		            "program, or pvmd's pvm_notify message of a host or task ended from "
		            "outside)");
	fclose(tf);
	if (text)
		hang__say(run, h, "quiescent", "the program is stuck", text, since);
	free(text);
}
