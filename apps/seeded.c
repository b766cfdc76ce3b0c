/*
 * A PVM program whose course is decided by the clock and the process id, for record
 * and replay of per-run sources: the master and each worker seed rand() from
 * gettimeofday and getpid, the workers choose the sizes, partners and tags of their
 * messages from it, receive theirs with wildcards, and the master prints a hash of all
 * that was received in the order it came. Two runs differ; a replay prints the hash of
 * its recording.
 *
 *   seeded [-w WORKERS] [-k MESSAGES]     (SEEDED_EXTRA_READ=1: read the clock once
 *                                          more at the end, a changed program;
 *                                          SEEDED_RANDOM=1: getrandom's bytes too)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/time.h>
#include <unistd.h>

#include <pvm3.h>

#define MAXW 16
#define TAG_TIDS 1
#define TAG_COUNTS 2
#define TAG_EXPECT 3
#define TAG_HASH 4
#define TAG_DATA 10 /* .. TAG_DATA + 3 */

static uint64_t mix(uint64_t h, uint64_t v) { return (h ^ v) * 0x100000001b3ULL; }

/* The seed every run picks anew: the time of day and the pid. */
static unsigned seed(void)
{
	struct timeval tv;

	unsigned r = 0;

	gettimeofday(&tv, NULL);
	/* SEEDED_RANDOM=1: random bytes from the kernel too. */
	if (getenv("SEEDED_RANDOM") && getrandom(&r, sizeof(r), 0) != (ssize_t)sizeof(r))
		r = 0;
	return (unsigned)(tv.tv_sec ^ tv.tv_usec ^ ((long)getpid() << 16)) ^ r;
}

static int index_of(const int *tids, int n, int tid)
{
	for (int i = 0; i < n; i++)
		if (tids[i] == tid)
			return i;
	return -1;
}

static int worker(void)
{
	int n, k, me, master = pvm_parent(), tids[MAXW], counts[MAXW] = {0}, expect, buf[64];
	uint64_t h = 14695981039346656037ULL;

	pvm_recv(master, TAG_TIDS);
	pvm_upkint(&n, 1, 1);
	pvm_upkint(&k, 1, 1);
	pvm_upkint(tids, n, 1);
	me = index_of(tids, n, pvm_mytid());
	srand(seed());
	/* The counts first, so that the master can tell each worker what comes. */
	int part[64], tag[64], size[64];
	for (int i = 0; i < k && i < 64; i++) {
		part[i] = n > 1 ? (me + 1 + rand() % (n - 1)) % n : me;
		tag[i] = TAG_DATA + rand() % 4;
		size[i] = 1 + rand() % 64;
		counts[part[i]]++;
	}
	pvm_initsend(PvmDataDefault);
	pvm_pkint(counts, n, 1);
	pvm_send(master, TAG_COUNTS);
	for (int i = 0; i < k && i < 64; i++) {
		for (int j = 0; j < size[i]; j++)
			buf[j] = rand();
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&size[i], 1, 1);
		pvm_pkint(buf, size[i], 1);
		pvm_send(tids[part[i]], tag[i]);
	}
	pvm_recv(master, TAG_EXPECT);
	pvm_upkint(&expect, 1, 1);
	for (int i = 0; i < expect; i++) {
		int bytes, t, src, sz;

		pvm_bufinfo(pvm_recv(-1, -1), &bytes, &t, &src);
		pvm_upkint(&sz, 1, 1);
		pvm_upkint(buf, sz, 1);
		h = mix(mix(mix(h, (uint64_t)index_of(tids, n, src)), (uint64_t)t), (uint64_t)sz);
		for (int j = 0; j < sz; j++)
			h = mix(h, (uint32_t)buf[j]);
	}
	pvm_initsend(PvmDataDefault);
	pvm_pkulong((unsigned long *)&h, 1, 1);
	pvm_send(master, TAG_HASH);
	pvm_exit();
	return 0;
}

int main(int argc, char **argv)
{
	int nw = 3, k = 8, tids[MAXW], counts[MAXW], expect[MAXW] = {0}, opt;
	uint64_t h = 14695981039346656037ULL;
	/* Read before the first PVM call, as programs that seed at the top of main do. */
	unsigned s = seed();

	if (pvm_parent() > 0)
		return worker();
	while ((opt = getopt(argc, argv, "w:k:")) != -1) {
		if (opt == 'w')
			nw = atoi(optarg);
		else if (opt == 'k')
			k = atoi(optarg);
		else
			return 2;
	}
	if (nw < 1 || nw > MAXW || k < 1 || k > 64)
		return 2;
	srand(s);
	if (pvm_spawn("seeded", NULL, PvmTaskDefault, "", nw, tids) != nw) {
		fprintf(stderr, "seeded: cannot spawn the workers\n");
		pvm_exit();
		return 1;
	}
	for (int i = 0; i < nw; i++) {
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&nw, 1, 1);
		pvm_pkint(&k, 1, 1);
		pvm_pkint(tids, nw, 1);
		pvm_send(tids[i], TAG_TIDS);
	}
	for (int i = 0; i < nw; i++) {
		int bytes, t, src;

		pvm_bufinfo(pvm_recv(-1, TAG_COUNTS), &bytes, &t, &src);
		pvm_upkint(counts, nw, 1);
		h = mix(h, (uint64_t)index_of(tids, nw, src));
		for (int j = 0; j < nw; j++)
			expect[j] += counts[j];
	}
	for (int i = 0; i < nw; i++) {
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&expect[i], 1, 1);
		pvm_send(tids[i], TAG_EXPECT);
	}
	for (int i = 0; i < nw; i++) {
		unsigned long wh;
		int bytes, t, src;

		pvm_bufinfo(pvm_recv(-1, TAG_HASH), &bytes, &t, &src);
		pvm_upkulong(&wh, 1, 1);
		h = mix(mix(h, (uint64_t)index_of(tids, nw, src)), wh);
	}
	h = mix(h, (uint64_t)rand());
	if (getenv("SEEDED_EXTRA_READ"))
		h = mix(h, seed());
	printf("seeded: workers=%d messages=%d hash=%016llx\n", nw, k, (unsigned long long)h);
	pvm_exit();
	return 0;
}
