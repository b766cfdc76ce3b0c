/* libFuzzer target for the control messages: registration, trace, commands, mailbox,
 * tuple, preserve mode's requests, clock estimates and the monitor's answers. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Decodes a sequence of critical-path tuples the way a CPSAMPLE handler reads them. */
static void tuples(const uint8_t *data, size_t size)
{
	wire_in in;
	wire_cp cp;

	wire__in_init(&in, data, size);
	while (!in.failed && in.left) {
		wire__cp_get(&in, &cp);
		if (!in.failed && (cp.n > WIRE_CP_MAX || (!cp.on && cp.n)))
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy;
	int32_t tid;

	if (size < 1)
		return 0;
	/* The first byte picks the decoder; the rest goes, as an exact-size heap copy so
	 * that ASan sees a read past its end, to that decoder. */
	copy = malloc(size - 1 ? size - 1 : 1);
	if (!copy)
		return 0;
	memcpy(copy, data + 1, size - 1);
	switch (data[0] % 8) {
	case 0: {
		wire_register r;

		if (wire__register_decode(&r, copy, size - 1) == 0)
			wire__register_clear(&r);
		break;
	}
	case 1: {
		pvmmon_log_event *ev = NULL;
		size_t n = 0;

		if (wire__trace_decode(&tid, &ev, &n, copy, size - 1) == 0 && n && !ev)
			abort();
		free(ev);
		break;
	}
	case 2: {
		wire_ctl c;

		if (wire__ctl_decode(&c, copy, size - 1) == 0)
			free(c.procs);
		break;
	}
	case 3: {
		wire_mailbox m;

		wire__mailbox_decode(&m, copy, size - 1);
		break;
	}
	case 5: {
		wire_pwait w, again;
		wire_buf b;

		if (wire__pwait_decode(&w, copy, size - 1) == 0) {
			/* What decodes encodes again to a message that decodes the same. */
			wire__buf_init(&b);
			wire__pwait_encode(&b, &w);
			if (b.failed || wire__pwait_decode(&again, b.data, b.len) != 0 ||
			    again.nsent != w.nsent || again.nseen != w.nseen || again.ncand != w.ncand ||
			    again.kind != w.kind || again.vt != w.vt ||
			    (w.ncand && again.cand[w.ncand - 1].va != w.cand[w.ncand - 1].va))
				abort();
			wire__pwait_clear(&again);
			wire__buf_free(&b);
			wire__pwait_clear(&w);
		}
		break;
	}
	case 6: {
		wire_clock c, again;
		wire_buf b;

		if (wire__clock_decode(&c, copy, size - 1) == 0) {
			/* The monitor takes the spread and round trip as durations. */
			if (c.uncertainty < 0 || c.rtt < 0)
				abort();
			wire__buf_init(&b);
			wire__clock_encode(&b, &c);
			if (b.failed || b.len != size - 1 || wire__clock_decode(&again, b.data, b.len) != 0 ||
			    again.tid != c.tid || again.offset != c.offset ||
			    again.uncertainty != c.uncertainty || again.rtt != c.rtt ||
			    again.at != c.at || again.samples != c.samples)
				abort();
			wire__buf_free(&b);
		}
		break;
	}
	case 7: {
		wire_clockset c;

		/* Tasks take the rate into every conversion: it must be a clock's. */
		if (wire__clockset_decode(&c, copy, size - 1) == 0 &&
		    (c.uncertainty < 0 || c.keeper > 1 || c.rate_ppt > 1000000000 ||
		     c.rate_ppt < -1000000000))
			abort();
		break;
	}
	default:
		tuples(copy, size - 1);
		break;
	}
	free(copy);
	return 0;
}
