/* Message tags and key range of the issort demo, shared by the master and its workers. */
#ifndef PVMMON_APPS_ISSORT_H
#define PVMMON_APPS_ISSORT_H

#define ISSORT_TAG_READY 60  /* worker -> master: started, waiting for its keys */
#define ISSORT_TAG_KEYS 61   /* master -> worker: rank units, key count, keys */
#define ISSORT_TAG_COUNTS 62 /* worker -> master: ISSORT_MAX_KEY counts and a work hash */

/* Keys are from 0 to ISSORT_MAX_KEY - 1, as in the smallest class of NAS IS (2^11). */
#define ISSORT_MAX_KEY 2048

#endif
