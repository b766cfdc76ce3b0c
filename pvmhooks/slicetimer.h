/*
 * Private to libpvmhooks: a wait slice's timeout kept by a timer instead of libpvm3's
 * timed selects (pvmhooks/slicetimer.c says why and what a program could see).
 */
#ifndef PVMMON_HOOKS_SLICETIMER_H
#define PVMMON_HOOKS_SLICETIMER_H

#include <signal.h>

/* The signal the slice's timer sends: a real-time one near the top, below the last
 * one (which valgrind keeps for itself). */
#define PVMMON_SLICE_SIGNAL (SIGRTMAX - 2)

/* Around one slice's pvm_trecv, in the thread that makes it. */
void slicetimer__begin(void);
void slicetimer__end(void);
/* Around a program's message handler run inside a slice: the handler's own calls see
 * neither the timer's signal nor a slice's select. pause returns what resume takes. */
int slicetimer__pause(void);
void slicetimer__resume(int was);

#endif
