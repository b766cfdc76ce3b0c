/* Private to the graphs unit tests: a small JSON reader, enough to check a document's structure. */
#ifndef PVMMON_TESTS_UNIT_GRAPHS_JSONMINI_H
#define PVMMON_TESTS_UNIT_GRAPHS_JSONMINI_H

#include <stddef.h>

typedef enum jm_type { JM_NULL, JM_BOOL, JM_NUM, JM_STR, JM_ARR, JM_OBJ } jm_type;

/* A JSON value: a number or boolean in num, a string in str, an array's or object's
 * members in kids (an object's with their names in key, in document order). */
typedef struct jm {
	jm_type type;
	double num;
	char *str;
	char *key;
	size_t n;
	struct jm *kids;
} jm;

/* The value text holds (all of it, RFC 8259 grammar; \u escapes beyond ASCII read as
 * '?'), or NULL when it is no JSON. The caller frees it with jm_free(). */
jm *jm_parse(const char *text);
void jm_free(jm *v);

/* Object o's member named key, or NULL (also when o is no object). */
const jm *jm_get(const jm *o, const char *key);

/* The string of o's member key, or NULL when it is none or no string. */
const char *jm_str(const jm *o, const char *key);

#endif
