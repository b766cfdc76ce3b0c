/*
 * Programs whose tasks leave PVM in unusual ways, for the tests of task life cycles:
 * `lifecycle MODE` spawns one worker (itself, as `lifecycle worker MODE`).
 *   noexit   the worker sends the master its result (tag 1) and returns from main
 *            without pvm_exit; the master receives it, then waits for a second
 *            message (tag 2) that never comes
 *   lost     the worker sends the master tag 1 and tag 2 and returns from main without
 *            pvm_exit (PVM may lose the last one); the master waits for both
 *   reenrol  the worker sends tag 1, calls pvm_exit, enrols again with pvm_mytid (a new
 *            tid), sends tag 2 from there and ends with pvm_exit; the master takes both
 *            and prints the two tids it saw
 * The lines the tests look for carry a comment naming them (LIFE-...).
 */
#include <stdio.h>
#include <string.h>

#include <pvm3.h>

static void send_int(int to, int tag, int v)
{
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&v, 1, 1);
	pvm_send(to, tag); /* LIFE-SEND */
}

static int worker(const char *mode)
{
	int master = pvm_parent(), me = pvm_mytid();

	if (!strcmp(mode, "noexit")) {
		send_int(master, 1, 42); /* LIFE-NOEXIT-SEND */
		return 0;                /* LIFE-NOEXIT-RETURN: no pvm_exit */
	}
	if (!strcmp(mode, "lost")) {
		send_int(master, 1, 1);
		send_int(master, 2, 2); /* LIFE-LOST-SEND */
		return 0;
	}
	/* reenrol: the first incarnation's tid goes with its message. */
	send_int(master, 1, me);
	pvm_exit(); /* LIFE-REENROL-EXIT */
	me = pvm_mytid(); /* LIFE-REENROL-MYTID: a new task */
	send_int(master, 2, me);
	pvm_exit();
	return 0;
}

int main(int argc, char **argv)
{
	int tid, v1 = 0, v2 = 0, src1 = 0, src2 = 0, b;
	char *wargv[] = {"worker", NULL, NULL};
	const char *self;

	if (argc == 3 && !strcmp(argv[1], "worker"))
		return worker(argv[2]);
	if (argc != 2 || (strcmp(argv[1], "noexit") && strcmp(argv[1], "lost") &&
	                  strcmp(argv[1], "reenrol"))) {
		fprintf(stderr, "usage: lifecycle noexit|lost|reenrol\n");
		return 2;
	}
	self = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	if (pvm_mytid() < 0)
		return 1;
	wargv[1] = argv[1];
	if (pvm_spawn((char *)self, wargv, PvmTaskDefault, "", 1, &tid) != 1) {
		fprintf(stderr, "lifecycle: cannot start the worker\n");
		pvm_exit();
		return 1;
	}
	if (!strcmp(argv[1], "reenrol")) {
		/* The second message comes from the worker's new tid: any source. */
		b = pvm_recv(-1, 1);
		pvm_upkint(&v1, 1, 1);
		pvm_bufinfo(b, NULL, NULL, &src1);
		b = pvm_recv(-1, 2);
		pvm_upkint(&v2, 1, 1);
		pvm_bufinfo(b, NULL, NULL, &src2);
		printf("lifecycle: reenrol: first t%x (said t%x), then t%x (said t%x)\n", src1, v1,
		       src2, v2);
	} else {
		pvm_recv(tid, 1);
		pvm_upkint(&v1, 1, 1);
		printf("lifecycle: %s: got %d\n", argv[1], v1);
		fflush(stdout);
		pvm_recv(tid, 2); /* LIFE-MASTER-WAIT */
		pvm_upkint(&v2, 1, 1);
		printf("lifecycle: %s: got %d\n", argv[1], v2);
	}
	pvm_exit();
	return 0;
}
