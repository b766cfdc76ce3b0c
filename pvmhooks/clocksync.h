/*
 * Private to libpvmhooks: this task's clock against the monitor's (doc/architecture.md,
 * "The virtual clock across hosts"): the round trips at registration, the keeper's
 * periodic resynchronisation, and the host's clock model the monitor sends back.
 */
#ifndef PVMMON_HOOKS_CLOCKSYNC_H
#define PVMMON_HOOKS_CLOCKSYNC_H

#include <stddef.h>
#include <stdint.h>

/* A first transmission estimate and this task's clock offset, right after the
 * welcome: round trips to the monitor, which answers with the host's model. 0, or a
 * negative code (the task then goes on with the clocks as they are). */
int clocksync__init(void);

/* Takes the monitor's CLOCKSET: the host's clock model from now on. 0, or a negative
 * code when it is damaged. */
int clocksync__set(const uint8_t *data, size_t len);

/* The scheduler's tick: the keeper's periodic estimate and new models. */
void clocksync__tick(int64_t now);

/* Times that cross hosts (piggybacks) travel on the monitor's clock: a sender adds
 * its host's offset, the receiver takes its own off. On one host the two cancel. */
int64_t hooks__to_common(int64_t t);
int64_t hooks__from_common(int64_t t);

#endif
