/* Message tags of the ring demo, shared by task 0 and the ring nodes. */
#ifndef PVMMON_APPS_RING_H
#define PVMMON_APPS_RING_H

#define RING_TAG_SETUP 51 /* task 0 -> node: index, tasks, rounds, units, prev and next tid */
#define RING_TAG_TOKEN 52 /* a task -> the next one: round and token value */

#endif
