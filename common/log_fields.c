/* The tables of the task and statement records' fields, made from their lists
 * (common/log_task_fields.def, log_stmt_fields.def), and the small helpers their users
 * share (a value by kind, the writer's rule, the monitor's copy). */
#include <string.h>

#include "log_fields.h"

#define LOG_FM_COPY 1
#define LOG_FM_KEEP 0

#define DESC(T, member, kind, wire, xml, when, col, column, copy)                                  \
	{#member,      offsetof(T, member), sizeof(((T *)0)->member), LOG_FK_##kind, wire, xml,   \
	 LOG_FW_##when, col,                 column,                   copy},

const log_field_desc log__task_fields[LOG_TF_COUNT] = {
#define TASK_FIELD(member, kind, wire, xml, when, col, column, monitor)                            \
	DESC(pvmmon_log_task, member, kind, wire, xml, when, col, column, LOG_FM_##monitor)
#include "log_task_fields.def"
#undef TASK_FIELD
};

const log_field_desc log__stmt_fields[LOG_SF_COUNT] = {
#define STMT_FIELD(member, kind, wire, xml, when, col, column)                                     \
	DESC(pvmmon_log_stmt, member, kind, wire, xml, when, col, column, 0)
#include "log_stmt_fields.def"
#undef STMT_FIELD
};

/*
 * The fields by place: a field at place p (wire or col) is entry p; the others go past
 * the places, each to an entry of its own, so that two fields given one place are two
 * initialisers of one entry, which -Woverride-init (-Wextra) refuses at compile time.
 * Entries no field took are 0 (the first field), which the lookups tell by its place.
 */
#define PLACE(place, index) [(place) ? (place) : 2 * LOG_FIELDS_MAX + (index)] = (index),
#define LOG_FIELDS_MAX ((int)LOG_TF_COUNT > (int)LOG_SF_COUNT ? (int)LOG_TF_COUNT : (int)LOG_SF_COUNT)

static const uint8_t task_wire[3 * LOG_FIELDS_MAX] = {
#define TASK_FIELD(member, kind, wire, xml, when, col, column, monitor) PLACE(wire, LOG_TF_##member)
#include "log_task_fields.def"
#undef TASK_FIELD
};

static const uint8_t task_col[3 * LOG_FIELDS_MAX] = {
#define TASK_FIELD(member, kind, wire, xml, when, col, column, monitor) PLACE(col, LOG_TF_##member)
#include "log_task_fields.def"
#undef TASK_FIELD
};

static const uint8_t stmt_wire[3 * LOG_FIELDS_MAX] = {
#define STMT_FIELD(member, kind, wire, xml, when, col, column) PLACE(wire, LOG_SF_##member)
#include "log_stmt_fields.def"
#undef STMT_FIELD
};

static const uint8_t stmt_col[3 * LOG_FIELDS_MAX] = {
#define STMT_FIELD(member, kind, wire, xml, when, col, column) PLACE(col, LOG_SF_##member)
#include "log_stmt_fields.def"
#undef STMT_FIELD
};

static const log_field_desc *placed(const log_field_desc *fields, const uint8_t *order,
                                    unsigned pos, int wire)
{
	const log_field_desc *f;

	if (pos == 0 || pos >= 2 * LOG_FIELDS_MAX)
		return NULL;
	f = &fields[order[pos]];
	return (wire ? f->wire : f->col) == pos ? f : NULL;
}

const log_field_desc *log__task_wire_field(unsigned pos)
{
	return placed(log__task_fields, task_wire, pos, 1);
}

const log_field_desc *log__task_column(unsigned pos)
{
	return placed(log__task_fields, task_col, pos, 0);
}

const log_field_desc *log__stmt_wire_field(unsigned pos)
{
	return placed(log__stmt_fields, stmt_wire, pos, 1);
}

const log_field_desc *log__stmt_column(unsigned pos)
{
	return placed(log__stmt_fields, stmt_col, pos, 0);
}

int64_t log__field_int(const void *rec, const log_field_desc *f)
{
	const void *p = log__field_cat(rec, f);

	switch (f->kind) {
	case LOG_FK_I32:
	case LOG_FK_SIGNAL:
		return *(const int32_t *)p;
	case LOG_FK_U32:
		return *(const uint32_t *)p;
	case LOG_FK_I64:
		return *(const int64_t *)p;
	case LOG_FK_U64:
	case LOG_FK_HEX64:
		return (int64_t) * (const uint64_t *)p;
	case LOG_FK_STATUS:
		return *(const pvmmon_task_status *)p;
	case LOG_FK_HAS:
	case LOG_FK_OFF:
		return *(const int *)p;
	default:
		return 0;
	}
}

uint64_t log__field_uint(const void *rec, const log_field_desc *f)
{
	if (f->kind == LOG_FK_U64 || f->kind == LOG_FK_HEX64)
		return *(const uint64_t *)log__field_cat(rec, f);
	return (uint64_t)log__field_int(rec, f);
}

int log__field_written(const void *rec, const log_field_desc *f, int has_raw)
{
	switch (f->when) {
	case LOG_FW_ALWAYS:
	case LOG_FW_ALWAYS_Q:
	case LOG_FW_ALWAYS_UNKNOWN:
		return 1;
	case LOG_FW_NONZERO:
		if (f->kind == LOG_FK_STR || f->kind == LOG_FK_CLOCK)
			return *(char *const *)log__field_cat(rec, f) != NULL;
		return log__field_uint(rec, f) != 0;
	case LOG_FW_RAW:
		return has_raw;
	default:
		return 0;
	}
}

void log__task_copy(pvmmon_log_task *rec, const pvmmon_log_task *fresh)
{
	for (size_t i = 0; i < LOG_TF_COUNT; i++) {
		const log_field_desc *f = &log__task_fields[i];

		if (f->copy)
			memcpy(log__field_at(rec, f), log__field_cat(fresh, f), f->size);
	}
}
