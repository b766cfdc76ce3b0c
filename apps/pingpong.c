/* Ping-pong between two PVM tasks with the message size as a parameter. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <pvm3.h>

#include "pingpong.h"

enum recv_mode { MODE_RECV, MODE_NRECV, MODE_TRECV };

static void usage(FILE *f)
{
	fprintf(f,
		"usage: pingpong [-s SIZE] [-n ITERS] [-w WARMUP] [--sizes S1,S2,...]\n"
		"                [--direct] [--nrecv | --trecv] [--timing]\n"
		"Sends SIZE-byte messages to a pingpong-echo task and back, WARMUP+ITERS times per\n"
		"size, checking every byte (defaults: -s 8 -n 1000 -w 100).\n"
		"  --direct   task-to-task routing (PvmRouteDirect) in both tasks\n"
		"  --nrecv    poll with pvm_nrecv instead of pvm_recv\n"
		"  --trecv    receive with pvm_trecv (5 s timeout)\n"
		"  --timing   print size=S iters=N median_us=X min_us=Y per size\n"
		"  --trailer  add a bare trailing message in a private context to every\n"
		"             message (the baseline the monitor's piggyback is measured against)\n");
}

static long parse_num(const char *s, const char *what, long min, long max)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (*s == '\0' || *end != '\0' || v < min || v > max) {
		fprintf(stderr, "pingpong: %s must be an integer from %ld to %ld, not '%s'\n", what,
			min, max, s);
		exit(2);
	}
	return v;
}

static int receive(int tid, int tag, enum recv_mode mode)
{
	struct timeval tmout = {5, 0};
	int b;

	switch (mode) {
	case MODE_NRECV:
		while ((b = pvm_nrecv(tid, tag)) == 0)
			;
		return b;
	case MODE_TRECV:
		b = pvm_trecv(tid, tag, &tmout);
		return b == 0 ? -1 : b;
	default:
		return pvm_recv(tid, tag);
	}
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* Runs warmup+iters round trips of size bytes; returns 0 when every byte came back. */
static int run_size(int echo, long size, long iters, long warmup, enum recv_mode mode,
		    int timing, int ctx)
{
	char *out = malloc(size ? size : 1), *in = malloc(size ? size : 1);
	int64_t *rt = calloc(iters ? iters : 1, sizeof(int64_t));
	long k, i;
	int rc = -1;

	if (!out || !in || !rt) {
		fprintf(stderr, "pingpong: out of memory for %ld bytes\n", size);
		goto out;
	}
	for (k = 0; k < warmup + iters; k++) {
		int64_t t0;

		for (i = 0; i < size; i++)
			out[i] = pingpong_byte(i, k);
		t0 = now_ns();
		pvm_initsend(PvmDataRaw);
		pvm_pkbyte(out, (int)size, 1);
		if (pvm_send(echo, PINGPONG_TAG_PING) < 0) {
			fprintf(stderr, "pingpong: round trip %ld of %ld bytes failed\n", k, size);
			goto out;
		}
		pingpong_trailer_send(ctx, echo, PINGPONG_TAG_PING);
		if (receive(echo, PINGPONG_TAG_PONG, mode) < 0) {
			fprintf(stderr, "pingpong: round trip %ld of %ld bytes failed\n", k, size);
			goto out;
		}
		pvm_upkbyte(in, (int)size, 1);
		pingpong_trailer_recv(ctx, echo, PINGPONG_TAG_PONG);
		if (k >= warmup)
			rt[k - warmup] = now_ns() - t0;
		if (memcmp(in, out, size) != 0) {
			fprintf(stderr, "pingpong: round trip %ld of %ld bytes came back changed\n", k,
				size);
			goto out;
		}
	}
	printf("pingpong: %ld round trips of %ld bytes ok\n", iters, size);
	if (timing && iters > 0) {
		qsort(rt, iters, sizeof(*rt), cmp_i64);
		printf("size=%ld iters=%ld median_us=%.2f min_us=%.2f\n", size, iters,
		       (double)rt[iters / 2] / 1e3, (double)rt[0] / 1e3);
	}
	rc = 0;
out:
	free(out);
	free(in);
	free(rt);
	return rc;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"sizes", required_argument, NULL, 'S'}, {"direct", no_argument, NULL, 'd'},
	    {"nrecv", no_argument, NULL, 'N'},       {"trecv", no_argument, NULL, 'T'},
	    {"timing", no_argument, NULL, 't'},      {"help", no_argument, NULL, 'h'},
	    {"trailer", no_argument, NULL, 'R'},
	    {NULL, 0, NULL, 0}};
	long sizes[64], iters = 1000, warmup = 100;
	int nsizes = 0, direct = 0, timing = 0, trailer = 0, ctx = 0, opt, echo = 0, rc = 1, k;
	enum recv_mode mode = MODE_RECV;
	char *save = NULL, *tok, *list;

	sizes[0] = 8;
	while ((opt = getopt_long(argc, argv, "s:n:w:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 's': sizes[0] = parse_num(optarg, "-s", 0, 64L << 20); nsizes = 1; break;
		case 'n': iters = parse_num(optarg, "-n", 0, 100000000); break;
		case 'w': warmup = parse_num(optarg, "-w", 0, 100000000); break;
		case 'S':
			list = strdup(optarg);
			nsizes = 0;
			for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
				if (nsizes == 64) {
					fprintf(stderr, "pingpong: at most 64 sizes\n");
					return 2;
				}
				sizes[nsizes++] = parse_num(tok, "a size", 0, 64L << 20);
			}
			free(list);
			break;
		case 'd': direct = 1; break;
		case 'N': mode = MODE_NRECV; break;
		case 'T': mode = MODE_TRECV; break;
		case 't': timing = 1; break;
		case 'R': trailer = 1; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "pingpong: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	if (nsizes == 0)
		nsizes = 1;
	if (pvm_mytid() < 0) {
		fprintf(stderr, "pingpong: cannot join PVM (is a pvmd running?)\n");
		return 1;
	}
	if (pvm_spawn("pingpong-echo", NULL, PvmTaskDefault, "", 1, &echo) != 1) {
		fprintf(stderr, "pingpong: cannot start pingpong-echo (not on the spawn path?)\n");
		goto out;
	}
	if (direct) {
		pvm_setopt(PvmRoute, PvmRouteDirect);
		pvm_initsend(PvmDataDefault);
		pvm_send(echo, PINGPONG_TAG_DIRECT);
	}
	if (trailer) {
		ctx = pvm_newcontext();
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&ctx, 1, 1);
		pvm_send(echo, PINGPONG_TAG_TRAILER);
	}
	for (k = 0; k < nsizes; k++)
		if (run_size(echo, sizes[k], iters, warmup, mode, timing, ctx) < 0)
			goto out;
	rc = 0;
out:
	if (echo > 0) {
		pvm_initsend(PvmDataDefault);
		pvm_send(echo, PINGPONG_TAG_STOP);
	}
	pvm_exit();
	return rc;
}
