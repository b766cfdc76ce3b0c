/*
 * Messages taken in the wrong order, for the wait analysis: a master receives its two
 * workers' results by name, worker 1's first, while worker 0, which sends at once, had
 * its result there long before worker 1 (MS ms of work, asleep) sends: the master's
 * first wait is a late sender in the wrong order, its second none.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <pvm3.h>

#include "apputil.h"

#define TAG_GO 81
#define TAG_RESULT 82

static int worker(int k)
{
	int parent = pvm_parent(), ms = 0;

	pvm_recv(parent, TAG_GO);
	pvm_upkint(&ms, 1, 1);
	if (k == 1) {
		struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};

		nanosleep(&ts, NULL);
	}
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&k, 1, 1);
	pvm_send(parent, TAG_RESULT);
	pvm_exit();
	return 0;
}

int main(int argc, char **argv)
{
	int tids[2], ms = 20, opt, got[2];
	char *wargv[3], kbuf[16];

	if (argc == 3 && !strcmp(argv[1], "worker"))
		return worker(atoi(argv[2]));
	while ((opt = getopt(argc, argv, "m:h")) != -1) {
		if (opt == 'm') {
			ms = (int)apputil_parse_num("worder", optarg, "-m (worker 1's ms)", 0, 100000);
			continue;
		}
		fprintf(opt == 'h' ? stdout : stderr,
		        "usage: worder [-m MS]\nA master takes worker 1's result (after MS ms, "
		        "default 20) before worker 0's (at once).\n");
		return opt == 'h' ? 0 : 2;
	}
	if (pvm_mytid() < 0)
		return 1;
	for (int k = 0; k < 2; k++) {
		snprintf(kbuf, sizeof(kbuf), "%d", k);
		wargv[0] = "worker";
		wargv[1] = kbuf;
		wargv[2] = NULL;
		if (pvm_spawn(argv[0], wargv, PvmTaskDefault, NULL, 1, &tids[k]) != 1) {
			fprintf(stderr, "worder: cannot spawn worker %d\n", k);
			pvm_exit();
			return 1;
		}
	}
	for (int k = 0; k < 2; k++) {
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&ms, 1, 1);
		pvm_send(tids[k], TAG_GO);
	}
	pvm_recv(tids[1], TAG_RESULT);
	pvm_upkint(&got[1], 1, 1);
	pvm_recv(tids[0], TAG_RESULT);
	pvm_upkint(&got[0], 1, 1);
	printf("worder: results %d %d\n", got[0], got[1]);
	pvm_exit();
	return 0;
}
