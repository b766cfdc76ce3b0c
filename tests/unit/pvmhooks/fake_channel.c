/* A fake channel for the pvmhooks unit tests (tests/unit/pvmhooks/fake_channel.h). */
#include <stdlib.h>
#include <string.h>

#include "../../../pvmhooks/channel.h"
#include "../../../pvmhooks/features.h"
#include "../../../common/wire_replay.h"
#include "../../../replay/replay.h"
#include "fake_channel.h"
#include "pvmmon/errors.h"

fake_channel fake;

static void keep(fake_msg *m, int tag, int src, const void *data, size_t len)
{
	memset(m, 0, sizeof(*m));
	m->tag = tag;
	m->src = src;
	m->data = malloc(len ? len : 1);
	memcpy(m->data, data, len);
	m->len = len;
}

/* Takes the first of n messages in list that matches (src and tag, -1 any): 1 and its
 * bytes (heap) moved out, or 0. */
static int take(fake_msg *list, int *n, int src, int tag, fake_msg *out)
{
	for (int i = 0; i < *n; i++) {
		if ((src != -1 && list[i].src != src) || (tag != -1 && list[i].tag != tag))
			continue;
		*out = list[i];
		memmove(&list[i], &list[i + 1], (size_t)(*n - i - 1) * sizeof(*list));
		(*n)--;
		return 1;
	}
	return 0;
}

static int f_send(int tag, const void *data, size_t len)
{
	if (fake.nsent == FAKE_MAX)
		return PVMMON_ENOMEM;
	keep(&fake.sent[fake.nsent++], tag, hooks__mytid(), data, len);
	return 0;
}

static int f_recv(uint8_t **out, size_t *len, int tag, int timeout_ms)
{
	fake_msg m;

	(void)timeout_ms;
	if (fake.nrecvs < FAKE_MAX)
		fake.recvs[fake.nrecvs++] = tag;
	if (!take(fake.inbox, &fake.ninbox, -1, tag, &m))
		return PVMMON_ETIMEOUT;
	*out = m.data;
	*len = m.len;
	return 0;
}

static int f_is_monitored(int tid) { return tid > 0 && tid != fake.unmonitored; }

static int f_pb_send(const int *tids, int n, int tag, const void *data, size_t len)
{
	fake_msg *m;

	if (fake.npbs == FAKE_MAX)
		return PVMMON_ENOMEM;
	m = &fake.pbs[fake.npbs++];
	keep(m, tag, hooks__mytid(), data, len);
	m->ntids = n < 8 ? n : 8;
	memcpy(m->tids, tids, sizeof(int) * (size_t)m->ntids);
	return 0;
}

static int f_pb_take(uint8_t **heap, size_t *len, int src, int tag, uint8_t *buf, size_t cap)
{
	fake_msg m;

	*heap = NULL;
	if (!take(fake.queue, &fake.nqueue, src, tag, &m))
		return 0;
	*len = m.len;
	if (m.len <= cap) {
		memcpy(buf, m.data, m.len);
		free(m.data);
	} else {
		*heap = m.data;
	}
	return 1;
}

static int f_take_any(uint8_t **out, size_t *len, int *src, int *tag, long wait_us)
{
	fake_msg m;

	if (!fake.nany && wait_us > 0 && fake.on_idle)
		fake.on_idle(&fake);
	if (!take(fake.any, &fake.nany, -1, -1, &m))
		return 0;
	*out = m.data;
	*len = m.len;
	*src = m.src;
	*tag = m.tag;
	return 1;
}

static int f_send_size(void) { return fake.send_size; }

static int f_buf_info(int bufid, int *bytes, int *tag, int *src)
{
	if (bufid != fake.buf_id || bufid <= 0)
		return PVMMON_EPVM;
	*bytes = fake.buf_bytes;
	*tag = fake.buf_tag;
	*src = fake.buf_src;
	return 0;
}

static int f_monitor_ended(void) { return fake.monitor_ended; }

static int f_queued(wire_wqueued *out, int max, int src)
{
	int n = 0;

	for (int i = 0; i < fake.nqueued; i++)
		if (src == -1 || fake.queued[i].src == src) {
			if (n < max)
				out[n] = fake.queued[i];
			n++;
		}
	return n;
}

static const hooks_channel fake_ops = {
    .send = f_send,
    .recv = f_recv,
    .is_monitored = f_is_monitored,
    .pb_send = f_pb_send,
    .pb_take = f_pb_take,
    .take_any = f_take_any,
    .send_size = f_send_size,
    .buf_info = f_buf_info,
    .monitor_ended = f_monitor_ended,
    .queued = f_queued,
};

static void clear(void)
{
	fake_msg *lists[] = {fake.sent, fake.pbs, fake.inbox, fake.queue, fake.any};
	int ns[] = {fake.nsent, fake.npbs, fake.ninbox, fake.nqueue, fake.nany};

	for (int k = 0; k < 5; k++)
		for (int i = 0; i < ns[k]; i++)
			free(lists[k][i].data);
	memset(&fake, 0, sizeof(fake));
}

void fake_begin(int mytid, int monitor_tid)
{
	clear();
	channel__use(&fake_ops);
	features__install();
	channel__open(mytid, monitor_tid, 1);
	hooks__set_task(mytid, 0x70ce11);
	hooks__set_state(HOOKS_ACTIVE);
}

void fake_end(void)
{
	clear();
	hooks__set_state(HOOKS_UNINIT);
	hooks__set_task(0, 0);
	channel__use(NULL);
}

void fake_from_monitor(int tag, const void *data, size_t len)
{
	keep(&fake.inbox[fake.ninbox++], tag, channel__monitor_tid(), data, len);
}

void fake_piggyback(int src, int tag, const void *data, size_t len)
{
	keep(&fake.queue[fake.nqueue++], tag, src, data, len);
}

void fake_any(int src, int tag, const void *data, size_t len)
{
	keep(&fake.any[fake.nany++], tag, src, data, len);
}

int fake_count_sent(int tag)
{
	int n = 0;

	for (int i = 0; i < fake.nsent; i++)
		n += fake.sent[i].tag == tag;
	return n;
}

const fake_msg *fake_last_sent(int tag)
{
	for (int i = fake.nsent; i-- > 0;)
		if (fake.sent[i].tag == tag)
			return &fake.sent[i];
	return NULL;
}

void fake_replaydata(char **senders, uint32_t nsenders, const replay_entry *e, int n)
{
	wire_replaydata rd = {0, 0, nsenders, senders, NULL, 0};
	replay_enc enc;
	wire_buf rec, b;

	wire__buf_init(&rec);
	replay__enc_init(&enc);
	for (int i = 0; i < n; i++)
		replay__enc_add(&enc, &e[i]);
	replay__enc_take(&enc, &rec);
	replay__enc_free(&enc);
	rd.record = rec.data;
	rd.record_len = rec.len;
	wire__buf_init(&b);
	wire__replaydata_encode(&b, &rd);
	fake_from_monitor(WIRE_TAG_REPLAYDATA, b.data, b.len);
	wire__buf_free(&b);
	wire__buf_free(&rec);
}
