/*
 * Sends one message by each send path and encoding PVM has: pvm_send of a
 * PvmDataDefault, a PvmDataRaw and a PvmDataInPlace buffer, pvm_psend, and pvm_mcast,
 * each with its own tag and size, from a master to workers (this program with
 * "worker"), which receive them with pvm_recv and pvm_precv and print what came. The
 * log must count each message's bytes alike at both ends.
 */
#include <stdio.h>
#include <string.h>

#include <pvm3.h>

#define NWORKERS 2
#define TAG_DEFAULT 71
#define TAG_RAW 72
#define TAG_INPLACE 73
#define TAG_PSEND 74
#define TAG_MCAST 75
#define NBYTES 1000
#define NINTS 300

static char data[NBYTES];
static int ints[NINTS];

static int received(int bufid)
{
	int bytes = -1, tag, src;

	pvm_bufinfo(bufid, &bytes, &tag, &src);
	return bytes;
}

static int worker(void)
{
	int parent = pvm_parent(), rtid, rtag, rlen, me = 0, b, tids[NWORKERS];

	/* Each worker finds its number among the tids of the mcast. */
	pvm_recv(parent, TAG_MCAST);
	pvm_upkint(tids, NWORKERS, 1);
	while (me < NWORKERS - 1 && tids[me] != pvm_mytid())
		me++;
	printf("worker %d mcast %d\n", me, received(pvm_getrbuf()));
	if (me == 0) {
		b = pvm_recv(parent, TAG_DEFAULT);
		printf("default %d\n", received(b));
		b = pvm_recv(parent, TAG_RAW);
		printf("raw %d\n", received(b));
		b = pvm_recv(parent, TAG_INPLACE);
		printf("inplace %d\n", received(b));
		pvm_precv(parent, TAG_PSEND, ints, NINTS, PVM_INT, &rtid, &rtag, &rlen);
		printf("psend %d\n", rlen);
	}
	pvm_exit();
	return 0;
}

static void send_bytes(int enc, int to, int tag)
{
	pvm_initsend(enc);
	pvm_pkbyte(data, NBYTES, 1);
	pvm_send(to, tag);
}

int main(int argc, char **argv)
{
	int tids[NWORKERS], me = 0;

	if (pvm_mytid() < 0)
		return 1;
	if (argc > 1 && !strcmp(argv[1], "worker"))
		return worker();
	if (pvm_spawn(argv[0], (char *[]){"worker", NULL}, PvmTaskDefault, "", NWORKERS, tids) !=
	    NWORKERS) {
		fprintf(stderr, "sendall: cannot spawn its workers\n");
		pvm_exit();
		return 1;
	}
	memset(data, 7, sizeof(data));
	pvm_initsend(PvmDataDefault);
	pvm_pkint(tids, NWORKERS, 1);
	pvm_pkbyte(data, 100, 1);
	pvm_mcast(tids, NWORKERS, TAG_MCAST);
	send_bytes(PvmDataDefault, tids[me], TAG_DEFAULT);
	send_bytes(PvmDataRaw, tids[me], TAG_RAW);
	send_bytes(PvmDataInPlace, tids[me], TAG_INPLACE);
	pvm_psend(tids[me], TAG_PSEND, ints, NINTS, PVM_INT);
	pvm_exit();
	return 0;
}
