/*
 * Preserve mode's knowledge rule (doc/architecture.md, "Preserve mode"): which task
 * may address which, from what the monitor sees of spawns, messages and the tasks'
 * own reports, so that a receive from any source waits only for tasks that could
 * send to it.
 *
 * A task can only send to a tid it has learned: its parent's, its children's, the
 * source of a message it took, or a tid in a message's data or a spawn's arguments,
 * or one a call lists (pvm_tasks, pvm_siblings, group calls, the mailbox). The tasks
 * report the last two kinds themselves (wire_pwait.reach, pvmhooks/reach.c): a task
 * that may learn every tid counts as addressing everyone; a task that packs a tid it
 * learned teaches others whom to address, and since what it taught is seen nowhere,
 * the rule is then off for the rest of the run (every task may address every task, as
 * before the rule). A task that sends to a tid it was not seen to learn turns it off
 * too, with a warning: decisions before may rest on a wrong premise.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "preserve_impl.h"
#include "tasks.h"

static void set_bit(uint64_t *row, int32_t b)
{
	if (b >= 0)
		row[b / 64] |= 1ULL << (b % 64);
}

void preserve__know_report(mon_run *run, size_t i, uint8_t reach)
{
	struct mon_pr *p = run->pr;
	pr_task *t = &p->t[i];

	if ((reach | t->reach) == t->reach && t->kind >= 0)
		return;
	t->reach |= reach;
	p->kn_gen++;
	if ((reach & WIRE_PW_REACH_SURPRISE) && !p->kn_off) {
		fprintf(stderr,
		        "pvmmon: preserve: task %s sent to a task it was not seen to learn of; "
		        "from now on every task counts as able to address every other (earlier "
		        "decisions may not be the unmonitored run's)\n",
		        tasks__at(run, i)->rec.lid ? tasks__at(run, i)->rec.lid : "?");
		p->kn_why = "a task sent to a task it was not seen to learn of";
	} else if ((reach & WIRE_PW_REACH_MISORDER) && !p->kn_off) {
		fprintf(stderr,
		        "pvmmon: preserve: task %s took a message from a task taught its tid in a "
		        "message after an earlier choice (a relay); that choice may not be the "
		        "unmonitored run's, and from now on every task counts as able to address "
		        "every other\n",
		        tasks__at(run, i)->rec.lid ? tasks__at(run, i)->rec.lid : "?");
		p->kn_why = "a relayed message came earlier than one taken";
	} else if ((reach & WIRE_PW_REACH_TEACH) && !p->kn_off) {
		p->kn_why = "a task packed a tid into a message";
	}
	if (reach & (WIRE_PW_REACH_SURPRISE | WIRE_PW_REACH_TEACH | WIRE_PW_REACH_MISORDER))
		p->kn_off = 1;
}

/* Row a of the matrix: whom task a may address. */
static void fill_row(mon_run *run, size_t a, uint64_t *row, size_t words)
{
	struct mon_pr *p = run->pr;
	size_t nt = tasks__count(run);
	const mon_task *mt;
	int32_t tid;

	/* Not registered, no report yet, or it may learn every tid: anyone. */
	if (a >= nt || p->t[a].kind < 0 || (p->t[a].reach & WIRE_PW_REACH_ALL)) {
		memset(row, 0xff, words * sizeof(*row));
		return;
	}
	mt = tasks__at(run, a);
	tid = mt->rec.tid;
	set_bit(row, preserve__index_of(run, mt->rec.parent_tid));
	/* Its children: by its spawn reports, and by the children's registrations, which
	 * may come first. */
	for (size_t k = 0; k < tasks__spawn_count(run); k++)
		if (tasks__spawn_at(run, k)->parent == tid)
			set_bit(row, preserve__index_of(run, tasks__spawn_at(run, k)->child));
	for (size_t k = 0; k < nt; k++)
		if (tasks__at(run, k)->rec.parent_tid == tid)
			set_bit(row, (long)k);
	/* The sources of the messages sent to it (taken, or on their way: either way they
	 * will be its to know), and the tasks it has sent to (however it learned them: a
	 * relayed tid shows here once used). */
	for (size_t k = 0; k < p->cap_pairs; k++) {
		const pr_pair *e = &p->pairs[k];
		int32_t src = (int32_t)(uint32_t)(e->key >> 32), dst = (int32_t)(uint32_t)e->key;

		if (!e->key || (e->key >> 63) || !(e->sent || e->seen))
			continue;
		if (dst == tid)
			set_bit(row, preserve__index_of(run, src));
		else if (src == tid)
			set_bit(row, preserve__index_of(run, dst));
	}
}

void preserve__know(mon_run *run, size_t n)
{
	struct mon_pr *p = run->pr;
	size_t words = (n + 63) / 64;

	p->s.kn = NULL;
	if (p->kn_off || p->s.naive || getenv("PVMMON_PRESERVE_NO_KNOWLEDGE"))
		return;
	/* The indices move when a spawned task registers (extras come after the tasks). */
	if (n != p->kn_n || tasks__count(run) != p->kn_nt || p->kn_gen != p->kn_built ||
	    tasks__spawn_count(run) != p->kn_spawns) {
		uint64_t *kn = realloc(p->kn, (n ? n : 1) * words * sizeof(*kn));

		if (!kn)
			return;
		p->kn = kn;
		memset(kn, 0, n * words * sizeof(*kn));
		for (size_t a = 0; a < n; a++)
			fill_row(run, a, kn + a * words, words);
		p->kn_n = n;
		p->kn_nt = tasks__count(run);
		p->kn_built = p->kn_gen;
		p->kn_spawns = tasks__spawn_count(run);
	}
	p->s.kn = p->kn;
	p->s.kn_words = words;
}

int preserve__know_addresses(const mon_run *run, size_t a, size_t b)
{
	const struct mon_pr *p = run->pr;

	return !p->s.kn || (p->s.kn[a * p->s.kn_words + b / 64] >> (b % 64) & 1);
}
