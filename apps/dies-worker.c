/* Worker of the dies demo: makes its sends to the master, then ends as it is told:
 * a fault (SIGSEGV), abort() (SIGABRT), SIGKILL, a wait for ever, pvm_exit, or a
 * fault its own SIGSEGV handler (installed first thing, argument "handled") takes. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pvm3.h>

#include "dies.h"

/* The program's own handler: says so and exits 3. */
static void own_handler(int sig)
{
	static const char say[] = "dies-worker: its own SIGSEGV handler ran\n";

	(void)sig;
	if (write(2, say, sizeof(say) - 1) < 0)
		_exit(4);
	_exit(3);
}

int main(int argc, char **argv)
{
	int parent, msg[3], i;

	if (argc > 1 && !strcmp(argv[1], "handled"))
		signal(SIGSEGV, own_handler);
	parent = pvm_parent();

	if (pvm_mytid() < 0 || parent < 0) {
		fprintf(stderr, "dies-worker: must be spawned by dies\n");
		return 1;
	}
	if (pvm_recv(parent, DIES_TAG_WORK) < 0)
		goto out;
	pvm_upkint(msg, 3, 1);
	for (i = 0; i < msg[0]; i++) {
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&i, 1, 1);
		pvm_send(parent, DIES_TAG_DATA);
		/* Paced sends (-p): at most one a millisecond. */
		if (msg[2])
			usleep(1000);
	}
	/* The master's answer says pvmd has taken every send: a task that dies with
	 * messages still in its socket loses them (PVM's own behaviour). */
	if (msg[1] != DIES_WAIT && msg[1] != DIES_POLL)
		pvm_recv(parent, DIES_TAG_ACK);
	switch (msg[1]) {
	case DIES_SEGV:
	case DIES_HANDLED: {
		/* A real fault, not a signal sent: a write through a null pointer. */
		volatile int *nowhere = NULL;

		*nowhere = 1;
		break;
	}
	case DIES_ABORT:
		abort();
	case DIES_KILL:
		raise(SIGKILL);
		break;
	case DIES_WAIT:
	case DIES_POLL:
		dies_wait_forever(parent, msg[1] == DIES_POLL);
		break;
	}
out:
	pvm_exit();
	return 0;
}
