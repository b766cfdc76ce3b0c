/* libFuzzer target for the piggyback record that trails every monitored user message. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* Receivers that are absent, typical, and the first destination of the input, so
	 * that both the lookup's hit and its miss are exercised. */
	int32_t tids[4] = {0, -1, 0x40001, 0};
	wire_piggyback pb;

	if (size >= WIRE_PB_HEADER + 4)
		tids[3] = (int32_t)((uint32_t)data[WIRE_PB_HEADER] |
				    (uint32_t)data[WIRE_PB_HEADER + 1] << 8 |
				    (uint32_t)data[WIRE_PB_HEADER + 2] << 16 |
				    (uint32_t)data[WIRE_PB_HEADER + 3] << 24);
	for (int k = 0; k < 4; k++) {
		/* A heap copy of exactly size bytes lets ASan see any read past the end. */
		uint8_t *copy = malloc(size ? size : 1);

		if (!copy)
			return 0;
		memcpy(copy, data, size);
		if (wire__piggyback_decode(&pb, copy, size, tids[k]) == 0) {
			/* What a decoder accepts must satisfy what the receiver relies on. */
			if (pb.ndests > WIRE_PB_MAX_DESTS || pb.cp.n > WIRE_CP_MAX ||
			    (pb.my_seq < -1) || pb.nsig > WIRE_PB_SIG_MAX ||
			    pb.nblame > WIRE_PB_BLAME_MAX ||
			    size != wire__piggyback_size(pb.ndests, pb.ncp) +
			                wire__piggyback_sig_size(&pb) + wire__piggyback_blame_size(&pb))
				abort();
			/* The wait summary's shares are never negative (blame.c adds them). */
			for (uint8_t i = 0; i < pb.nblame; i++)
				if (pb.blame[i].ns < 0 || pb.blame[i].inherited > 1)
					abort();
		}
		free(copy);
	}
	return 0;
}
