/* Message tags shared by the crash demo's master and workers. */
#ifndef PVMMON_APPS_CRASH_H
#define PVMMON_APPS_CRASH_H

#define CRASH_TAG_WORK 41   /* master -> worker: its index, the victim's index, delay ms,
			     * 1 to fault (SIGSEGV) rather than SIGKILL */
#define CRASH_TAG_REPLY 42  /* worker -> master: its index */
#define CRASH_TAG_PING 43   /* master -> victim: one more exchange before it dies */
#define CRASH_TAG_FINISH 44 /* master -> survivors: exit now */
#define CRASH_TAG_DONE 45   /* survivor -> master: exiting */
#define CRASH_TAG_EXIT 46   /* pvmd -> master: a worker has exited (pvm_notify) */
#define CRASH_TAG_LAST 47   /* victim -> master: its last message before it dies */
#define CRASH_TAG_ACK 48    /* master -> victim: the last message arrived */

#endif
