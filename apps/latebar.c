/*
 * A barrier with one late member, for the wait analysis: a master spawns MEMBERS copies
 * of this program, which join a group and meet at a first barrier; then for ROUNDS rounds
 * each works BASE ms (asleep: the answer does not depend on the processors), member LATE
 * EXTRA ms more in its procedure late_part, and all meet at pvm_barrier, so that every
 * other member waits EXTRA ms a round for the late one. The master prints one line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <pvm3.h>

#include "apputil.h"

#define GROUP "pvmmon-latebar"
#define TAG_DONE 81
#define MAX_MEMBERS 32

static void nap_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000};

	nanosleep(&ts, NULL);
}

void late_part(long ms) { nap_ms(ms); }

void member_work(long ms) { nap_ms(ms); }

/* Member k of n: the rounds, then the number of barriers passed to the master. */
static int member(int k, int n, int rounds, long base, long extra, int late)
{
	int passed = 0, rc;

	if (pvm_joingroup(GROUP) < 0 ||
	    pvm_barrier(GROUP, n) < 0) {
		fprintf(stderr, "latebar: member %d cannot join the group\n", k);
		pvm_exit();
		return 1;
	}
	for (int r = 0; r < rounds; r++) {
		member_work(base);
		if (k == late)
			late_part(extra);
		if ((rc = pvm_barrier(GROUP, n)) < 0) {
			fprintf(stderr, "latebar: member %d: pvm_barrier failed (PVM error %d)\n", k, rc);
			break;
		}
		passed++;
	}
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&k, 1, 1);
	pvm_pkint(&passed, 1, 1);
	pvm_send(pvm_parent(), TAG_DONE);
	pvm_lvgroup(GROUP);
	pvm_exit();
	return passed == rounds ? 0 : 1;
}

static int usage(FILE *out, int status)
{
	fprintf(out, "usage: latebar [-n MEMBERS] [-r ROUNDS] [-b MS] [-x MS] [-l LATE]\n"
	             "MEMBERS tasks join a group and meet at a barrier ROUNDS times; each sleeps "
	             "MS ms a round,\nmember LATE -x ms more in late_part "
	             "(defaults: -n 4 -r 10 -b 2 -x 20,\n-l the last member).\n");
	return status;
}

int main(int argc, char **argv)
{
	int n = 4, rounds = 10, late = -1, opt, tids[MAX_MEMBERS], bad = 0, k, passed;
	long base = 2, extra = 20;
	char *margv[8], a[6][16];

	if (argc == 8 && !strcmp(argv[1], "member"))
		return member(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]), atol(argv[5]),
		              atol(argv[6]), atoi(argv[7]));
	while ((opt = getopt(argc, argv, "n:r:b:x:l:h")) != -1) {
		switch (opt) {
		case 'n':
			n = (int)apputil_parse_num("latebar", optarg, "-n (members)", 2, MAX_MEMBERS);
			break;
		case 'r':
			rounds = (int)apputil_parse_num("latebar", optarg, "-r (rounds)", 1, 100000);
			break;
		case 'b':
			base = apputil_parse_num("latebar", optarg, "-b (ms a round)", 0, 10000);
			break;
		case 'x':
			extra = apputil_parse_num("latebar", optarg, "-x (the late member's extra ms)",
			                          0, 10000);
			break;
		case 'l':
			late = (int)apputil_parse_num("latebar", optarg, "-l (the late member)", 0,
			                              MAX_MEMBERS - 1);
			break;
		default:
			return usage(opt == 'h' ? stdout : stderr, opt == 'h' ? 0 : 2);
		}
	}
	if (late < 0)
		late = n - 1;
	if (optind < argc || late >= n) {
		fprintf(stderr, "latebar: -l (the late member) must be below -n (members)\n");
		return usage(stderr, 2);
	}
	if (pvm_mytid() < 0)
		return 1;
	/* Any group call starts the group server: the master's, before the members race to. */
	pvm_gsize(GROUP);
	/* Members are spawned one at a time, so member k is the master's (k+1)th child. */
	for (k = 0; k < n; k++) {
		snprintf(a[0], sizeof(a[0]), "%d", k);
		snprintf(a[1], sizeof(a[1]), "%d", n);
		snprintf(a[2], sizeof(a[2]), "%d", rounds);
		snprintf(a[3], sizeof(a[3]), "%ld", base);
		snprintf(a[4], sizeof(a[4]), "%ld", extra);
		snprintf(a[5], sizeof(a[5]), "%d", late);
		margv[0] = "member";
		for (int i = 0; i < 6; i++)
			margv[i + 1] = a[i];
		margv[7] = NULL;
		if (pvm_spawn(argv[0], margv, PvmTaskDefault, NULL, 1, &tids[k]) != 1) {
			fprintf(stderr, "latebar: cannot spawn member %d\n", k);
			pvm_exit();
			return 1;
		}
	}
	for (int i = 0; i < n; i++) {
		pvm_recv(-1, TAG_DONE);
		pvm_upkint(&k, 1, 1);
		pvm_upkint(&passed, 1, 1);
		bad += passed != rounds;
	}
	printf("latebar: %d members, %d rounds, member %d late by %ld ms: %s\n", n, rounds, late,
	       extra, bad ? "WRONG" : "ok");
	pvm_exit();
	return bad ? 1 : 0;
}
