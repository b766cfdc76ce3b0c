/* Master of the master/worker matrix multiplication demo: C = A x B by row blocks. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pvm3.h>

#include "matmul.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: matmul [-n N] [-w WORKERS] [-i ITERATIONS] [-W WORKER_PROGRAM]\n"
		   "Multiplies two deterministic N x N matrices with WORKERS PVM tasks, ITERATIONS\n"
		   "times, and prints a checksum of the product (defaults: -n 200 -w 4 -i 1,\n"
		   "worker program matmul-worker, found on the VM's spawn path).\n");
}

static int parse_int(const char *s, const char *what, int min, int max)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (*s == '\0' || *end != '\0' || v < min || v > max) {
		fprintf(stderr, "matmul: %s must be an integer from %d to %d, not '%s'\n", what, min,
			max, s);
		exit(2);
	}
	return (int)v;
}

/* Sends every worker its block of rows of A and collects its block of C. */
static int one_iteration(int n, int nw, const int *tids, const double *a, double *c)
{
	int w;

	for (w = 0; w < nw; w++) {
		int r0 = n * w / nw, r1 = n * (w + 1) / nw;

		pvm_initsend(PvmDataDefault);
		pvm_pkint(&r0, 1, 1);
		pvm_pkint(&r1, 1, 1);
		pvm_pkdouble((double *)a + (size_t)r0 * n, (r1 - r0) * n, 1);
		if (pvm_send(tids[w], MATMUL_TAG_ROWS) < 0)
			return -1;
	}
	for (w = 0; w < nw; w++) {
		int r0, r1;

		/* Results come back in whatever order the workers finish. */
		if (pvm_recv(-1, MATMUL_TAG_RESULT) < 0)
			return -1;
		pvm_upkint(&r0, 1, 1);
		pvm_upkint(&r1, 1, 1);
		if (r0 < 0 || r1 > n || r0 > r1)
			return -1;
		pvm_upkdouble(c + (size_t)r0 * n, (r1 - r0) * n, 1);
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {{"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
	int n = 200, nw = 4, iters = 1, opt, i, started, rc = 1;
	const char *worker = "matmul-worker";
	double *a = NULL, *b = NULL, *c = NULL, sum = 0;
	int *tids = NULL;

	while ((opt = getopt_long(argc, argv, "n:w:i:W:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'n': n = parse_int(optarg, "-n", 1, 4000); break;
		case 'w': nw = parse_int(optarg, "-w", 1, 256); break;
		case 'i': iters = parse_int(optarg, "-i", 1, 1000000); break;
		case 'W': worker = optarg; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "matmul: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	if (nw > n)
		nw = n;
	if (pvm_mytid() < 0) {
		fprintf(stderr, "matmul: cannot join PVM (is a pvmd running?)\n");
		return 1;
	}
	a = malloc(sizeof(double) * n * n);
	b = malloc(sizeof(double) * n * n);
	c = calloc((size_t)n * n, sizeof(double));
	tids = calloc(nw, sizeof(int));
	if (!a || !b || !c || !tids) {
		fprintf(stderr, "matmul: out of memory\n");
		goto out;
	}
	/* Small integers keep every product exact, so the checksum is the same whatever
	 * the number of workers or the order of the results. */
	for (i = 0; i < n * n; i++) {
		a[i] = (double)((i * 7 + 3) % 11) - 5;
		b[i] = (double)((i * 5 + 1) % 13) - 6;
	}
	started = pvm_spawn((char *)worker, NULL, PvmTaskDefault, "", nw, tids);
	if (started < nw) {
		fprintf(stderr, "matmul: could only start %d of %d '%s' workers (%s)\n",
			started < 0 ? 0 : started, nw, worker,
			started > 0 ? "see the PVM log" : "not on the spawn path?");
		for (i = 0; i < (started > 0 ? started : 0); i++)
			pvm_kill(tids[i]);
		goto out;
	}
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&n, 1, 1);
	pvm_pkdouble(b, n * n, 1);
	if (pvm_mcast(tids, nw, MATMUL_TAG_B) < 0) {
		fprintf(stderr, "matmul: pvm_mcast failed\n");
		goto out;
	}
	for (i = 0; i < iters; i++)
		if (one_iteration(n, nw, tids, a, c) < 0) {
			fprintf(stderr, "matmul: message exchange failed in iteration %d\n", i + 1);
			goto out;
		}
	pvm_initsend(PvmDataDefault);
	pvm_mcast(tids, nw, MATMUL_TAG_QUIT);
	for (i = 0; i < n * n; i++)
		sum += c[i] * (double)(i % 17 + 1);
	printf("matmul: n=%d workers=%d iterations=%d checksum=%.0f\n", n, nw, iters, sum);
	rc = 0;
out:
	free(a);
	free(b);
	free(c);
	free(tids);
	pvm_exit();
	return rc;
}
