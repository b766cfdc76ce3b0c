/*
 * A program whose output depends on how pvmd's exit notifications interleave with its
 * workers' results: a master spawns workers (this program with "worker"), asks
 * pvm_notify(PvmTaskExit) for them with the tag their results have, receives both
 * with a wildcard source, and prints each as "rI" (a result of worker I) or "xI" (the
 * exit of worker I, named by the tid in the notify message). Used to test record and
 * replay of notify messages, whose sender is pvmd and whose content is a tid.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pvm3.h>

#include "apputil.h"

#define TAG_GO 51
#define TAG_OUT 52

static void usage(FILE *f)
{
	fprintf(f, "usage: notify [-w WORKERS] [-n RESULTS]\n"
		   "Prints the order of the workers' results and exit notifications.\n");
}

static int worker(int n)
{
	int parent = pvm_parent(), me = 0, i;

	pvm_recv(parent, TAG_GO);
	pvm_upkint(&me, 1, 1);
	for (i = 0; i < n; i++) {
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&me, 1, 1);
		pvm_send(parent, TAG_OUT);
	}
	pvm_exit();
	return 0;
}

int main(int argc, char **argv)
{
	int nw = 3, n = 2, c, i, k, *tids;
	char out[1024] = "";

	if (argc > 2 && !strcmp(argv[1], "worker"))
		return worker(atoi(argv[2]));
	while ((c = getopt(argc, argv, "w:n:h")) != -1) {
		switch (c) {
		case 'w':
			nw = (int)apputil_parse_num("notify", optarg, "-w", 1, 9);
			break;
		case 'n':
			n = (int)apputil_parse_num("notify", optarg, "-n", 1, 30);
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	tids = calloc((size_t)nw, sizeof(*tids));
	if (!tids)
		return 1;
	{
		char num[16];
		char *args[] = {"worker", num, NULL};

		snprintf(num, sizeof(num), "%d", n);
		if (pvm_spawn("notify", args, PvmTaskDefault, "", nw, tids) != nw) {
			fprintf(stderr, "notify: cannot spawn its workers\n");
			pvm_exit();
			return 1;
		}
	}
	pvm_notify(PvmTaskExit, TAG_OUT, nw, tids);
	for (i = 0; i < nw; i++) {
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&i, 1, 1);
		pvm_send(tids[i], TAG_GO);
	}
	for (k = 0; k < nw * (n + 1); k++) {
		int src = 0, tag, bytes, v = -1, who = -1, b = pvm_recv(-1, TAG_OUT);

		if (b < 0)
			break;
		pvm_bufinfo(b, &bytes, &tag, &src);
		pvm_upkint(&v, 1, 1);
		for (i = 0; i < nw; i++)
			if (src == tids[i])
				who = v; /* a result carries its worker's index */
		if (who >= 0) {
			snprintf(out + strlen(out), sizeof(out) - strlen(out), " r%d", who);
			continue;
		}
		/* From pvmd: the exited worker's tid, which this run's tids must name. */
		for (i = 0; i < nw; i++)
			if (v == tids[i])
				who = i;
		snprintf(out + strlen(out), sizeof(out) - strlen(out), " x%c",
			 who >= 0 ? '0' + who : '?');
	}
	printf("notify:%s\n", out);
	free(tids);
	pvm_exit();
	return 0;
}
