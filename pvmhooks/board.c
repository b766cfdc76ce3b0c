/*
 * Preserve mode's live bounds board: a file shared by the tasks of one host, one slot
 * per task, holding a lower bound of the task's virtual time that others read.
 *
 * Why a slot's bound holds (the readers' side is hooks__board_bound):
 * - A task's virtual time never goes back (vclock__stamp), so its value at any moment
 *   bounds every send it makes later, whatever it receives meanwhile.
 * - In a wrapped call the slot holds the call's start: the call may wait, and its
 *   virtual time then does not follow real time.
 * - Out of calls vt = rt - I, and the slot holds B with I < B - BOARD_HEADROOM_NS / 2
 *   at all times: vclock__intrude and the other raises call pub() before I passes
 *   pub_limit, and pub() writes the new B first. A reader that takes the real time
 *   now and then the slot gets now - B <= vt at the moment it read the slot.
 * - Messages a task sent before the reader looked are not covered by its vt now: the
 *   slot counts the task's sends (before they leave), and a reader uses the bound
 *   only while the count is the one the task's last block notice carried (it had
 *   then nothing on its way to the reader).
 * Real times are CLOCK_MONOTONIC's, which all processes of a host share; values are
 * on the monitor's clock (hooks__to_common), as the other bounds are.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "board.h"
#include "clocksync.h"
#include "pvmmon/errors.h"

#define BOARD_MAGIC 0x70766d62u /* "pvmb" */
#define BOARD_SLOTS 4096

typedef struct board_head {
	uint32_t magic;
	uint32_t openers; /* tasks that came to write the header (the first does) */
	uint32_t used;    /* slots taken so far */
	uint32_t pad0;
	/* The boot of the machine that made it: CLOCK_MONOTONIC is one machine's, so a
	 * folder another machine shares (a network file system) must not pass for it. */
	char boot[48];
} board_head;

/* This machine's boot id (all zeros where the kernel tells none). */
static void boot_id(char out[48])
{
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");

	memset(out, 0, 48);
	if (f) {
		if (!fgets(out, 48, f))
			memset(out, 0, 48);
		fclose(f);
	}
}

/* One cache line each: a task's writes do not disturb its neighbours' readers. */
typedef struct board_slot {
	int32_t tid; /* 0 until the slot is ready */
	int32_t pad0;
	int64_t word;   /* value * 2 + 1: frozen at value; value * 2: running, bound now - value */
	uint64_t sends; /* user messages and spawns so far, counted before they leave */
	uint8_t pad[40];
} board_slot;

#define BOARD_BYTES (sizeof(board_head) + BOARD_SLOTS * sizeof(board_slot))

static struct {
	board_head *head;
	board_slot *slots;
	board_slot *mine;
	vclock *clock;
	int64_t offset; /* monitor's virtual clock minus board real time, at the last write */
} bd;

int64_t hooks__board_now(void)
{
	struct timespec ts;

	/* libc's, never the program's recorded clock (common/clock.h). */
	pvmmon__clock_real(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void put(int64_t word) { __atomic_store_n(&bd.mine->word, word, __ATOMIC_RELEASE); }

/* Writes the running bound for intrusion i (>= the clock's I) and moves the promise. */
static void publish(vclock *c, int64_t i)
{
	int64_t now = hooks__board_now(), loc = pvmmon_clock_now();

	/* vt on the monitor's clock at board time now is now + offset - I. */
	bd.offset = hooks__to_common(loc) - now;
	put((i + BOARD_HEADROOM_NS - bd.offset) * 2);
	c->pub_limit = i + BOARD_HEADROOM_NS / 2;
}

int hooks__board_open(const char *path, int32_t tid, vclock *c)
{
	int fd = -1, rc = 0;
	void *m = MAP_FAILED;
	char boot[48];
	uint32_t i;

	hooks__board_close();
	if (!path || !*path)
		return PVMMON_EINVAL;
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0 || ftruncate(fd, (off_t)BOARD_BYTES) < 0) {
		rc = pvmmon_error_set(PVMMON_EIO, "%s: %s", path, strerror(errno));
		goto out;
	}
	m = mmap(NULL, BOARD_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED) {
		rc = pvmmon_error_set(PVMMON_EIO, "%s: %s", path, strerror(errno));
		goto out;
	}
	bd.head = m;
	bd.slots = (board_slot *)(bd.head + 1);
	/* The first task to come writes the header (an empty file is all zeros): the
	 * boot id before the magic that others wait for. */
	boot_id(boot);
	if (__atomic_load_n(&bd.head->magic, __ATOMIC_ACQUIRE) == 0 &&
	    __atomic_fetch_add(&bd.head->openers, 1, __ATOMIC_ACQ_REL) == 0) {
		memcpy(bd.head->boot, boot, sizeof(boot));
		__atomic_store_n(&bd.head->magic, BOARD_MAGIC, __ATOMIC_RELEASE);
	}
	for (i = 0; i < 100000 && __atomic_load_n(&bd.head->magic, __ATOMIC_ACQUIRE) == 0; i++)
		;
	if (__atomic_load_n(&bd.head->magic, __ATOMIC_ACQUIRE) != BOARD_MAGIC) {
		rc = pvmmon_error_set(PVMMON_EPARSE, "%s: not a pvmmon board", path);
		goto out;
	}
	if (memcmp(bd.head->boot, boot, sizeof(boot)) != 0) {
		rc = pvmmon_error_set(PVMMON_EINVAL, "%s: a board of another machine", path);
		goto out;
	}
	i = __atomic_fetch_add(&bd.head->used, 1, __ATOMIC_ACQ_REL);
	if (i >= BOARD_SLOTS) {
		rc = pvmmon_error_set(PVMMON_ENOMEM, "%s: all %d slots taken", path, BOARD_SLOTS);
		goto out;
	}
	bd.mine = &bd.slots[i];
	bd.clock = c;
	c->pub = publish;
	publish(c, c->intrusion);
	__atomic_store_n(&bd.mine->tid, tid, __ATOMIC_RELEASE);
out:
	if (fd >= 0)
		close(fd);
	if (rc < 0) {
		bd.mine = NULL;
		if (m != MAP_FAILED)
			munmap(m, BOARD_BYTES);
		bd.head = NULL;
		bd.slots = NULL;
	}
	return rc;
}

void hooks__board_close(void)
{
	if (bd.clock) {
		bd.clock->pub_limit = INT64_MAX;
		bd.clock->pub = NULL;
	}
	if (bd.mine)
		/* Frozen at the lowest value: a reader that cached the slot learns nothing. */
		__atomic_store_n(&bd.mine->word, (int64_t)((INT64_MIN / 4) * 2 + 1),
		                 __ATOMIC_RELEASE);
	if (bd.head)
		munmap(bd.head, BOARD_BYTES);
	memset(&bd, 0, sizeof(bd));
}

int hooks__board_on(void) { return bd.mine != NULL; }

void hooks__board_freeze(hooks_op op, int64_t v)
{
	if (!bd.mine)
		return;
	bd.clock->pub_limit = INT64_MAX;
	put(hooks__to_common(v) * 2 + 1);
	switch (op) {
	case HOOKS_OP_pvm_recv:
	case HOOKS_OP_pvm_nrecv:
	case HOOKS_OP_pvm_trecv:
	case HOOKS_OP_pvm_precv:
	case HOOKS_OP_pvm_probe:
	case HOOKS_OP_pvm_mytid:
	case HOOKS_OP_pvm_gettid:
	case HOOKS_OP_pvm_getinst:
	case HOOKS_OP_pvm_gsize:
	case HOOKS_OP_pvm_addmhf:
	case HOOKS_OP_pvm_delmhf:
		break;
	default:
		/* Counted before the call sends: a reader that finds the old count read the
		 * slot before the message left. */
		__atomic_fetch_add(&bd.mine->sends, 1, __ATOMIC_ACQ_REL);
		break;
	}
}

void hooks__board_run(void)
{
	if (bd.mine)
		publish(bd.clock, bd.clock->intrusion);
}

uint64_t hooks__board_sends(void)
{
	return bd.mine ? __atomic_load_n(&bd.mine->sends, __ATOMIC_ACQUIRE) : UINT64_MAX;
}

static board_slot *find(int32_t tid, int *slot)
{
	uint32_t n;

	if (!bd.slots || !tid)
		return NULL;
	if (*slot >= 0 && *slot < BOARD_SLOTS &&
	    __atomic_load_n(&bd.slots[*slot].tid, __ATOMIC_ACQUIRE) == tid)
		return &bd.slots[*slot];
	n = __atomic_load_n(&bd.head->used, __ATOMIC_ACQUIRE);
	for (uint32_t i = 0; i < n && i < BOARD_SLOTS; i++)
		if (__atomic_load_n(&bd.slots[i].tid, __ATOMIC_ACQUIRE) == tid) {
			*slot = (int)i;
			return &bd.slots[i];
		}
	return NULL;
}

int64_t hooks__board_bound(int32_t tid, int *slot, uint64_t sends, int64_t now, int *stale)
{
	board_slot *s = find(tid, slot);
	int64_t w;

	if (!s)
		return BOARD_NONE;
	/* The slot first, then its count: a send counted after the count was read left
	 * after the slot was read, so at or past the bound. */
	w = __atomic_load_n(&s->word, __ATOMIC_ACQUIRE);
	if (__atomic_load_n(&s->sends, __ATOMIC_ACQUIRE) != sends) {
		*stale = 1;
		return BOARD_NONE;
	}
	return (w & 1) ? (w - 1) / 2 : now - w / 2;
}

int64_t hooks__board_eta(int32_t tid, int *slot, int64_t target, int64_t now)
{
	board_slot *s = find(tid, slot);
	int64_t w, b;

	if (!s)
		return BOARD_ETA_UNKNOWN;
	w = __atomic_load_n(&s->word, __ATOMIC_ACQUIRE);
	if (w & 1)
		return BOARD_ETA_UNKNOWN;
	b = now - w / 2;
	return b >= target ? 0 : target - b;
}
