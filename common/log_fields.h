/* The task and statement records' fields as tables, made from the one list of each
 * (common/log_task_fields.def, common/log_stmt_fields.def), and what their users share. */
#ifndef PVMMON_COMMON_LOG_FIELDS_H
#define PVMMON_COMMON_LOG_FIELDS_H

#include <stddef.h>
#include <stdint.h>

#include "pvmmon/log.h"

/* A field's kind (the lists say what each means). */
typedef enum log_fkind {
	LOG_FK_I32,
	LOG_FK_U32,
	LOG_FK_I64,
	LOG_FK_U64,
	LOG_FK_HEX64,
	LOG_FK_STR,
	LOG_FK_STATUS,
	LOG_FK_SIGNAL,
	LOG_FK_CLOCK,
	LOG_FK_HAS,
	LOG_FK_OFF,
} log_fkind;

/* When the writer writes a field. */
typedef enum log_fwhen {
	LOG_FW_ALWAYS,
	LOG_FW_ALWAYS_Q,
	LOG_FW_ALWAYS_UNKNOWN,
	LOG_FW_NONZERO,
	LOG_FW_RAW,
	LOG_FW_NEVER,
} log_fwhen;

/* One line of a list. */
typedef struct log_field_desc {
	const char *member;
	size_t off, size;
	log_fkind kind;
	unsigned wire;
	const char *xml;
	log_fwhen when;
	unsigned col;
	const char *column;
	int copy;
} log_field_desc;

/* The fields' indices in their lists: LOG_TF_tid, ..., LOG_SF_id, ..., and how many. */
enum {
#define TASK_FIELD(member, kind, wire, xml, when, col, column, monitor) LOG_TF_##member,
#include "log_task_fields.def"
#undef TASK_FIELD
	LOG_TF_COUNT
};

enum {
#define STMT_FIELD(member, kind, wire, xml, when, col, column) LOG_SF_##member,
#include "log_stmt_fields.def"
#undef STMT_FIELD
	LOG_SF_COUNT
};

extern const log_field_desc log__task_fields[LOG_TF_COUNT];
extern const log_field_desc log__stmt_fields[LOG_SF_COUNT];

/* The field at place pos (1 first) of the records message's task head or statement,
 * of the export's tasks or statements table; NULL where no field is. */
const log_field_desc *log__task_wire_field(unsigned pos);
const log_field_desc *log__task_column(unsigned pos);
const log_field_desc *log__stmt_wire_field(unsigned pos);
const log_field_desc *log__stmt_column(unsigned pos);

/* The field's place in a record of its list. */
static inline void *log__field_at(void *rec, const log_field_desc *f)
{
	return (char *)rec + f->off;
}

static inline const void *log__field_cat(const void *rec, const log_field_desc *f)
{
	return (const char *)rec + f->off;
}

/* A number field's value as a signed or unsigned 64-bit number (0 for strings). */
int64_t log__field_int(const void *rec, const log_field_desc *f);
uint64_t log__field_uint(const void *rec, const log_field_desc *f);

/* Whether the writer writes the field of rec (its when rule; has_raw: the task's). */
int log__field_written(const void *rec, const log_field_desc *f, int has_raw);

/* Copies the fields the task list marks COPY (the task's own figures of a flush) from
 * fresh into rec. */
void log__task_copy(pvmmon_log_task *rec, const pvmmon_log_task *fresh);

#endif
