/*
 * Private to libpvmhooks: the channel, the bottom layer every feature talks to the
 * monitor and to other tasks' piggybacks through. It holds libpvm3's own entry points,
 * libpvm3's message matcher around pvmmon's own receives, the monitor's address, the
 * monitored-task cache and whether the monitor has gone. It depends on no feature.
 *
 * Its traffic goes through one table of functions (hooks_channel), so that unit tests
 * put a fake in its place (channel__use) and run the features with no pvmd.
 */
#ifndef PVMMON_HOOKS_CHANNEL_H
#define PVMMON_HOOKS_CHANNEL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/time.h>

#include "../common/wire_hang.h"

/* The real PVM functions the runtime itself uses (never the wrappers). */
typedef struct hooks_real {
	int (*send)(int, int);
	int (*mcast)(int *, int, int);
	int (*recv)(int, int);
	int (*nrecv)(int, int);
	int (*trecv)(int, int, struct timeval *);
	int (*spawn)(char *, char **, int, char *, int, int *);
	int (*exit)(void);
	int (*mytid)(void);
	int (*probe)(int, int);
	int (*getcontext)(void);
	int (*setrbuf)(int);
	int (*freebuf)(int);
	int (*pstat)(int);
	/* pvmmon's own messages: libpvm3's, not checks.c's wrappers, which the program
	 * sees (under the guard they pass straight through to these). */
	int (*mkbuf)(int);
	int (*pkbyte)(char *, int, int);
	int (*upkbyte)(char *, int, int);
	int (*pkmesg)(int);
	int (*upkint)(int *, int, int);
} hooks_real;

/* libpvm3's definitions, resolved by channel__resolve (tests may point them at fakes). */
extern hooks_real hooks__pvm;

/* What the features send and receive, as one table (the real one, or a test's fake). */
typedef struct hooks_channel {
	/* A control message (len bytes with tag) to the monitor: 0, or a negative code. */
	int (*send)(int tag, const void *data, size_t len);
	/* The monitor's next message with tag within timeout_ms into *out (heap, the
	 * caller frees) and *len: 0 when one came, else a negative code. */
	int (*recv)(uint8_t **out, size_t *len, int tag, int timeout_ms);
	/* Whether tid is a monitored task (sends piggybacks). */
	int (*is_monitored)(int tid);
	/* Sends an encoded piggyback to tids (n of them) with the user's tag in the private
	 * context, leaving the user's send buffer and context as they were. */
	int (*pb_send)(const int *tids, int n, int tag, const void *data, size_t len);
	/* Takes the piggyback trailing the message just received from src with tag into
	 * buf (cap bytes) or, when larger, a heap copy in *heap; *len its size. 1 when one
	 * came, 0 when none did, a negative code when one came damaged. */
	int (*pb_take)(uint8_t **heap, size_t *len, int src, int tag, uint8_t *buf, size_t cap);
	/* Takes the next message of the private context, any source and tag, waiting up
	 * to wait_us for it (0: not at all), into *out (heap, the caller frees) and *len,
	 * with its source and tag: 1 when one came, 0 when none did, a negative code when
	 * one came that could not be read. */
	int (*take_any)(uint8_t **out, size_t *len, int *src, int *tag, long wait_us);
	/* The size of the user's current send buffer (what the next send carries). */
	int (*send_size)(void);
	/* The size, tag and source of the user's message buffer bufid; 0, or a negative
	 * code when it has none. */
	int (*buf_info)(int bufid, int *bytes, int *tag, int *src);
	/* Whether pvmd has said (without waiting) that the monitor has ended. */
	int (*monitor_ended)(void);
	/* Lists (up to max, into out) the messages queued at this task from src (-1: any
	 * source) in the program's contexts (never the private one), in queue order,
	 * taking none of them; returns how many there are (more than max when it listed
	 * only the first max). */
	int (*queued)(wire_wqueued *out, int max, int src);
} hooks_channel;

/* Looks up the next definition of a PVM function (libpvm3's), aborting with a clear
 * message if there is none: without it no wrapper can work. */
void *hooks__real(const char *name);

/* Resolves hooks__pvm and captures libpvm3's own matcher. */
void channel__resolve(void);

/* Opens the channel to the monitor (tid monitor_tid, private context ctx) for task
 * mytid; forgets what it learned before. */
void channel__open(int mytid, int monitor_tid, int ctx);
/* Asks pvmd to tell this task when the monitor ends (channel__check_lost). */
void channel__watch(void);

/* Puts ops in place of the real channel (NULL: the real one again); for unit tests. */
void channel__use(const hooks_channel *ops);

/* The monitor's tid and its private context. */
int channel__monitor_tid(void);
int channel__ctx(void);

/* The table's entries, through the channel in use (send and recv give
 * PVMMON_ENOTFOUND once the monitor has gone). */
int channel__send(int tag, const void *data, size_t len);
int channel__recv(uint8_t **out, size_t *len, int tag, int timeout_ms);
int channel__is_monitored(int tid);
int channel__pb_send(const int *tids, int n, int tag, const void *data, size_t len);
int channel__pb_take(uint8_t **heap, size_t *len, int src, int tag, uint8_t *buf, size_t cap);
int channel__take_any(uint8_t **out, size_t *len, int *src, int *tag, long wait_us);
int channel__send_size(void);
int channel__buf_info(int bufid, int *bytes, int *tag, int *src);
int channel__queued(wire_wqueued *out, int max, int src);

/* Looks (without waiting) for pvmd's word that the monitor has ended; 1 when it has
 * (the channel is then lost). */
int channel__check_lost(void);
/* channel__check_lost without the warning, for a task that ends anyway. */
int channel__check_lost_quietly(void);
/* The monitor has gone (pvmd told): warn once, go on unmonitored. */
void channel__gone(void);
/* Whether the monitor has gone: nothing more is sent to it. */
int channel__lost(void);

/*
 * libpvm3's own message matcher around pvmmon's own receives (piggybacks, commands,
 * forced receives of a replay): a matcher the program installed with pvm_recvf() must
 * not decide those. Returns the matcher to put back with hooks__matcher_restore().
 */
typedef int (*hooks_matcher)(int, int, int);
hooks_matcher hooks__matcher_default(void);
void hooks__matcher_restore(hooks_matcher m);
/* Whether the program installed its own matcher with pvm_recvf(). */
int hooks__user_matcher(void);

/* The process's name, for messages and registration. */
const char *channel__program(void);

#endif
