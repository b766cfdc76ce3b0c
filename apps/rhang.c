/*
 * A program whose replay may wait for a message that can never come, for the tests of
 * replay divergences: `rhang MODE` spawns one worker (itself, as `rhang worker MODE`),
 * takes the worker's first message with a wildcard receive (recorded, so a replay forces
 * it), answers it, and waits for the worker's word that it is done.
 *   same   the worker sends tag 1, then waits for the master's answer (the recording)
 *   other  the worker sends tag 2 instead, then waits for the answer: a replay of a
 *          `same` run waits for tag 1, which can never come
 *   many   the worker sends 20 messages with tag 2 instead (more than a wait report
 *          lists), then waits for the answer
 *   exit   the worker ends without sending
 *   abort  the worker ends by SIGABRT without sending
 * The lines the tests look for carry a comment naming them (RHANG-...).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pvm3.h>

#define TAG_GO 9
#define TAG_DONE 99

static void worker(const char *mode)
{
	int master = pvm_parent(), v = 7;

	/* Registered with the monitor before it ends, as a task that works a while is. */
	pvm_mytid();
	if (!strcmp(mode, "exit")) {
		pvm_exit(); /* RHANG-EXIT */
		return;
	}
	if (!strcmp(mode, "abort"))
		abort(); /* RHANG-ABORT */
	for (int i = 0; i < (!strcmp(mode, "many") ? 20 : 1); i++) {
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&v, 1, 1);
		pvm_send(master, !strcmp(mode, "same") ? 1 : 2);
	}
	pvm_recv(master, TAG_GO); /* RHANG-WORKER */
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&v, 1, 1);
	pvm_send(master, TAG_DONE);
	pvm_exit();
}

int main(int argc, char **argv)
{
	char *wargv[] = {"worker", NULL, NULL};
	int tid, b, bytes, tag, src, v = 0;

	if (argc == 3 && !strcmp(argv[1], "worker")) {
		worker(argv[2]);
		return 0;
	}
	if (argc != 2 ||
	    (strcmp(argv[1], "same") && strcmp(argv[1], "other") && strcmp(argv[1], "many") &&
	     strcmp(argv[1], "exit") && strcmp(argv[1], "abort"))) {
		fprintf(stderr, "usage: rhang same|other|many|exit|abort\n");
		return 2;
	}
	if (pvm_mytid() < 0)
		return 1;
	wargv[1] = argv[1];
	if (pvm_spawn("rhang", wargv, PvmTaskDefault, "", 1, &tid) != 1) {
		fprintf(stderr, "rhang: cannot start the worker\n");
		pvm_exit();
		return 1;
	}
	b = pvm_recv(-1, -1); /* RHANG-MASTER */
	pvm_bufinfo(b, &bytes, &tag, &src);
	pvm_upkint(&v, 1, 1);
	printf("rhang: tag %d from the worker\n", tag);
	fflush(stdout);
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&v, 1, 1);
	pvm_send(tid, TAG_GO);
	pvm_recv(tid, TAG_DONE);
	pvm_exit();
	return 0;
}
