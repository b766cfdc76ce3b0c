/* Master of the crash demo: one worker kills itself mid-run; the others finish normally. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pvm3.h>

#include "crash.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: crash [-w WORKERS] [-k VICTIM] [-d DELAY_MS] [-s kill|segv]\n"
		   "Starts WORKERS crash-worker tasks; worker VICTIM (0-based) kills itself with\n"
		   "SIGKILL (or, with -s segv, writes through a null pointer) after DELAY_MS;\n"
		   "the master learns of it through pvm_notify and lets the others finish\n"
		   "(defaults: -w 2 -k 1 -d 1500 -s kill).\n");
}

static int parse_int(const char *s, const char *what, int min, int max)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (*s == '\0' || *end != '\0' || v < min || v > max) {
		fprintf(stderr, "crash: %s must be an integer from %d to %d, not '%s'\n", what, min,
			max, s);
		exit(2);
	}
	return (int)v;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {{"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
	int nw = 2, victim = 1, delay = 1500, segv = 0, opt, i, started, finished = 0, rc = 1;
	int *tids = NULL;

	while ((opt = getopt_long(argc, argv, "w:k:d:s:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'w': nw = parse_int(optarg, "-w", 1, 64); break;
		case 'k': victim = parse_int(optarg, "-k", 0, 63); break;
		case 'd': delay = parse_int(optarg, "-d", 0, 600000); break;
		case 's':
			if (strcmp(optarg, "kill") && strcmp(optarg, "segv")) {
				fprintf(stderr, "crash: -s must be kill or segv, not '%s'\n", optarg);
				return 2;
			}
			segv = !strcmp(optarg, "segv");
			break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc || victim >= nw) {
		fprintf(stderr, "crash: %s\n", optind != argc ? "unexpected argument"
							      : "-k must name one of the workers");
		return 2;
	}
	if (pvm_mytid() < 0) {
		fprintf(stderr, "crash: cannot join PVM (is a pvmd running?)\n");
		return 1;
	}
	tids = calloc(nw, sizeof(int));
	if (!tids)
		goto out;
	started = pvm_spawn("crash-worker", NULL, PvmTaskDefault, "", nw, tids);
	if (started < nw) {
		fprintf(stderr, "crash: could only start %d of %d crash-worker tasks\n",
			started < 0 ? 0 : started, nw);
		for (i = 0; i < (started > 0 ? started : 0); i++)
			pvm_kill(tids[i]);
		goto out;
	}
	pvm_notify(PvmTaskExit, CRASH_TAG_EXIT, nw, tids);
	for (i = 0; i < nw; i++) {
		int msg[4] = {i, victim, delay, segv};

		pvm_initsend(PvmDataDefault);
		pvm_pkint(msg, 4, 1);
		pvm_send(tids[i], CRASH_TAG_WORK);
	}
	for (i = 0; i < nw; i++)
		pvm_recv(-1, CRASH_TAG_REPLY);
	pvm_initsend(PvmDataDefault);
	pvm_send(tids[victim], CRASH_TAG_PING);
	if (pvm_recv(tids[victim], CRASH_TAG_LAST) < 0)
		goto out;
	pvm_initsend(PvmDataDefault);
	pvm_send(tids[victim], CRASH_TAG_ACK);
	/* The victim's exit notice says it is gone; only then are the others let go. */
	for (;;) {
		int who = 0;

		if (pvm_recv(-1, CRASH_TAG_EXIT) < 0)
			goto out;
		pvm_upkint(&who, 1, 1);
		if (who == tids[victim])
			break;
	}
	for (i = 0; i < nw; i++) {
		if (i == victim)
			continue;
		pvm_initsend(PvmDataDefault);
		pvm_send(tids[i], CRASH_TAG_FINISH);
	}
	for (i = 0; i < nw - 1; i++) {
		if (pvm_recv(-1, CRASH_TAG_DONE) < 0)
			goto out;
		finished++;
	}
	printf("crash: worker %d killed, %d workers finished\n", victim, finished);
	rc = 0;
out:
	free(tids);
	pvm_exit();
	return rc;
}
