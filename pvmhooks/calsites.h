/*
 * Private to libpvmhooks: the code calibration times in place (pvmhooks/calsites.c):
 * an instrumented procedure with a loop, called from an instrumented loop, as
 * pvmmon-cc writes them (split into a dispatcher, an instrumented and a plain copy:
 * instrument/plain.h; the plain copy that an unwatched process runs is the plain
 * code), and the same code plain.
 */
#ifndef PVMMON_HOOKS_CALSITES_H
#define PVMMON_HOOKS_CALSITES_H

#include "pvmmon/probe.h"

/* The four sites of the instrumented code: the caller's procedure and loop, the
 * callee's procedure and loop (i from 0 to CALSITES_N - 1). Marked seen, so no rule
 * ever applies to them. They are static in calsites.c, as pvmmon-cc's sites are in a
 * program, so that the code reaches them as a program's code does. */
#define CALSITES_N 4
pvmmon_probe_site *calsites__site(int i);

/* As pvmmon-cc's per-file pvmmon_unwatched_, which each dispatcher tests first: 0 in
 * a task that calibrates (it is monitored). A variable, so that the dispatchers load
 * and test it as a program's do. */
extern int calsites__unwatched;

/* n calls of the callee, whose loop runs CALSITES_WORK steps (about 40 ns of work, the
 * size of procedure whose instrumentation costs most): plain, and instrumented
 * (the sites' enabled flags say whether the probes run). Both return a checksum,
 * equal for equal seeds, so neither call can be left out by the compiler. */
#define CALSITES_WORK 40
unsigned calsites__plain(unsigned seed, long n);
unsigned calsites__probed(unsigned seed, long n);

#endif
