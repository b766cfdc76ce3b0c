/* Private to libpvmhooks: whom this task may address, for preserve mode's knowledge
 * rule (pvmhooks/reach.c, monitor/prknow.c). */
#ifndef PVMMON_HOOKS_REACH_H
#define PVMMON_HOOKS_REACH_H

#include <stddef.h>
#include <stdint.h>

/* Starts following it (preserve mode), afresh: this task's tid and its parent's; with
 * imports, the loaded objects are looked at for calls that list tids (pvm_tasks,
 * pvm_siblings, groups, the mailbox). */
void hooks__reach_start(int32_t self, int32_t parent, int imports);
/* Whether it is followed (then the pack and unpack wrappers call the functions below). */
int hooks__reach_on(void);
/* It learned tid (its parent, a child, a message's source). */
void hooks__reach_learn(int32_t tid);
/* It may have learned every tid (a message from an unmonitored sender). */
void hooks__reach_all(void);
/* n items of PVM type type at p, stride items apart, packed (unpack 0: their tids
 * teach, unless caller, the pack call's return address, is in PVM's own libraries) or
 * unpacked (1: one that may be a tid says the task may address tids from data, and
 * its sends surprise no more). */
void hooks__reach_data(int type, const void *p, int n, int stride, int unpack,
                       const void *caller);
/* A string packed or unpacked, or a spawn's argument: numbers in it read as tids. */
void hooks__reach_str(const char *s, int unpack, const void *caller);
/* What it packs cannot be followed (pvm_packf, pvm_pkmesg): it may teach. */
void hooks__reach_opaque(void);
/* It sends to tid: a tid it was not seen to learn is a surprise. */
void hooks__reach_sending(int32_t tid);
/* It took a message that a relay may have made earlier than one it took before. */
void hooks__reach_misorder(void);
/* The wire_pw_reach bits so far. */
uint8_t hooks__reach_bits(void);

#endif
