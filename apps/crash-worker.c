/* Worker of the crash demo: the chosen victim kills itself (or faults) after a delay. */
#include <signal.h>
#include <stdio.h>
#include <time.h>

#include <pvm3.h>

#include "crash.h"

int main(void)
{
	int parent = pvm_parent(), msg[4];

	if (pvm_mytid() < 0 || parent < 0) {
		fprintf(stderr, "crash-worker: must be spawned by crash\n");
		return 1;
	}
	if (pvm_recv(parent, CRASH_TAG_WORK) < 0)
		goto out;
	pvm_upkint(msg, 4, 1);
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&msg[0], 1, 1);
	pvm_send(parent, CRASH_TAG_REPLY);
	if (msg[0] == msg[1]) {
		struct timespec ts = {msg[2] / 1000, (long)(msg[2] % 1000) * 1000000L};

		pvm_recv(parent, CRASH_TAG_PING);
		/* Records are flushed from within PVM calls once the flush period has passed:
		 * after the delay, one more message gives the monitor the victim's records
		 * before it dies without calling pvm_exit. Waiting for the master's answer
		 * makes sure pvmd has taken all of it: a task killed with messages still in
		 * its socket loses them. */
		nanosleep(&ts, NULL);
		pvm_initsend(PvmDataDefault);
		pvm_send(parent, CRASH_TAG_LAST);
		pvm_recv(parent, CRASH_TAG_ACK);
		if (msg[3]) {
			/* A real fault, not a signal sent: a write through a null pointer. */
			volatile int *nowhere = NULL;

			signal(SIGSEGV, SIG_DFL);
			*nowhere = 1;
		}
		raise(SIGKILL);
	}
	pvm_recv(parent, CRASH_TAG_FINISH);
	pvm_initsend(PvmDataDefault);
	pvm_send(parent, CRASH_TAG_DONE);
out:
	pvm_exit();
	return 0;
}
