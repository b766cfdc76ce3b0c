/* libFuzzer target for the flush of a task's records (statements, procs, loops, statics,
 * call-path samples, the online wait analysis's table), whole or a delta. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "../../common/wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	pvmmon_log_task t, again;
	wire_records_delta d;
	int final = 0;
	wire_buf b;

	if (wire__records_decode_delta(&t, &final, &d, data, size) != 0)
		return 0;
	/* A delta's records each have their index, ascending and within the task's counts,
	 * which bound what the monitor's arrays grow to. */
	if (d.delta) {
		if (d.npidx != t.nprocs || d.nlidx != t.nloops || d.nprocs > WIRE_MAX_ITEMS ||
		    d.nloops > WIRE_MAX_ITEMS)
			abort();
		for (size_t i = 0; i < d.npidx; i++)
			if (d.pidx[i] >= d.nprocs || (i && d.pidx[i] <= d.pidx[i - 1]))
				abort();
		for (size_t i = 0; i < d.nlidx; i++)
			if (d.lidx[i] >= d.nloops || (i && d.lidx[i] <= d.lidx[i - 1]))
				abort();
	}
	wire__records_delta_clear(&d);
	/* What was accepted must encode into a message that is accepted again with the
	 * same shape: the monitor re-sends nothing, but the log writer trusts the model. */
	wire__buf_init(&b);
	wire__records_encode(&b, &t, final);
	if (!b.failed) {
		if (wire__records_decode(&again, &final, b.data, b.len) != 0 ||
		    again.nstmts != t.nstmts || again.nprocs != t.nprocs ||
		    again.nloops != t.nloops || again.nstatics != t.nstatics ||
		    !again.samples != !t.samples ||
		    (t.samples && again.samples->nnodes != t.samples->nnodes) ||
		    again.nblames != t.nblames)
			abort();
		wire__task_clear(&again);
	}
	wire__buf_free(&b);
	wire__task_clear(&t);
	return 0;
}
