/* The table of the task record's fields, made from common/log_task_fields.def, and the
 * small helpers its users share (a value by kind, the writer's rule, the monitor's copy). */
#include <string.h>

#include "log_fields.h"

#define LOG_TM_COPY 1
#define LOG_TM_KEEP 0

const log_tfield log__task_fields[LOG_TF_COUNT] = {
#define TASK_FIELD(member, kind, wire, xml, when, col, column, monitor)                            \
	{#member,                                                                                  \
	 offsetof(pvmmon_log_task, member),                                                        \
	 sizeof(((pvmmon_log_task *)0)->member),                                                   \
	 LOG_TK_##kind,                                                                            \
	 wire,                                                                                     \
	 xml,                                                                                      \
	 LOG_TW_##when,                                                                            \
	 col,                                                                                      \
	 column,                                                                                   \
	 LOG_TM_##monitor},
#include "log_task_fields.def"
#undef TASK_FIELD
};

/*
 * The fields by place: a field at place p (wire or col) is entry p; the others go past
 * the places, each to an entry of its own, so that two fields given one place are two
 * initialisers of one entry, which -Woverride-init (-Wextra) refuses at compile time.
 * Entries no field took are 0 (the first field), which the lookups tell by its place.
 */
static const uint8_t wire_order[2 * LOG_TF_COUNT + 1] = {
#define TASK_FIELD(member, kind, wire, xml, when, col, column, monitor)                            \
	[(wire) ? (wire) : LOG_TF_COUNT + 1 + LOG_TF_##member] = LOG_TF_##member,
#include "log_task_fields.def"
#undef TASK_FIELD
};

static const uint8_t col_order[2 * LOG_TF_COUNT + 1] = {
#define TASK_FIELD(member, kind, wire, xml, when, col, column, monitor)                            \
	[(col) ? (col) : LOG_TF_COUNT + 1 + LOG_TF_##member] = LOG_TF_##member,
#include "log_task_fields.def"
#undef TASK_FIELD
};

const log_tfield *log__task_wire_field(unsigned pos)
{
	const log_tfield *f;

	if (pos == 0 || pos > LOG_TF_COUNT)
		return NULL;
	f = &log__task_fields[wire_order[pos]];
	return f->wire == pos ? f : NULL;
}

const log_tfield *log__task_column(unsigned pos)
{
	const log_tfield *f;

	if (pos == 0 || pos > LOG_TF_COUNT)
		return NULL;
	f = &log__task_fields[col_order[pos]];
	return f->col == pos ? f : NULL;
}

int64_t log__task_int(const pvmmon_log_task *t, const log_tfield *f)
{
	const void *p = log__task_cat(t, f);

	switch (f->kind) {
	case LOG_TK_I32:
	case LOG_TK_SIGNAL:
		return *(const int32_t *)p;
	case LOG_TK_U32:
		return *(const uint32_t *)p;
	case LOG_TK_I64:
		return *(const int64_t *)p;
	case LOG_TK_U64:
		return (int64_t) * (const uint64_t *)p;
	case LOG_TK_STATUS:
		return *(const pvmmon_task_status *)p;
	case LOG_TK_HAS:
		return *(const int *)p;
	default:
		return 0;
	}
}

uint64_t log__task_uint(const pvmmon_log_task *t, const log_tfield *f)
{
	if (f->kind == LOG_TK_U64)
		return *(const uint64_t *)log__task_cat(t, f);
	return (uint64_t)log__task_int(t, f);
}

int log__task_written(const pvmmon_log_task *t, const log_tfield *f)
{
	switch (f->when) {
	case LOG_TW_ALWAYS:
	case LOG_TW_ALWAYS_Q:
		return 1;
	case LOG_TW_NONZERO:
		if (f->kind == LOG_TK_STR || f->kind == LOG_TK_CLOCK)
			return *(char *const *)log__task_cat(t, f) != NULL;
		return log__task_uint(t, f) != 0;
	case LOG_TW_RAW:
		return t->has_raw;
	default:
		return 0;
	}
}

void log__task_copy(pvmmon_log_task *rec, const pvmmon_log_task *fresh)
{
	for (size_t i = 0; i < LOG_TF_COUNT; i++) {
		const log_tfield *f = &log__task_fields[i];

		if (f->copy)
			memcpy(log__task_at(rec, f), log__task_cat(fresh, f), f->size);
	}
}
