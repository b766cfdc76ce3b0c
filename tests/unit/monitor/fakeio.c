/* The fake transport of the monitor's unit tests: sends are captured in order. */
#include <stdlib.h>
#include <string.h>

#include "../../../monitor/run.h"
#include "fakeio.h"

fake_msg fake_sent[FAKE_MAX];
size_t fake_nsent;
int32_t fake_notified[FAKE_MAX];
size_t fake_nnotified;
int32_t fake_killed[FAKE_MAX];
int fake_killed_sig[FAKE_MAX];
size_t fake_nkilled;

static int send_bytes(int ctx, int tid, int tag, const void *data, size_t len)
{
	fake_msg *m;

	(void)ctx;
	if (fake_nsent == FAKE_MAX)
		return -1;
	m = &fake_sent[fake_nsent++];
	m->tid = tid;
	m->tag = tag;
	m->len = len;
	m->data = malloc(len ? len : 1);
	if (len)
		memcpy(m->data, data, len);
	return 0;
}

static int notify_exit(int32_t tid)
{
	if (fake_nnotified < FAKE_MAX)
		fake_notified[fake_nnotified++] = tid;
	return 0;
}

static int kill_task(int32_t tid, int sig)
{
	if (fake_nkilled < FAKE_MAX) {
		fake_killed[fake_nkilled] = tid;
		fake_killed_sig[fake_nkilled++] = sig;
	}
	return 0;
}

static const mon_io fake_io = {send_bytes, notify_exit, kill_task, NULL};

void fake_reset(void)
{
	for (size_t i = 0; i < fake_nsent; i++)
		free(fake_sent[i].data);
	fake_nsent = 0;
	fake_nnotified = 0;
	fake_nkilled = 0;
}

void fake_run(mon_run *run, int32_t myhost)
{
	fake_reset();
	run__init(run, &fake_io);
	run->mytid = myhost | 1;
	run->myhost = myhost;
	run->token = 0x1234;
}

const fake_msg *fake_find(int tid, int tag, size_t n)
{
	for (size_t i = 0; i < fake_nsent; i++)
		if (fake_sent[i].tid == tid && fake_sent[i].tag == tag && n-- == 0)
			return &fake_sent[i];
	return NULL;
}

size_t fake_count(int tid, int tag)
{
	size_t n = 0;

	for (size_t i = 0; i < fake_nsent; i++)
		n += (tid == -1 || fake_sent[i].tid == tid) && fake_sent[i].tag == tag;
	return n;
}

void fake_done(mon_run *run)
{
	run__free(run);
	fake_reset();
}
