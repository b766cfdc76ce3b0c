/*
 * Programs that hang, and programs that only look as if they might, for the tests of
 * hang diagnoses: `hang MODE` spawns its workers (itself, as `hang worker MODE INDEX`),
 * gives them each other's tids and waits for each one's word that it is done.
 *   cycle2    workers 0 and 1 each wait for the other
 *   cycle3    workers 0, 1, 2 each wait for the next
 *   mismatch  worker 0 sends the master tag 3, then waits for it; the master waits
 *             for tag 2 from worker 0
 *   ended     the master waits for tag 2 from worker 0, which exits without sending
 *   crash     the master waits for tag 2 from worker 0, which dies of SIGSEGV first
 *   partial   workers 0 and 1 wait for each other; workers 2 and 3 compute 2 s more
 *   trecv     the master waits 3 s for tag 2 from worker 0 with pvm_trecv, then goes on
 *   compute [S]  worker 0 computes S seconds (3), then answers the master, which
 *             waits for it
 *   big       worker 0 sends the master 16 MiB
 *   pcycle    cycle2 with pvm_precv
 *   precv     worker 0 computes 0.5 s, then sends the master 42 with pvm_psend; the
 *             master takes it with pvm_precv and prints it
 *   barrier [S]  both join a group; the master reaches its barrier at once, worker 0
 *             after S seconds (3) of computing (libgpvm3's pvm_barrier)
 *   poll2     workers 0 and 1 each poll the other with pvm_nrecv (a polling cycle)
 *   pollwait  the master polls worker 0 with pvm_nrecv; worker 0 computes 2 s, then
 *             answers
 * Tasks that are no PVM children of each other, as a script starts them:
 *   listen FILE  writes its tid to FILE, then waits for tag 7 from any task
 *   tell FILE    sends tag 7 to the tid in FILE
 * The lines the tests look for carry a comment naming them (HANG-...).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <pvm3.h>

#define GROUP "hang-barrier"

#define TAG_TIDS 100
#define TAG_DONE 99
#define MAXW 4

static void compute(double seconds)
{
	struct timespec a, b;
	volatile unsigned long x = 0;

	clock_gettime(CLOCK_MONOTONIC, &a);
	do {
		for (int i = 0; i < 100000; i++)
			x += (unsigned long)i;
		clock_gettime(CLOCK_MONOTONIC, &b);
	} while ((double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9 < seconds);
}

static int workers_of(const char *mode)
{
	if (!strcmp(mode, "cycle3"))
		return 3;
	if (!strcmp(mode, "partial"))
		return 4;
	if (!strcmp(mode, "cycle2") || !strcmp(mode, "pcycle") || !strcmp(mode, "poll2"))
		return 2;
	return 1;
}

/* How long worker 0 computes in modes compute and barrier (seconds). */
static double compute_s = 3.0;

static void worker(const char *mode, int me)
{
	int tids[MAXW], n = workers_of(mode), master = pvm_parent(), v = me;

	pvm_recv(master, TAG_TIDS);
	pvm_upkint(tids, n, 1);
	if (!strcmp(mode, "cycle2") || (!strcmp(mode, "partial") && me < 2)) {
		pvm_recv(tids[1 - me], 1 + (1 - me)); /* HANG-CYCLE2 */
	} else if (!strcmp(mode, "pcycle")) {
		int got, t, g, n, peer = tids[1 - me];

		pvm_precv(peer, 2 - me, &got, 1, PVM_INT, &t, &g, &n); /* HANG-PCYCLE */
	} else if (!strcmp(mode, "precv")) {
		int answer = 42;

		compute(0.5);
		pvm_psend(master, 2, &answer, 1, PVM_INT);
	} else if (!strcmp(mode, "poll2")) {
		/* Polls every millisecond, as a program that is polite to its CPU does. */
		while (pvm_nrecv(tids[1 - me], 1 + (1 - me)) == 0) /* HANG-POLL2 */
			usleep(1000);
	} else if (!strcmp(mode, "cycle3")) {
		pvm_recv(tids[(me + 1) % 3], 1); /* HANG-CYCLE3 */
	} else if (!strcmp(mode, "mismatch")) {
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&v, 1, 1);
		pvm_send(master, 3);
		pvm_recv(master, 5); /* HANG-MISMATCH-W */
	} else if (!strcmp(mode, "ended")) {
		pvm_exit(); /* HANG-ENDED-W */
		return;
	} else if (!strcmp(mode, "crash")) {
		raise(SIGSEGV); /* HANG-CRASH-W */
		return;
	} else if (!strcmp(mode, "partial") || !strcmp(mode, "compute") ||
	           !strcmp(mode, "pollwait")) {
		compute(!strcmp(mode, "compute") ? compute_s : 2.0);
	} else if (!strcmp(mode, "barrier")) {
		pvm_joingroup(GROUP);
		compute(compute_s);
		pvm_barrier(GROUP, 2);
		pvm_lvgroup(GROUP);
	} else if (!strcmp(mode, "trecv")) {
		compute(0.2);
	}
	if (!strcmp(mode, "compute") || !strcmp(mode, "big") || !strcmp(mode, "pollwait")) {
		size_t len = !strcmp(mode, "big") ? 16u << 20 : 4;
		char *buf = calloc(1, len);

		pvm_initsend(PvmDataRaw);
		pvm_pkbyte(buf, (int)len, 1);
		pvm_send(master, 2);
		free(buf);
	}
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&v, 1, 1);
	pvm_send(master, TAG_DONE);
	pvm_exit();
}

/* listen FILE: the tid goes to FILE (whole, by a rename), then a wait for anyone. */
static int listen_on(const char *file)
{
	char tmp[4200];
	FILE *f;
	int me = pvm_mytid();

	if (me < 0)
		return 1;
	snprintf(tmp, sizeof(tmp), "%s.tmp", file);
	f = fopen(tmp, "w");
	if (!f || fprintf(f, "%d\n", me) < 0 || fclose(f) != 0 || rename(tmp, file) != 0) {
		perror(file);
		pvm_exit();
		return 1;
	}
	pvm_recv(-1, 7); /* HANG-LISTEN */
	printf("hang: listen done\n");
	pvm_exit();
	return 0;
}

/* tell FILE: waits for FILE, then sends tag 7 to the tid in it. */
static int tell(const char *file)
{
	int tid = 0, v = 7;
	FILE *f;

	while (!(f = fopen(file, "r")))
		usleep(20000);
	if (fscanf(f, "%d", &tid) != 1 || pvm_mytid() < 0) {
		fclose(f);
		return 1;
	}
	fclose(f);
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&v, 1, 1);
	pvm_send(tid, 7);
	printf("hang: tell done\n");
	pvm_exit();
	return 0;
}

int main(int argc, char **argv)
{
	int tids[MAXW], n, i;
	const char *mode;
	char *self;

	if (argc >= 4 && !strcmp(argv[1], "worker")) {
		if (argc == 5)
			compute_s = atof(argv[4]);
		worker(argv[2], atoi(argv[3]));
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "listen"))
		return listen_on(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "tell"))
		return tell(argv[2]);
	if (argc == 3 && (!strcmp(argv[1], "compute") || !strcmp(argv[1], "barrier")))
		compute_s = atof(argv[2]);
	if (argc < 2 || argc > 3 ||
	    (argc == 3 && strcmp(argv[1], "compute") && strcmp(argv[1], "barrier")) ||
	    (n = workers_of(argv[1])) < 1) {
		fprintf(stderr,
		        "usage: hang cycle2|cycle3|mismatch|ended|crash|partial|trecv|compute "
		        "[S]|big|pcycle|precv|barrier [S]|poll2|pollwait\n"
		        "       hang listen FILE | hang tell FILE\n");
		return 2;
	}
	mode = argv[1];
	self = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	if (pvm_mytid() < 0)
		return 1;
	for (i = 0; i < n; i++) {
		char idx[16], secs[32], *wargv[] = {"worker", (char *)mode, idx, secs, NULL};

		snprintf(idx, sizeof(idx), "%d", i);
		snprintf(secs, sizeof(secs), "%g", compute_s);
		/* Workers are this program under its own name: hang-linked spawns
		 * hang-linked, monitored from the console too. */
		if (pvm_spawn(self, wargv, PvmTaskDefault, "", 1, &tids[i]) != 1) {
			fprintf(stderr, "hang: cannot start worker %d\n", i);
			pvm_exit();
			return 1;
		}
	}
	pvm_initsend(PvmDataDefault);
	pvm_pkint(tids, n, 1);
	pvm_mcast(tids, n, TAG_TIDS);
	if (!strcmp(mode, "mismatch") || !strcmp(mode, "ended") || !strcmp(mode, "crash") ||
	    !strcmp(mode, "compute") || !strcmp(mode, "big")) {
		pvm_recv(tids[0], 2); /* HANG-MASTER */
	} else if (!strcmp(mode, "precv")) {
		int got = 0, rtid, rtag, rlen;

		pvm_precv(tids[0], 2, &got, 1, PVM_INT, &rtid, &rtag, &rlen);
		printf("hang: precv got %d with tag %d, %d bytes, from worker %s\n", got, rtag,
		       rlen, rtid == tids[0] ? "0" : "?");
	} else if (!strcmp(mode, "pollwait")) {
		while (pvm_nrecv(tids[0], 2) == 0)
			usleep(1000);
	} else if (!strcmp(mode, "trecv")) {
		struct timeval tv = {3, 0};

		pvm_trecv(tids[0], 2, &tv);
	} else if (!strcmp(mode, "barrier")) {
		pvm_joingroup(GROUP);
		pvm_barrier(GROUP, 2); /* HANG-BARRIER */
		pvm_lvgroup(GROUP);
	}
	for (i = 0; i < n; i++)
		if (strcmp(mode, "ended") && strcmp(mode, "crash"))
			pvm_recv(-1, TAG_DONE);
	printf("hang: %s done\n", mode);
	pvm_exit();
	return 0;
}
