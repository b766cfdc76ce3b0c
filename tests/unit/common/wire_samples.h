/* Private to the tests: a valid encoding of every message kind, for the unit tests of
 * the protocol and the fuzzers' seeds. */
#ifndef PVMMON_TESTS_WIRE_SAMPLES_H
#define PVMMON_TESTS_WIRE_SAMPLES_H

#include "../../../common/wire.h"

/*
 * Encodes a sample message of kind (WIRE_KIND_*) into b, after resetting it. Returns 1
 * when its last field runs to the message's end (the bytes of a record chunk, replay
 * data or a snapshot: the sample leaves that field empty, so any cut is damage, but a
 * byte more is data), 0 when its length is fixed by its fields, -1 for pvmd's kinds.
 */
int wire_sample_encode(wire_buf *b, int kind);

#endif
