/*
 * What a flush of call-path samples costs a task (pvmhooks/sampletree.c, sampler.c):
 * the tree exported as the log holds it, each node's module and offset found as the
 * sampler does (sampletree__where), and the records message encoded with it, for trees of
 * several sizes up to the sampler's bound (8192 nodes). Every flush sends the whole
 * tree. Usage: sampleflush [REPS]; prints the median per flush.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../common/wire.h"
#include "../pvmhooks/sampletree.h"

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* A tree of about n nodes: paths of 8 frames below a common main, addresses in libc
 * (where dladdr has real work), each path's last three frames its own. */
static void fill(stree *t, uint32_t n)
{
	uintptr_t base = (uintptr_t)&printf, pcs[8];

	for (uint32_t k = 0; t->used < n + 1 && k < 100000; k++) {
		for (int d = 0; d < 8; d++)
			pcs[7 - d] = base + 16 * (d < 5 ? (uintptr_t)(d * 7 + k % 5) : k * 8 + d);
		sampletree__add(t, pcs, 8, PVMMON_SAMPLE_COMPUTE, 1);
	}
}

int main(int argc, char **argv)
{
	int reps = argc > 1 ? atoi(argv[1]) : 21;
	static const uint32_t sizes[] = {100, 1000, 8192};
	double *ex = calloc((size_t)reps, sizeof(double)), *en = calloc((size_t)reps, sizeof(double));

	if (!ex || !en || reps < 1)
		return 1;
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		stree t;
		size_t bytes = 0;

		if (sampletree__init(&t, 8192) != 0)
			return 1;
		fill(&t, sizes[s]);
		for (int r = 0; r < reps; r++) {
			sampletree__modules_clear();
			pvmmon_log_task task = {0};
			pvmmon_log_samples *x;
			wire_buf b;
			double a = now_us(), m, e;

			x = sampletree__export(&t, 199, sampletree__where);
			m = now_us();
			task.samples = x;
			wire__buf_init(&b);
			wire__records_encode(&b, &task, 0);
			e = now_us();
			bytes = b.len;
			wire__buf_free(&b);
			pvmmon_log_samples_free(x);
			ex[r] = m - a;
			en[r] = e - m;
		}
		qsort(ex, (size_t)reps, sizeof(double), cmp);
		qsort(en, (size_t)reps, sizeof(double), cmp);
		printf("nodes %u: export %.0f us, encode %.0f us, message %zu bytes\n", t.used - 1,
		       ex[reps / 2], en[reps / 2], bytes);
		sampletree__free(&t);
	}
	free(ex);
	free(en);
	return 0;
}
