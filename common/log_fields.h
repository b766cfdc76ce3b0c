/* The task record's fields as one table, made from common/log_task_fields.def. */
#ifndef PVMMON_COMMON_LOG_FIELDS_H
#define PVMMON_COMMON_LOG_FIELDS_H

#include <stddef.h>
#include <stdint.h>

#include "pvmmon/log.h"

typedef enum log_tkind {
	LOG_TK_I32,
	LOG_TK_U32,
	LOG_TK_I64,
	LOG_TK_U64,
	LOG_TK_STR,
	LOG_TK_STATUS,
	LOG_TK_SIGNAL,
	LOG_TK_CLOCK,
	LOG_TK_HAS,
} log_tkind;

typedef enum log_twhen {
	LOG_TW_ALWAYS,
	LOG_TW_ALWAYS_Q,
	LOG_TW_NONZERO,
	LOG_TW_RAW,
	LOG_TW_NEVER,
} log_twhen;

/* One line of the list (the .def file says what each column means). */
typedef struct log_tfield {
	const char *member;
	size_t off, size;
	log_tkind kind;
	unsigned wire;
	const char *xml;
	log_twhen when;
	unsigned col;
	const char *column;
	int copy;
} log_tfield;

/* The fields' indices in the list: LOG_TF_tid, ..., and how many there are. */
enum {
#define TASK_FIELD(member, kind, wire, xml, when, col, column, monitor) LOG_TF_##member,
#include "log_task_fields.def"
#undef TASK_FIELD
	LOG_TF_COUNT
};

extern const log_tfield log__task_fields[LOG_TF_COUNT];

/* The field at place pos (1 first) of the records message's task head, of the
 * export's tasks table; NULL past the last. */
const log_tfield *log__task_wire_field(unsigned pos);
const log_tfield *log__task_column(unsigned pos);

/* The field's place in a task record. */
static inline void *log__task_at(pvmmon_log_task *t, const log_tfield *f)
{
	return (char *)t + f->off;
}

static inline const void *log__task_cat(const pvmmon_log_task *t, const log_tfield *f)
{
	return (const char *)t + f->off;
}

/* A number field's value as a signed or unsigned 64-bit number (0 for strings). */
int64_t log__task_int(const pvmmon_log_task *t, const log_tfield *f);
uint64_t log__task_uint(const pvmmon_log_task *t, const log_tfield *f);

/* Whether the writer writes the field for t (its when rule). */
int log__task_written(const pvmmon_log_task *t, const log_tfield *f);

/* Copies the fields the list marks COPY (the task's own figures of a flush) from
 * fresh into rec. */
void log__task_copy(pvmmon_log_task *rec, const pvmmon_log_task *fresh);

#endif
