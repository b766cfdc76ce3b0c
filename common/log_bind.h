/* The streaming log reader's (log_read.c) shared parts: one read's state, the element
 * table's types (common/log_elems.h) and attribute binding by table (log_bind.c). */
#ifndef PVMMON_COMMON_LOG_BIND_H
#define PVMMON_COMMON_LOG_BIND_H

#include <stddef.h>
#include <stdint.h>

#include <libxml/tree.h>

#include "pvmmon/log.h"

/* One read of a log: the model being built and what the open elements need. */
typedef struct log_rd {
	const char *path; /* the name errors give */
	int empty;        /* the input has no bytes at all */
	int root_seen;    /* the root element was read */
	/* The first error the reader found itself, said at the end (see defer()). */
	int deferred, deferred_rank;
	char deferred_msg[512];
	pvmmon_log *log;
	xmlNodePtr node; /* the element being started (valid in its start handler only) */
	/* The text content of the open element whose table entry asks for it. */
	char *text;
	size_t textlen, textcap;
	/* The open element's object when its end handler needs it (a histogram). */
	void *cur;
	/* The open histogram's values are little-endian int64 in base64, not decimal. */
	int hist_b64;
	/* A replay record's attributes, checked against its text at its end. */
	uint64_t rec_bytes;
	char *rec_hash;
} log_rd;

/* How an attribute's value is stored at a field's offset. */
typedef enum log_ftype {
	LOG_F_STR,  /* char *, a copy */
	LOG_F_I64,  /* int64_t, decimal (or 0x hexadecimal) */
	LOG_F_I32,  /* int32_t, the same number cut as a cast would */
	LOG_F_U64,  /* uint64_t */
	LOG_F_U32,  /* uint32_t */
	LOG_F_DBL,  /* double */
	LOG_F_HAS,  /* int: 1 when the attribute is there, whatever its value */
	LOG_F_FN,   /* conv(value, field) */
	LOG_F_LIST, /* n int64_t in a row from off, separated by whitespace */
} log_ftype;

/* An attribute of an element and where its value goes in the object bound. One
 * attribute may fill several fields (listed once per field). */
typedef struct log_field {
	const char *name;
	log_ftype type;
	size_t off;
	int n;                                        /* LOG_F_LIST: how many numbers */
	void (*conv)(const char *value, void *field); /* LOG_F_FN */
} log_field;

/*
 * An element the model reads, found by its name and its parent's. start reads its
 * attributes (r->node is the element); end runs after its content, with r->text
 * holding its text when text is set. Either may be NULL. Elements that the table
 * does not name are still checked by the schema, and otherwise ignored.
 */
typedef struct log_elem {
	const char *parent;
	const char *name;
	int (*start)(log_rd *r);
	int (*end)(log_rd *r);
	int text;
} log_elem;

/* Stores the attributes of r->node that fields name into obj; 0 or PVMMON_ENOMEM. */
int log__bind(log_rd *r, void *obj, const log_field *fields, size_t nfields);

/* Appends a zeroed element to *arr (n elements of size bytes each, room grown by
 * doubling); NULL (error set) when out of memory. */
void *log__push(void **arr, size_t *n, size_t size);

/* Whole numbers as the schema's types write them (surrounding whitespace, a sign,
 * decimal digits; 0x hexadecimal for offsets); end (may be NULL) gets where it
 * stopped. Overflow wraps, as the schema has checked the ranges. */
uint64_t log__u64(const char *s, const char **end);
int64_t log__i64(const char *s, const char **end);

#define LOG_FIELDS(a) (a), (sizeof(a) / sizeof((a)[0]))

#endif
