/* Private to monitor/hang.c and monitor/hangsay.c: the hang module's state (each task's
 * latest wait report and the diagnoses said) and the words hangsay.c puts its
 * diagnoses in (hang.c decides what is certain; hangsay.c only words and keeps them). */
#ifndef PVMMON_MONITOR_HANG_IMPL_H
#define PVMMON_MONITOR_HANG_IMPL_H

#include <stdio.h>

#include "monitor.h"
#include "tasks.h"
#include "tidindex.h"

typedef struct hang_task {
	int32_t tid;
	int waiting;      /* a WAIT came and no WAITEND for it yet */
	wire_wait w;      /* the latest report */
	char where[600];  /* the latest report's statement, resolved */
	int placed;       /* where is a source place (file:line) */
	uint64_t tried;   /* the task's flushes when where was last resolved */
	char status[800]; /* hang__waiting's answer */
	int stuck;        /* in the stuck set of the last evaluation */
	int64_t got_at;   /* the monitor's time when the latest report came */
} hang_task;

struct mon_hang {
	hang_task *t;
	size_t n, cap;
	tidindex by_tid; /* tid -> place in t */
	char **keys;     /* conditions said so far */
	size_t nkeys;
	char **kinds, **texts;
	int64_t *delays; /* from the last block to the diagnosis, ns */
	size_t ndiag;
	int any_wait;     /* some task has reported a wait */
	size_t verdicts;  /* replay waits told that their message cannot come */
	uint64_t reports; /* WAIT and WAITEND messages received */
	/* all_wait: judged as if no task could join; the group's last look, when, what. */
	int closed, others;
	int64_t looked_at;
};

/* hangsay.c: the words. */
const char *hang__lid_of(const mon_run *run, int32_t tid);
const char *hang__ctx_words(char *buf, size_t size, int32_t ctx);
const char *hang__ended_how(const mon_task *s, char *buf, size_t size);
void hang__describe(const mon_run *run, const hang_task *t, char *buf, size_t size);
/* Whether the condition named key was said before; hang__said remembers it too. */
int hang__known(const struct mon_hang *h, const char *key);
int hang__said(struct mon_hang *h, const char *key);
void hang__say(mon_run *run, struct mon_hang *h, const char *kind, const char *label,
               const char *text, int64_t since);
/* Appends task t's wait to a key (a memstream). */
void hang__key_add(FILE *f, const hang_task *t);
/* The key of the whole stuck set (heap; NULL: no memory), and its words. */
char *hang__all_key(const struct mon_hang *h);
void hang__say_all(mon_run *run, struct mon_hang *h);

#endif
