/* Private to the pvmmon command: `pvmmon top`'s own history of each task's computing share. */
#ifndef PVMMON_CLI_TOPHIST_H
#define PVMMON_CLI_TOPHIST_H

#include "pvmmon/log.h"

/* Samples kept per task: as many as the sparkline of `pvmmon top` shows. */
#define TOPHIST_N 16

typedef struct cli_tophist cli_tophist;

/* A new, empty history into *out (the caller frees it with cli__tophist_free()). */
int cli__tophist_new(cli_tophist **out);

/*
 * Takes the figures of snap (a snapshot of the running program) as the next sample of
 * each task whose records advanced since the last: its share of time computing since
 * then (virtual time less the time in communication statements, over the real time
 * between its flushes). When snap carries no time histograms of its own (a monitor
 * without them), gives each task a compute histogram made of its last TOPHIST_N samples
 * (one bucket each, 1 s wide nominally, real axis), which `pvmmon top` draws as its
 * sparkline. Returns 0 or PVMMON_ENOMEM.
 */
int cli__tophist_add(cli_tophist *h, pvmmon_log *snap);

void cli__tophist_free(cli_tophist *h);

#endif
