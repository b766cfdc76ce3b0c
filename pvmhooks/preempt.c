/*
 * Preemption in preserve mode: time a task's thread was switched out involuntarily (by
 * another process of a loaded machine, the pvmd, a task its send woke) is taken out of
 * its virtual time. Preserve mode decides receives by virtual time, and a preemption
 * is an accident of this run: the monitored run, whose loops last several times
 * longer, meets more of them than the unmonitored run would at the same point. A
 * master preempted for 80 us between two sends made its next "go" look later than a
 * node's relayed number, which the unmonitored program never saw (issue 37).
 * Only involuntary switches count, and only when the thread gave the processor up
 * for nothing (no voluntary switch: a sleep or a blocking call is the program's own
 * time); getrusage(RUSAGE_THREAD) tells both and the CPU time.
 * A preemption between calls is taken out only as far as the live bounds board's
 * promise allows (board.c: out of calls others read now - B as a lower bound of the
 * task's virtual time, and may have read it during the preemption, so I may not pass
 * what was promised): with the board on, a few microseconds; fully without it. One
 * during a call is taken out whole: the board then showed the call's start, which the
 * call's end stays after.
 */
#include <sys/resource.h>

#include "../common/clock.h"
#include "preempt.h"
#include "pvmmon/errors.h"

static struct {
	preempt_sample last; /* the previous call's end */
	preempt_sample entry; /* the current call's start */
	int have_last, have_entry;
} st;

int64_t preempt__off(const preempt_sample *a, const preempt_sample *b)
{
	int64_t off;

	if (b->invol <= a->invol || b->vol != a->vol)
		return 0;
	off = (b->rt - a->rt) - (b->cpu - a->cpu);
	return off > 0 ? off : 0;
}

static int sample(preempt_sample *s, int64_t rt)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru) != 0)
		return PVMMON_ERROR;
	s->rt = rt;
	s->cpu = ((int64_t)ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000 +
	         ((int64_t)ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000;
	s->vol = ru.ru_nvcsw;
	s->invol = ru.ru_nivcsw;
	return 0;
}

int64_t hooks__preempt_enter(int64_t rt)
{
	st.have_entry = sample(&st.entry, rt) == 0;
	if (!st.have_entry) {
		st.have_last = 0;
		return 0;
	}
	return st.have_last ? preempt__off(&st.last, &st.entry) : 0;
}

int64_t hooks__preempt_leave(int64_t rt, int64_t real)
{
	int64_t off;

	st.have_last = sample(&st.last, rt) == 0;
	off = st.have_last && st.have_entry ? preempt__off(&st.entry, &st.last) : 0;
	st.have_entry = 0;
	if (real < 0)
		real = 0;
	return off < real ? off : real;
}
