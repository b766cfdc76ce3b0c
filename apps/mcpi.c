/* Master of the Monte Carlo pi demo: hands out chunks on demand with wildcard receives. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include <pvm3.h>

#include "mcpi.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: mcpi [-w WORKERS] [-c CHUNKS] [-s SAMPLES_PER_CHUNK] [-T] [-v]\n"
		   "Estimates pi by Monte Carlo with WORKERS PVM tasks (mcpi-worker) that ask for\n"
		   "chunks of work (defaults: -w 4 -c 64 -s 100000).\n"
		   "-T prints the program's own times: the master's from the start to the end of\n"
		   "its main, each worker's likewise (mcpi: time master|worker I MICROSECONDS).\n"
		   "-v makes each worker print the chunks it did and its host's pvmd on its\n"
		   "standard output (which PVM sends to the master host's pvmd).\n");
}

static long parse_num(const char *s, const char *what, long min, long max)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (*s == '\0' || *end != '\0' || v < min || v > max) {
		fprintf(stderr, "mcpi: %s must be an integer from %ld to %ld, not '%s'\n", what, min,
			max, s);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {{"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
	int64_t t0 = mcpi_now_ns();
	int nw = 4, chunks = 64, next = 0, active, opt, started, i, rc = 1, timed = 0, verbose = 0;
	char *wargv[3] = {NULL, NULL, NULL};
	int nwargs = 0;
	long samples = 100000, total_hits = 0;
	int *tids = NULL;

	while ((opt = getopt_long(argc, argv, "w:c:s:Tvh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'w': nw = (int)parse_num(optarg, "-w", 1, 256); break;
		case 'c': chunks = (int)parse_num(optarg, "-c", 1, 100000000); break;
		case 's': samples = parse_num(optarg, "-s", 1, 1000000000L); break;
		case 'T': timed = 1; break;
		case 'v': verbose = 1; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "mcpi: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	if (pvm_mytid() < 0) {
		fprintf(stderr, "mcpi: cannot join PVM (is a pvmd running?)\n");
		return 1;
	}
	tids = calloc(nw, sizeof(int));
	if (!tids) {
		fprintf(stderr, "mcpi: out of memory\n");
		goto out;
	}
	if (timed)
		wargv[nwargs++] = "-T";
	if (verbose)
		wargv[nwargs++] = "-v";
	started = pvm_spawn("mcpi-worker", nwargs ? wargv : NULL, PvmTaskDefault, "", nw, tids);
	if (started < nw) {
		fprintf(stderr, "mcpi: could only start %d of %d mcpi-worker tasks\n",
			started < 0 ? 0 : started, nw);
		for (i = 0; i < (started > 0 ? started : 0); i++)
			pvm_kill(tids[i]);
		goto out;
	}
	/* Every worker asks first, then reports each chunk's hits with its next request;
	 * whoever asks first is served first, so the receive takes any source and tag. */
	active = nw;
	while (active > 0) {
		/* With -T a worker's time may come while others still work: it waits for
		 * the loop below. */
		int bufid = pvm_recv(-1, timed ? MCPI_TAG_REQUEST : -1), bytes, tag, src;
		int hits = 0;
		long reply[2];

		if (bufid < 0) {
			fprintf(stderr, "mcpi: pvm_recv failed\n");
			goto out;
		}
		pvm_bufinfo(bufid, &bytes, &tag, &src);
		if (tag != MCPI_TAG_REQUEST)
			continue;
		pvm_upkint(&hits, 1, 1);
		if (hits > 0)
			total_hits += hits;
		if (next < chunks) {
			reply[0] = next++;
			reply[1] = samples;
		} else {
			reply[0] = -1;
			reply[1] = 0;
			active--;
		}
		if (pvm_psend(src, MCPI_TAG_CHUNK, reply, 2, PVM_LONG) < 0) {
			fprintf(stderr, "mcpi: pvm_psend failed\n");
			goto out;
		}
	}
	/* Each worker's time, by its spawn index (its logical id's last part). */
	for (i = 0; timed && i < nw; i++) {
		int us = 0, bytes, tag, src, k;

		if (pvm_recv(-1, MCPI_TAG_TIME) < 0 || pvm_bufinfo(pvm_getrbuf(), &bytes, &tag, &src) < 0 ||
		    pvm_upkint(&us, 1, 1) < 0) {
			fprintf(stderr, "mcpi: no time from a worker\n");
			goto out;
		}
		for (k = 0; k < nw && tids[k] != src; k++)
			;
		printf("mcpi: time worker %d %d\n", k, us);
	}
	printf("mcpi: chunks=%d samples=%ld hits=%ld pi=%.6f\n", chunks, samples, total_hits,
	       4.0 * (double)total_hits / ((double)chunks * (double)samples));
	if (timed)
		printf("mcpi: time master %lld\n", (long long)((mcpi_now_ns() - t0) / 1000));
	rc = 0;
out:
	free(tids);
	pvm_exit();
	return rc;
}
