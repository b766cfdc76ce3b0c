/* The public probe API (include/pvmmon/probe.h): procedure and loop entry and exit. */
#include "hooks.h"
#include "records.h"

/* A probe runs in a task that is or may become monitored (procedures such as main are
 * entered before the task's first PVM call registers it), outside any wrapper, on an
 * enabled site; its own duration is intrusion. */
#define PROBE(site, fn)                                                                   \
	do {                                                                              \
		int64_t t0;                                                               \
		if ((hooks__st.state != HOOKS_ACTIVE && hooks__st.state != HOOKS_UNINIT) || \
		    hooks__guard || !(site)->enabled)                                      \
			return;                                                           \
		t0 = pvmmon_clock_now();                                                  \
		fn((site), vclock_virtual(&hooks__st.clock, t0));                         \
		vclock_intrude(&hooks__st.clock, pvmmon_clock_now() - t0);                \
	} while (0)

void pvmmon_probe_proc_enter(pvmmon_probe_site *site)
{
	PROBE(site, hooks__proc_enter);
}

void pvmmon_probe_proc_exit(pvmmon_probe_site *site)
{
	PROBE(site, hooks__proc_exit);
}

void pvmmon_probe_loop_enter(pvmmon_probe_site *site)
{
	PROBE(site, hooks__loop_enter);
}

void pvmmon_probe_loop_exit(pvmmon_probe_site *site)
{
	PROBE(site, hooks__loop_exit);
}
