/* The tasks each host holds against its pvmd's descriptor limit: counted at every
 * registration and spawn report, said once when a host nears the limit. */
#include <inttypes.h>
#include <stdio.h>

#include <pvm3.h>

#include "capacity.h"
#include "tasks.h"

/* A spawned child counts as on its host this long before it registers; one that never
 * does (an unmonitored program, or it died first) stops counting then. */
#define SPAWN_PENDING_NS 5000000000LL

/* At most this many hosts are counted apart (more share the last slot: the warning
 * is about one host's pvmd, and a virtual machine rarely has more). */
#define MAX_HOSTS 64

typedef struct host_count {
	int32_t dtid;
	size_t n;
} host_count;

static void count(host_count *h, size_t *nh, int32_t dtid)
{
	size_t i;

	for (i = 0; i < *nh; i++)
		if (h[i].dtid == dtid) {
			h[i].n++;
			return;
		}
	if (*nh == MAX_HOSTS)
		i = MAX_HOSTS - 1;
	else
		h[(*nh)++] = (host_count){dtid, 0};
	h[i].n++;
}

/* The host's name as the pvmd gives it (once, for a message), or its pvmd's tid. */
static void host_name(const mon_run *run, int32_t dtid, char *buf, size_t size)
{
	if (!run->io.host_name || run->io.host_name(dtid, buf, size) < 0)
		snprintf(buf, size, "t%x", (unsigned)dtid);
}

void capacity__check(mon_run *run, int64_t now)
{
	host_count h[MAX_HOSTS];
	size_t nh = 0, k, best = 0;
	char name[256];

	for (k = 0; k < tasks__count(run); k++) {
		const mon_task *t = tasks__at(run, k);

		if (!t->gone)
			count(h, &nh, t->dtid);
	}
	/* Reports are kept in the order they came: the recent ones are at the end, and a
	 * long run's older spawns are not looked at again. */
	for (k = tasks__spawn_count(run); k > 0; k--) {
		const mon_spawn *sp = tasks__spawn_at(run, k - 1);

		if (now - sp->seen_at >= SPAWN_PENDING_NS)
			break;
		if (!tasks__find(run, sp->child))
			count(h, &nh, pvm_tidtohost(sp->child));
	}
	for (k = 1; k < nh; k++)
		if (h[k].n > h[best].n)
			best = k;
	if (!nh || h[best].n <= run->host_tasks_peak)
		return;
	run->host_tasks_peak = h[best].n;
	run->host_tasks_peak_dtid = h[best].dtid;
	if (h[best].n < MON_HOST_TASKS_WARN || run->host_tasks_warned)
		return;
	run->host_tasks_warned = 1;
	host_name(run, h[best].dtid, name, sizeof(name));
	fprintf(stderr,
	        "pvmmon: warning: %zu tasks on host %s: its pvmd holds about 2 descriptors "
	        "per task and stops at descriptor 1024 (FD_SETSIZE, the limit of its "
	        "select()), about 500 tasks at once; PVM's own limit, monitored or not: "
	        "spread the tasks over more hosts (pvmmon run --hostfile)\n",
	        h[best].n, name);
}

void capacity__pvmd_lost(mon_run *run, int64_t now)
{
	(void)now;
	if (run->pvmd_lost)
		return;
	run->pvmd_lost = 1;
	if (run->host_tasks_peak >= MON_HOST_TASKS_WARN)
		fprintf(stderr,
		        "pvmmon: the pvmd has gone, with up to %zu tasks on one host: most "
		        "likely it reached descriptor 1024 (FD_SETSIZE; its log says \"bad fd\"); "
		        "the log keeps what was known until then\n",
		        run->host_tasks_peak);
	else
		fprintf(stderr,
		        "pvmmon: the pvmd has gone (up to %zu tasks on one host); the log keeps "
		        "what was known until then\n",
		        run->host_tasks_peak);
}
