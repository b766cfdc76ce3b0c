/*
 * A PVM program that exercises what message pairing must survive: interleaved tags
 * received out of tag order, specific and wildcard receives from several senders,
 * probe, mcast, and the user packing and unpacking around receives. It checks every
 * value and prints one line; run as "pbcheck" it spawns copies of itself as workers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pvm3.h>

#define TAG_A 101
#define TAG_B 102
#define TAG_GO 103
#define TAG_DONE 104
#define MAGIC1 0x5eed
#define MAGIC2 0xfeed

static int fail(const char *what)
{
	fprintf(stderr, "pbcheck: %s\n", what);
	return 1;
}

/* A worker sends n messages per tag, alternating tags, then waits for the mcast. */
static int worker(int n)
{
	int parent = pvm_parent(), me = -1, k, v[4];

	if (pvm_recv(parent, TAG_GO) < 0)
		return fail("worker: no start message");
	pvm_upkint(&me, 1, 1);
	for (k = 0; k < 2 * n; k++) {
		v[0] = me;
		v[1] = k / 2;
		v[2] = k % 2 ? TAG_B : TAG_A;
		v[3] = v[1] * 1000 + me;
		pvm_initsend(PvmDataDefault);
		pvm_pkint(v, 4, 1);
		if (pvm_send(parent, v[2]) < 0)
			return fail("worker: send failed");
	}
	if (pvm_recv(parent, TAG_DONE) < 0)
		return fail("worker: no final message");
	pvm_upkint(v, 2, 1);
	if (v[0] != MAGIC1 || v[1] != MAGIC2)
		return fail("worker: final message damaged");
	return 0;
}

/* Checks one message's values: per sender and tag, messages arrive in sending order. */
static int verify(const int *v, int tag, int want_tag, int *next, int nw)
{
	if (tag != want_tag || v[2] != tag || v[0] < 0 || v[0] >= nw)
		return -1;
	if (v[1] != next[v[0]] || v[3] != v[1] * 1000 + v[0])
		return -1;
	next[v[0]]++;
	return 0;
}

static int check(int bufid, int want_tag, int *next, int nw)
{
	int v[4], bytes, tag, src;

	if (bufid <= 0)
		return -1;
	pvm_bufinfo(bufid, &bytes, &tag, &src);
	pvm_upkint(v, 4, 1);
	return verify(v, tag, want_tag, next, nw);
}

/*
 * Receives two tag-A messages, but unpacks the first in two halves with the second
 * receive in between (its buffer set aside with pvm_setrbuf): the user's receive
 * buffers must survive the monitoring traffic of a receive.
 */
static int split_pair(int *next, int nw)
{
	int v[4], w[4], bytes, tag1, tag2, src, first, second;

	first = pvm_recv(-1, TAG_A);
	if (first <= 0)
		return -1;
	pvm_bufinfo(first, &bytes, &tag1, &src);
	pvm_upkint(v, 2, 1);
	pvm_setrbuf(0);
	second = pvm_recv(-1, TAG_A);
	if (second <= 0)
		return -1;
	pvm_bufinfo(second, &bytes, &tag2, &src);
	pvm_upkint(w, 4, 1);
	pvm_freebuf(pvm_setrbuf(first));
	pvm_upkint(v + 2, 2, 1);
	return verify(v, tag1, TAG_A, next, nw) < 0 || verify(w, tag2, TAG_A, next, nw) < 0 ? -1 : 0;
}

static int master(int nw, int n)
{
	int *tids = calloc(nw, sizeof(int)), nexta[64] = {0}, nextb[64] = {0};
	int i, k, magic = MAGIC1;
	char count[16];

	/* The workers send as many as the master receives (none left unreceived). */
	snprintf(count, sizeof(count), "%d", n);
	if (!tids || pvm_spawn("pbcheck", (char *[]){"-worker", count, NULL}, PvmTaskDefault, "",
			       nw, tids) != nw)
		return fail("cannot start the workers");
	for (i = 0; i < nw; i++) {
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&i, 1, 1);
		pvm_send(tids[i], TAG_GO);
	}
	/* The final message is half packed before all the receives and finished after:
	 * monitoring traffic in between must not touch the user's send buffer. */
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&magic, 1, 1);
	/* All of tag B first, sender by sender, although A and B were interleaved. */
	for (i = 0; i < nw; i++)
		for (k = 0; k < n; k++)
			if (check(pvm_recv(tids[i], TAG_B), TAG_B, nextb, nw) < 0)
				return fail("tag B out of order or damaged");
	/* Then tag A from anyone: a split pair first, then probe and receive. */
	if (nw * n >= 2 && split_pair(nexta, nw) < 0)
		return fail("tag A pair damaged around a receive");
	for (k = nw * n >= 2 ? 2 : 0; k < nw * n; k++) {
		while (pvm_probe(-1, TAG_A) == 0)
			;
		if (check(pvm_recv(-1, TAG_A), TAG_A, nexta, nw) < 0)
			return fail("tag A out of order or damaged");
	}
	magic = MAGIC2;
	pvm_pkint(&magic, 1, 1);
	if (pvm_mcast(tids, nw, TAG_DONE) < 0)
		return fail("mcast failed");
	printf("pbcheck: ok, %d workers x %d messages of 2 tags\n", nw, n);
	free(tids);
	return 0;
}

int main(int argc, char **argv)
{
	int rc, n = 50, nw = 3;

	if (argc > 1 && !strcmp(argv[1], "--help")) {
		printf("usage: pbcheck [WORKERS [MESSAGES]]\nChecks message order and buffers "
		       "across tags, senders, probe and mcast (defaults: 3 50).\n");
		return 0;
	}
	if (pvm_mytid() < 0)
		return fail("cannot join PVM (is a pvmd running?)");
	if (argc > 1 && !strcmp(argv[1], "-worker")) {
		if (argc > 2)
			n = atoi(argv[2]);
		rc = worker(n > 0 ? n : 50);
	} else {
		if (argc > 1)
			nw = atoi(argv[1]);
		if (argc > 2)
			n = atoi(argv[2]);
		if (nw < 1 || nw > 64 || n < 1) {
			pvm_exit();
			return fail("WORKERS must be 1..64 and MESSAGES at least 1");
		}
		rc = master(nw, n);
	}
	pvm_exit();
	return rc;
}
