/*
 * The situation of seed 000's Figure 4, where ordering by virtual time alone would
 * deadlock: P1 waits for a message from any task; P0 sends it one at virtual time 30 ms;
 * P3, earlier in virtual time, waits for P2, which waits for P1. Only after P1 has taken
 * P0's message and sent to P2 can P2 and then P3 go on, and P3's message is P1's
 * second. With -d the program deadlocks for real instead: P1 and P0 each wait for the
 * other first. The root task is P1; it spawns this program with "role N".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <pvm3.h>

#define TAG_TIDS 50
#define TAG_TO_P1 51
#define TAG_TO_P2 52
#define TAG_TO_P3 53
#define TAG_DEAD 54

static void busy_ms(int ms)
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	do
		clock_gettime(CLOCK_MONOTONIC, &b);
	while ((b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000 < ms);
}

static void send_int(int tid, int tag, int v)
{
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&v, 1, 1);
	pvm_send(tid, tag);
}

static int role(int r)
{
	int tids[4], parent = pvm_parent(), v = 0;

	if (r == 9) {
		/* -d: waits for P1 first, while P1 waits for it. */
		pvm_recv(parent, TAG_DEAD);
		send_int(parent, TAG_DEAD, 0);
		pvm_exit();
		return 0;
	}
	pvm_recv(parent, TAG_TIDS);
	pvm_upkint(tids, 4, 1);
	switch (r) {
	case 0:
		busy_ms(30);
		send_int(tids[1], TAG_TO_P1, 0);
		break;
	case 2:
		pvm_recv(tids[1], TAG_TO_P2);
		pvm_upkint(&v, 1, 1);
		send_int(tids[3], TAG_TO_P3, v);
		break;
	case 3:
		pvm_recv(tids[2], TAG_TO_P3);
		pvm_upkint(&v, 1, 1);
		send_int(tids[1], TAG_TO_P1, 3);
		break;
	}
	pvm_exit();
	return 0;
}

int main(int argc, char **argv)
{
	int tids[4], i, from, v;
	char *args[3], rbuf[8];

	if (argc == 3 && strcmp(argv[1], "role") == 0)
		return role(atoi(argv[2]));
	if (argc > 1 && strcmp(argv[1], "-d") != 0) {
		fprintf(strcmp(argv[1], "-h") ? stderr : stdout,
			"usage: fig4 [-d]\nSeed 000's Figure 4 (with -d, a real deadlock).\n");
		return strcmp(argv[1], "-h") ? 2 : 0;
	}
	tids[1] = pvm_mytid();
	if (tids[1] < 0)
		return 1;
	args[0] = "role";
	args[1] = rbuf;
	args[2] = NULL;
	if (argc > 1) {
		snprintf(rbuf, sizeof(rbuf), "9");
		if (pvm_spawn(argv[0], args, PvmTaskDefault, NULL, 1, &tids[0]) != 1)
			return 1;
		pvm_recv(tids[0], TAG_DEAD);
		send_int(tids[0], TAG_DEAD, 0);
		pvm_exit();
		return 0;
	}
	for (i = 0; i < 4; i++) {
		if (i == 1)
			continue;
		snprintf(rbuf, sizeof(rbuf), "%d", i);
		if (pvm_spawn(argv[0], args, PvmTaskDefault, NULL, 1, &tids[i]) != 1)
			return 1;
	}
	for (i = 0; i < 4; i++) {
		if (i == 1)
			continue;
		pvm_initsend(PvmDataDefault);
		pvm_pkint(tids, 4, 1);
		pvm_send(tids[i], TAG_TIDS);
	}
	pvm_recv(-1, TAG_TO_P1);
	pvm_bufinfo(pvm_getrbuf(), NULL, NULL, &from);
	printf("first from P%d\n", from == tids[0] ? 0 : from == tids[3] ? 3 : -1);
	send_int(tids[2], TAG_TO_P2, 1);
	pvm_recv(-1, TAG_TO_P1);
	pvm_upkint(&v, 1, 1);
	pvm_bufinfo(pvm_getrbuf(), NULL, NULL, &from);
	printf("second from P%d\n", from == tids[0] ? 0 : from == tids[3] ? 3 : -1);
	pvm_exit();
	return 0;
}
