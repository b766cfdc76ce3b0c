/*
 * Private to the pvmhooks unit tests: a fake channel (pvmhooks/channel.h) that keeps
 * what the features send and hands them what a test queued, with no pvmd.
 */
#ifndef PVMMON_TESTS_FAKE_CHANNEL_H
#define PVMMON_TESTS_FAKE_CHANNEL_H

#include <stddef.h>
#include <stdint.h>

#include "../../../pvmhooks/hooks.h"

#define FAKE_MAX 64

/* One message: to or from the monitor (tag), a piggyback (tids), or any message of the
 * private context (src). */
typedef struct fake_msg {
	int tag, src, ntids;
	int tids[8];
	uint8_t *data;
	size_t len;
} fake_msg;

typedef struct fake_channel {
	fake_msg sent[FAKE_MAX]; /* control messages to the monitor */
	int nsent;
	fake_msg pbs[FAKE_MAX]; /* piggybacks sent */
	int npbs;
	fake_msg inbox[FAKE_MAX]; /* from the monitor, by tag (recv) */
	int ninbox;
	fake_msg queue[FAKE_MAX]; /* trailing piggybacks, by source and tag (pb_take) */
	int nqueue;
	fake_msg any[FAKE_MAX]; /* the private context in order (take_any) */
	int nany;
	int recvs[FAKE_MAX]; /* the tags recv was asked for */
	int nrecvs;
	/* The user's send buffer's size, and the one message buffer a receive returns
	 * (id buf_id: bytes, tag and source). */
	int send_size;
	int buf_id, buf_bytes, buf_tag, buf_src;
	int monitor_ended; /* pvmd's word that the monitor has ended has come */
	int unmonitored;   /* a positive tid that is no monitored task (every other is) */
	/* The messages queued at the task in the program's contexts (queued). */
	wire_wqueued queued[4];
	int nqueued;
	/* Called when take_any finds nothing (a test's monitor answers there). */
	void (*on_idle)(struct fake_channel *f);
} fake_channel;

extern fake_channel fake;

/* Installs the fake (everything cleared) for task mytid with monitor monitor_tid; the
 * task is active. fake_end puts the real channel back and the task uninitialised. */
void fake_begin(int mytid, int monitor_tid);
void fake_end(void);

/* Queues a message: from the monitor with tag; a piggyback from src with tag; any
 * message of the private context from src with tag. */
void fake_from_monitor(int tag, const void *data, size_t len);
void fake_piggyback(int src, int tag, const void *data, size_t len);
void fake_any(int src, int tag, const void *data, size_t len);

/* The number of control messages sent with tag, and the last one. */
int fake_count_sent(int tag);
const fake_msg *fake_last_sent(int tag);

struct replay_entry;
/* Queues the monitor's REPLAYDATA for this task: no flags, no stop, the senders' logical
 * ids and the entries encoded as a record stream. */
void fake_replaydata(char **senders, uint32_t nsenders, const struct replay_entry *e, int n);

#endif
