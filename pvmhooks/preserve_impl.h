/* Private to pvmhooks/preserve.c and pvmhooks/prstash.c: the stash of piggybacks taken
 * off the private context ahead of their messages, the message counts per partner, and
 * the program's matcher as the stash sees it (prstash.c owns them; preserve.c reads
 * them for its reports and decisions; prstash.c calls nothing of preserve.c). */
#ifndef PVMMON_HOOKS_PRESERVE_IMPL_H
#define PVMMON_HOOKS_PRESERVE_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "tidmap.h"
#include "../common/wire_preserve.h"

/* A piggyback taken off the private context before its message was received. */
typedef struct stash_entry {
	int32_t src, tag;
	uint32_t seq;   /* the sender's sequence number for this pair */
	int64_t vs;     /* the sender's virtual send time */
	uint64_t bytes; /* the user message's size */
	uint8_t *data;  /* the encoded piggyback, for the receive that pairs it */
	size_t len;
	int64_t arrived; /* real time it was taken off the queue: when it arrived, or later */
} stash_entry;

/* A message the program's own matcher accepts, in queue order (see the spy, prstash.c). */
typedef struct spy_hit {
	int32_t src, tag;
} spy_hit;

typedef struct hooks_pr_stash {
	stash_entry *stash;
	size_t nstash, cap_stash;
	uint64_t stash_serial; /* grows with every piggyback stashed */
	/* Messages seen (stashed or received) per source, and the partners whose counts
	 * changed since the last report. */
	tidmap seen;
	/* Messages sent per destination (the sender's sequence numbers so far). */
	tidmap sent_to;
	int32_t *dirty_sent, *dirty_seen;
	size_t ndirty_sent, ndirty_seen, cap_dirty_sent, cap_dirty_seen;
	/* Per dirty_sent entry, the virtual send time (monitor's clock) of its first
	 * message since the last report. */
	int64_t *dirty_vs;
	size_t cap_dirty_vs;
	/* The receive in progress: under the program's own matcher (spy), with its own
	 * arguments for that matcher; what the matcher accepted at the last look. */
	int spy;
	int32_t usrc, utag;
	spy_hit *hits;
	size_t nhits, cap_hits;
} hooks_pr_stash;

extern hooks_pr_stash hooks__prs;

/* Messages seen from tid, and sent to it, so far. */
uint32_t hooks__pr_seen_from(int32_t tid);
uint32_t hooks__pr_sent_to_count(int32_t tid);
/* Whether this task has sent to and seen from no monitored task but tid. */
int hooks__pr_alone_with(int32_t tid);
int hooks__pr_matches(const stash_entry *e, int src, int tag);
/* The first stashed message from src with tag, NULL when none. */
const stash_entry *hooks__pr_first_of(int32_t src, int32_t tag);
/* The first stashed message matching the patterns (or the program's matcher). */
const stash_entry *hooks__pr_first_match(int src, int tag);
/* Runs the program's matcher over the queue: what it accepts, in hooks__prs.hits. */
void hooks__pr_spy_queue(void);
/* Per sender, its first queued message that matches src and tag (the program's matcher
 * under a spy): messages of one sender are taken in its order, so only the first can
 * be the next. Fills cand (room for every stashed message); returns how many. */
uint32_t hooks__pr_cands(wire_pcand *cand, int32_t src, int32_t tag);
/* Stashes the piggyback d (len bytes, heap: the stash takes it) from src with tag. */
void hooks__pr_stash_add(int src, int tag, uint8_t *d, size_t len);

#endif
