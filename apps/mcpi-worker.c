/* Worker of the Monte Carlo pi demo: asks for chunks until told to stop. */
#include <stdio.h>

#include <pvm3.h>

#include "mcpi.h"

int main(void)
{
	int parent = pvm_parent(), rtid, rtag, rlen;
	/* An int: PVM's default (XDR) encoding carries a long in 4 bytes only. */
	int hits = -1;
	long chunk[2];

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
		hits = (int)mcpi_chunk_hits((int)chunk[0], chunk[1]);
	}
	pvm_exit();
	return 0;
}
