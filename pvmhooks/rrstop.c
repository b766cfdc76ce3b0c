/* A replayed task's stops for a debugger (--stop-at) and holds while another task is
 * stopped (pvmhooks/rrstop.h). */
#include <dlfcn.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "../common/clock.h"
#include "channel.h"
#include "rrstop.h"
#include "sched.h"

static struct {
	uint64_t stop_at; /* stop (SIGSTOP) before this event, counted from 1; 0: no */
	int hold;         /* another task is stopped (WIRE_CTL_HOLD came, hooks__poll) */
} st;

void rrstop__configure(uint64_t stop_at) { st.stop_at = stop_at; }

int rrstop__due(uint64_t event) { return st.stop_at && event == st.stop_at; }

/* Tells the monitor (STOPPED) that this task stops, was continued or holds (kind) at
 * call, before event. */
static void send_stopped(const hooks_call *call, uint64_t event, int kind)
{
	wire_stopped s = {event, (uint32_t)hooks__pid(), NULL, 0, (uint8_t)kind};
	wire_buf b;
	Dl_info info;

	if (dladdr(call->site, &info) && info.dli_fname) {
		s.module = (char *)info.dli_fname;
		s.offset = (uint64_t)((char *)call->site - (char *)info.dli_fbase);
	}
	wire__buf_init(&b);
	wire__stopped_encode(&b, &s);
	if (!b.failed)
		channel__send(WIRE_TAG_STOPPED, b.data, b.len);
	wire__buf_free(&b);
}

void rrstop__here(const hooks_call *call, uint64_t event)
{
	send_stopped(call, event, WIRE_STOP_STOPPED);
	raise(SIGSTOP);
	/* A debugger, or kill -CONT, let it go on: so do the others. */
	send_stopped(call, event, WIRE_STOP_CONTINUED);
}

void rrstop__hold(int on) { st.hold = on; }

void rrstop__hold_point(hooks_call *call, uint64_t event)
{
	if (!st.hold)
		return;
	send_stopped(call, event, WIRE_STOP_HOLDING);
	while (st.hold && !channel__lost()) {
		usleep(5000);
		hooks__poll(pvmmon_clock_now());
	}
}
