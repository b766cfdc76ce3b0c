/*
 * Workers that compute different, known amounts and report to a master that receives
 * with a wildcard source: the order the master prints is the order of the workers'
 * amounts when nothing perturbs them. Used to test preserve mode (pvmmon run
 * --mode=preserve) against probe delays that slow chosen workers down. The master
 * spawns this program with "worker K"; worker K does (K+1)*STEP units of work. All
 * workers start computing together (each says it is ready, then the master sends
 * the work), so that the time processes take to start does not decide the order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <pvm3.h>

#include "apputil.h"

#define TAG_WORK 41
#define TAG_DONE 42
#define TAG_READY 43

static int64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* One unit of work: us microseconds, busy or asleep (sleeping work does not compete
 * for the processors, so that the test does not depend on how many there are). */
void work_unit(long us, int sleeping)
{
	if (sleeping) {
		struct timespec ts = {us / 1000000, (us % 1000000) * 1000};

		nanosleep(&ts, NULL);
	} else {
		int64_t end = now_us() + us;

		while (now_us() < end)
			;
	}
}

void compute(int units, long us, int sleeping)
{
	for (int i = 0; i < units; i++)
		work_unit(us, sleeping);
}

static int worker(int k)
{
	int parent = pvm_parent(), units = 0, sleeping = 0;
	long us = 0;
	int64_t t0, t1;
	int info[3];

	pvm_initsend(PvmDataDefault);
	pvm_pkint(&k, 1, 1);
	pvm_send(parent, TAG_READY);
	pvm_recv(parent, TAG_WORK);
	pvm_upkint(info, 3, 1);
	units = info[0];
	us = info[1];
	sleeping = info[2];
	t0 = now_us();
	compute(units, us, sleeping);
	t1 = now_us();
	pvm_initsend(PvmDataDefault);
	info[0] = k;
	info[1] = (int)(t1 - t0);
	pvm_pkint(info, 2, 1);
	pvm_send(parent, TAG_DONE);
	pvm_exit();
	return 0;
}

int main(int argc, char **argv)
{
	int w = 4, step = 10, sleeping = 0, opt, *tids, i, n;
	long us = 1000;
	int64_t waited = 0, t0;
	char *wargv[3], kbuf[16];
	int *order, *compute_us;

	if (argc == 3 && strcmp(argv[1], "worker") == 0)
		return worker(atoi(argv[2]));
	while ((opt = getopt(argc, argv, "w:n:u:sh")) != -1) {
		switch (opt) {
		case 'w':
			w = (int)apputil_parse_num("order", optarg, "-w (workers)", 1, 256);
			break;
		case 'n':
			step = (int)apputil_parse_num("order", optarg, "-n (units per step)", 1, 100000);
			break;
		case 'u':
			us = apputil_parse_num("order", optarg, "-u (microseconds a unit)", 1, 1000000);
			break;
		case 's':
			sleeping = 1;
			break;
		default:
			fprintf(opt == 'h' ? stdout : stderr,
				"usage: order [-w WORKERS] [-n UNITS] [-u US] [-s]\n"
				"Worker K does (K+1)*UNITS units of US microseconds of work (busy, or\n"
				"asleep with -s) and reports; the master prints the order of the reports.\n");
			return opt == 'h' ? 0 : 2;
		}
	}
	if (pvm_mytid() < 0)
		return 1;
	tids = calloc((size_t)w, sizeof(*tids));
	order = calloc((size_t)w, sizeof(*order));
	compute_us = calloc((size_t)w, sizeof(*compute_us));
	if (!tids || !order || !compute_us)
		return 1;
	for (i = 0; i < w; i++) {
		snprintf(kbuf, sizeof(kbuf), "%d", i);
		wargv[0] = "worker";
		wargv[1] = kbuf;
		wargv[2] = NULL;
		if (pvm_spawn(argv[0], wargv, PvmTaskDefault, NULL, 1, &tids[i]) != 1) {
			fprintf(stderr, "order: cannot spawn worker %d\n", i);
			pvm_exit();
			return 1;
		}
	}
	for (i = 0; i < w; i++)
		pvm_recv(tids[i], TAG_READY);
	for (i = 0; i < w; i++) {
		int info[3] = {(i + 1) * step, (int)us, sleeping};

		pvm_initsend(PvmDataDefault);
		pvm_pkint(info, 3, 1);
		pvm_send(tids[i], TAG_WORK);
	}
	for (n = 0; n < w; n++) {
		int info[2];

		t0 = now_us();
		pvm_recv(-1, TAG_DONE);
		waited += now_us() - t0;
		pvm_upkint(info, 2, 1);
		order[n] = info[0];
		if (info[0] >= 0 && info[0] < w)
			compute_us[info[0]] = info[1];
	}
	printf("order:");
	for (i = 0; i < w; i++)
		printf(" %d", order[i]);
	printf("\nwait-us: %lld\n", (long long)waited);
	for (i = 0; i < w; i++)
		printf("worker %d compute-us: %d\n", i, compute_us[i]);
	free(tids);
	free(order);
	free(compute_us);
	pvm_exit();
	return 0;
}
