/* Worker of the Monte Carlo pi demo: asks for chunks until told to stop. */
#include <stdio.h>
#include <string.h>

#include <pvm3.h>

#include "mcpi.h"

/*
 * One chunk, as a procedure of its own so that a build with pvmmon-cc has a procedure
 * (and its probes) per chunk; noinline keeps it one in an optimized build.
 */
__attribute__((noinline)) static int do_chunk(long chunk, long samples)
{
	return (int)mcpi_chunk_hits((int)chunk, samples);
}

int main(int argc, char **argv)
{
	/* With -T (from mcpi -T) the worker reports its own elapsed time at the end: the
	 * unmonitored reference of monitoring overhead tests. With -v it says what it did. */
	int timed = 0, verbose = 0, done = 0;
	int64_t t0 = mcpi_now_ns();
	int parent = pvm_parent(), rtid, rtag, rlen;
	/* An int: PVM's default (XDR) encoding carries a long in 4 bytes only. */
	int hits = -1;
	long chunk[2];

	for (int i = 1; i < argc; i++) {
		timed |= !strcmp(argv[i], "-T");
		verbose |= !strcmp(argv[i], "-v");
	}
	if (pvm_mytid() < 0 || parent < 0) {
		fprintf(stderr, "mcpi-worker: must be spawned by mcpi\n");
		return 1;
	}
	for (;;) {
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&hits, 1, 1);
		if (pvm_send(parent, MCPI_TAG_REQUEST) < 0)
			break;
		if (pvm_precv(parent, MCPI_TAG_CHUNK, chunk, 2, PVM_LONG, &rtid, &rtag, &rlen) < 0)
			break;
		if (chunk[0] < 0)
			break;
		hits = do_chunk(chunk[0], chunk[1]);
		done++;
	}
	/* The host by its pvmd's tid: namespace hosts of one machine share a host name. */
	if (verbose) {
		printf("mcpi-worker t%x on host t%x: %d chunks\n", (unsigned)pvm_mytid(),
		       (unsigned)pvm_tidtohost(pvm_mytid()), done);
		fflush(stdout);
	}
	if (timed) {
		/* PVM's default encoding carries 32-bit integers: the time goes in us. */
		int us = (int)((mcpi_now_ns() - t0) / 1000);

		pvm_initsend(PvmDataDefault);
		pvm_pkint(&us, 1, 1);
		pvm_send(parent, MCPI_TAG_TIME);
	}
	pvm_exit();
	return 0;
}
