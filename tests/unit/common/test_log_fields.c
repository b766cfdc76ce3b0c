/* Unit tests for the task record's field list (common/log_task_fields.def): the list
 * against the schema (doc/pvmmon-log.rng) and itself, and what the codec, the XML
 * writer and export make of a sample task, against golden files. */
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

#include "../../../common/log_fields.h"
#include "../../../common/wire.h"
#include "../graphs/golden.h"
#include "pvmmon/export.h"
#include "pvmmon/log.h"

#define GOLDEN "tests/fixtures/golden/"

/* Two tasks: one with every field of the record set (every optional attribute
 * written), one with every field left zero (every optional attribute left out). */
static pvmmon_log *sample_log(void)
{
	pvmmon_log *log = NULL;
	pvmmon_log_task *t;

	CU_ASSERT_EQUAL_FATAL(pvmmon_log_new(&log), 0);
	log->tool_version = strdup("0.1.0");
	log->program = strdup("/opt/app/ring");
	log->started = strdup("2026-11-28T05:00:00Z");
	log->ntasks = 2;
	log->tasks = calloc(2, sizeof(*log->tasks));
	t = &log->tasks[0];
	t->tid = 0x40001;
	t->lid = strdup("0.3");
	t->parent_tid = 0x40002;
	t->earlier_tid = 0x40009;
	t->host = strdup("node1");
	t->pid = 4242;
	t->program = strdup("ring");
	t->status = PVMMON_TASK_KILLED;
	t->signal = SIGSEGV;
	t->last_stmt = 4;
	t->ended = strdup("killed by SIGSEGV at ring.c:31");
	t->start_ns = 5;
	t->end_ns = 6000000000LL;
	t->virtual_ns = 5900000000LL;
	t->intrusion_ns = -7;
	t->has_raw = 1;
	t->raw_ns = 6100000000LL;
	t->local_ns = 5950000000LL;
	t->uncertainty_ns = 120;
	t->clamped_ns = 12;
	t->flushes = 7;
	t->msgs_sent = 10;
	t->msgs_recv = 11;
	t->bytes_sent = 1ull << 40;
	t->bytes_recv = 13;
	t->unmonitored_recv = 1;
	t->bad_piggybacks = 2;
	t->records_bytes = 9000;
	t->waiting = strdup("at ring.c:12 for tag 7 from any task");
	t->clock = strdup("tsc");
	/* Its statements: one with every field set, one with every field but its call
	 * left zero (a call the schema takes, "unknown" is none). */
	t->nstmts = 2;
	t->stmts = calloc(2, sizeof(*t->stmts));
	t->stmts[0] = (pvmmon_log_stmt){.id = 3,
	                                .op = strdup("pvm_recv"),
	                                .module = strdup("/opt/app/ring"),
	                                .offset = 0x1a2b,
	                                .file = strdup("ring.c"),
	                                .line = 44,
	                                .function = strdup("pass"),
	                                .count = 9,
	                                .time_ns = 9000,
	                                .sync_ns = 700,
	                                .trans_ns = -5,
	                                .bytes = 1ull << 33,
	                                .unmonitored = 2,
	                                .reordered = 1,
	                                .held_ns = 65,
	                                .disabled = 1,
	                                .indirect = 4,
	                                .indirect_ns = 320};
	t->stmts[1].op = strdup("pvm_send");
	t = &log->tasks[1];
	t->tid = 0x40002;
	return log;
}

/* The XML writer's <task> elements, as before the list. */
static void test_xml_golden(void)
{
	pvmmon_log *log = sample_log();
	char dir[] = "/tmp/pvmmon-fields.XXXXXX", path[64];
	char *text;

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/run.xml", dir);
	CU_ASSERT_EQUAL(pvmmon_log_write(log, path), 0);
	text = unit_slurp(path);
	unlink(path);
	rmdir(dir);
	unit_check_golden(text, GOLDEN "task-fields.xml");
	free(text);
	pvmmon_log_free(log);
}

/* Whether every field of a list has the same value in records a and b (strings: both
 * set and equal). */
static int same_fields(const void *a, const void *b, const log_field_desc *fields, size_t n)
{
	int all = 1;

	for (size_t i = 0; i < n; i++) {
		const log_field_desc *f = &fields[i];
		int same;

		if (f->kind == LOG_FK_STR || f->kind == LOG_FK_CLOCK) {
			const char *x = *(char *const *)log__field_cat(a, f);
			const char *y = *(char *const *)log__field_cat(b, f);

			same = x && y && !strcmp(x, y);
		} else {
			same = log__field_uint(a, f) == log__field_uint(b, f);
		}
		if (!same)
			fprintf(stderr, "\n  %s reads back differently\n", f->member);
		all = all && same;
	}
	return all;
}

/* Every field of the lists reads back from the golden XML as the sample set it (the
 * reader's tables and the writer come from the one list of each record). */
static void test_xml_reads_back(void)
{
	pvmmon_log *log = sample_log(), *back = NULL;

	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&back, GOLDEN "task-fields.xml"), 0);
	CU_ASSERT_EQUAL_FATAL(back->ntasks, log->ntasks);
	CU_ASSERT(same_fields(&log->tasks[0], &back->tasks[0], log__task_fields, LOG_TF_COUNT));
	CU_ASSERT_EQUAL_FATAL(back->tasks[0].nstmts, 2);
	CU_ASSERT(same_fields(&log->tasks[0].stmts[0], &back->tasks[0].stmts[0], log__stmt_fields,
	                      LOG_SF_COUNT));
	/* The empty task: a NULL lid is written "?"; the rest reads back zero. */
	CU_ASSERT_STRING_EQUAL(back->tasks[1].lid, "?");
	CU_ASSERT_EQUAL(back->tasks[1].has_raw, 0);
	CU_ASSERT_PTR_NULL(back->tasks[0].stmts[1].module);
	CU_ASSERT_EQUAL(back->tasks[0].stmts[1].disabled, 0);
	pvmmon_log_free(back);
	pvmmon_log_free(log);
}

/* The records message decodes to the sample's fields (the codec from the lists). */
static void test_wire_reads_back(void)
{
	pvmmon_log *log = sample_log();
	pvmmon_log_task out;
	wire_buf b;
	int final = 0;

	wire__buf_init(&b);
	wire__records_encode(&b, &log->tasks[0], 1);
	CU_ASSERT_EQUAL_FATAL(wire__records_decode(&out, &final, b.data, b.len), 0);
	CU_ASSERT_EQUAL(out.tid, log->tasks[0].tid);
	CU_ASSERT_EQUAL(out.clamped_ns, 12);
	CU_ASSERT_STRING_EQUAL(out.clock, "tsc");
	CU_ASSERT_EQUAL_FATAL(out.nstmts, 2);
	CU_ASSERT(same_fields(&log->tasks[0].stmts[0], &out.stmts[0], log__stmt_fields,
	                      LOG_SF_COUNT));
	wire__task_clear(&out);
	wire__buf_free(&b);
	pvmmon_log_free(log);
}

/* The records message's bytes for the full task, in hexadecimal, 32 bytes a line. */
static void test_wire_golden(void)
{
	pvmmon_log *log = sample_log();
	wire_buf b;
	char *text;
	size_t i, n = 0;

	wire__buf_init(&b);
	wire__records_encode(&b, &log->tasks[0], 1);
	text = calloc(1, b.len * 3 + 2);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	for (i = 0; i < b.len; i++)
		n += (size_t)sprintf(text + n, "%02x%s", b.data[i],
		                     i + 1 == b.len || i % 32 == 31 ? "\n" : "");
	unit_check_golden(text, GOLDEN "task-fields.wire");
	free(text);
	wire__buf_free(&b);
	pvmmon_log_free(log);
}

/* The export's tasks table (JSON holds every table in one text). */
static void test_export_golden(void)
{
	pvmmon_log *log = sample_log();
	char *text = unit_export_json(log);

	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	unit_check_golden(text, GOLDEN "task-fields.json");
	free(text);
	pvmmon_log_free(log);
}

#define SCHEMA "doc/pvmmon-log.rng"

/* One <attribute> of the schema's <task> element: its name, the type it declares
 * (the data type, the ref, "text" or "choice") and whether it sits in <optional>. */
typedef struct schema_attr {
	char name[64];
	char type[32];
	int optional;
	int seen;
} schema_attr;

static int is_rng(const xmlNode *n, const char *name)
{
	return n->type == XML_ELEMENT_NODE && !xmlStrcmp(n->name, BAD_CAST name);
}

static void prop(const xmlNode *n, const char *name, char *out, size_t len)
{
	xmlChar *v = xmlGetProp(n, BAD_CAST name);

	snprintf(out, len, "%s", v ? (const char *)v : "");
	xmlFree(v);
}

/* The attribute's declared type: its first element child. */
static void attr_type(const xmlNode *a, char *out, size_t len)
{
	for (const xmlNode *c = a->children; c; c = c->next) {
		if (is_rng(c, "data"))
			prop(c, "type", out, len);
		else if (is_rng(c, "ref"))
			prop(c, "name", out, len);
		else if (c->type == XML_ELEMENT_NODE)
			snprintf(out, len, "%s", (const char *)c->name);
		else
			continue;
		return;
	}
	snprintf(out, len, "text");
}

/* The attributes of element e itself (its child elements' are theirs). */
static size_t collect(const xmlNode *e, int optional, schema_attr *out, size_t n, size_t max)
{
	for (const xmlNode *c = e->children; c && n < max; c = c->next) {
		if (is_rng(c, "attribute")) {
			prop(c, "name", out[n].name, sizeof(out[n].name));
			attr_type(c, out[n].type, sizeof(out[n].type));
			out[n].optional = optional;
			n++;
		} else if (is_rng(c, "optional") || is_rng(c, "group") || is_rng(c, "choice")) {
			n = collect(c, optional || !is_rng(c, "group"), out, n, max);
		}
	}
	return n;
}

static const xmlNode *find_element(const xmlNode *n, const char *element)
{
	for (; n; n = n->next) {
		char name[32];
		const xmlNode *in;

		if (is_rng(n, "element")) {
			prop(n, "name", name, sizeof(name));
			if (!strcmp(name, element))
				return n;
		}
		if ((in = find_element(n->children, element)) != NULL)
			return in;
	}
	return NULL;
}

static const char *const kind_names[] = {"I32",    "U32",    "I64",   "U64", "HEX64", "STR",
                                         "STATUS", "SIGNAL", "CLOCK", "HAS", "OFF"};

/* The schema types a field's kind may be written as. */
static int type_fits(log_fkind kind, const char *type)
{
	switch (kind) {
	case LOG_FK_I32:
		return !strcmp(type, "int") || !strcmp(type, "line");
	case LOG_FK_U32:
	case LOG_FK_U64:
		return !strcmp(type, "count") || !strcmp(type, "unsignedInt");
	case LOG_FK_I64:
		return !strcmp(type, "ns");
	case LOG_FK_HEX64:
	case LOG_FK_STR:
	case LOG_FK_SIGNAL:
		return !strcmp(type, "text") || !strcmp(type, "string");
	case LOG_FK_STATUS:
	case LOG_FK_CLOCK:
		return !strcmp(type, "choice");
	case LOG_FK_OFF:
		return !strcmp(type, "value");
	case LOG_FK_HAS:
		return 1;
	}
	return 0;
}

/* Whether the writer writes the field every time (so the schema must require it). */
static int always(const log_field_desc *f)
{
	if (f->when == LOG_FW_ALWAYS_Q || f->when == LOG_FW_ALWAYS_UNKNOWN)
		return 1;
	return f->when == LOG_FW_ALWAYS && f->kind != LOG_FK_STR && f->kind != LOG_FK_CLOCK;
}

/* A listed field against the schema's attribute of its name, when one is there. */
static int check_field(const log_field_desc *f, schema_attr *attrs, size_t n)
{
	int found = 0;

	for (size_t j = 0; j < n; j++) {
		if (strcmp(attrs[j].name, f->xml) != 0)
			continue;
		found = 1;
		attrs[j].seen = 1;
		if (!type_fits(f->kind, attrs[j].type))
			fprintf(stderr, "\n  %s: the list's %s is written as %s, the schema declares %s\n",
			        SCHEMA, f->member, kind_names[f->kind], attrs[j].type);
		CU_ASSERT(type_fits(f->kind, attrs[j].type));
		/* Left out at times (or NULL strings left out): optional in the schema;
		 * always written: required, or a reader of the schema is told less. */
		if (f->kind != LOG_FK_HAS)
			CU_ASSERT_EQUAL(attrs[j].optional, !always(f));
	}
	return found;
}

/* Every field of a list is an attribute the schema declares on its element, of the
 * type its kind writes, optional exactly when the writer may leave it out; every
 * attribute the schema declares there is in the list: a field cannot be half added. */
static void check_list(const char *element, const log_field_desc *fields, size_t nfields)
{
	xmlDoc *doc = xmlReadFile(SCHEMA, NULL, XML_PARSE_NONET);
	schema_attr attrs[64];
	const xmlNode *e;
	size_t n, i, j;

	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	e = find_element(xmlDocGetRootElement(doc), element);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	memset(attrs, 0, sizeof(attrs));
	n = collect(e, 0, attrs, 0, 64);
	CU_ASSERT(n > 10);
	for (i = 0; i < nfields; i++) {
		int found = check_field(&fields[i], attrs, n);

		if (!found)
			fprintf(stderr, "\n  %s declares no attribute %s on <%s> (the list's %s)\n",
			        SCHEMA, fields[i].xml, element, fields[i].member);
		CU_ASSERT(found);
	}
	for (j = 0; j < n; j++) {
		if (!attrs[j].seen)
			fprintf(stderr, "\n  %s: <%s> attribute %s is not in the list\n", SCHEMA,
			        element, attrs[j].name);
		CU_ASSERT(attrs[j].seen);
	}
	xmlFreeDoc(doc);
}

static void test_lists_match_schema(void)
{
	check_list("task", log__task_fields, LOG_TF_COUNT);
	check_list("stmt", log__stmt_fields, LOG_SF_COUNT);
}

/* A list's places are dense (a gap would end the codec's or the export's walk early)
 * and only kinds the codec sends are sent; the monitor copies numbers only (a copied
 * pointer would be owned twice). Two fields in one place do not compile. */
static void check_places(const log_field_desc *fields, size_t nfields,
                         const log_field_desc *(*wire)(unsigned),
                         const log_field_desc *(*column)(unsigned), unsigned own_columns)
{
	unsigned nwire = 0, ncol = 0, pos;

	for (size_t i = 0; i < nfields; i++) {
		const log_field_desc *f = &fields[i];

		nwire += f->wire != 0;
		ncol += f->col != 0;
		if (f->wire)
			CU_ASSERT(f->kind != LOG_FK_STATUS && f->kind != LOG_FK_SIGNAL &&
			          f->kind != LOG_FK_HAS);
		if (f->copy)
			CU_ASSERT(f->kind != LOG_FK_STR && f->kind != LOG_FK_CLOCK);
		CU_ASSERT((f->col != 0) == (f->column != NULL));
	}
	for (pos = 1; wire(pos); pos++)
		;
	CU_ASSERT_EQUAL(pos - 1, nwire);
	for (pos = 1, ncol += own_columns; column(pos) || pos <= ncol; pos++)
		CU_ASSERT(pos <= ncol);
	CU_ASSERT_EQUAL(pos - 1, ncol);
	CU_ASSERT_PTR_NULL(wire(0));
	CU_ASSERT_PTR_EQUAL(wire(1), &fields[0]);
}

static void test_list_places(void)
{
	check_places(log__task_fields, LOG_TF_COUNT, log__task_wire_field, log__task_column, 0);
	/* The statement's name, at place 2, is the export's own. */
	check_places(log__stmt_fields, LOG_SF_COUNT, log__stmt_wire_field, log__stmt_column, 1);
	CU_ASSERT_PTR_NULL(log__stmt_column(2));
}

/* The monitor takes a flush's figures and nothing else. */
static void test_copy(void)
{
	pvmmon_log_task rec = {0}, fresh = {0};

	rec.tid = 0x40001;
	rec.end_ns = 9;
	rec.flushes = 3;
	fresh.tid = 0x40002;
	fresh.clamped_ns = 12;
	fresh.msgs_sent = 4;
	fresh.has_raw = 1;
	fresh.end_ns = 77;
	log__task_copy(&rec, &fresh);
	CU_ASSERT_EQUAL(rec.tid, 0x40001);
	CU_ASSERT_EQUAL(rec.end_ns, 9);
	CU_ASSERT_EQUAL(rec.flushes, 3);
	CU_ASSERT_EQUAL(rec.clamped_ns, 12);
	CU_ASSERT_EQUAL(rec.msgs_sent, 4);
	CU_ASSERT_EQUAL(rec.has_raw, 1);
}

CU_TestInfo test_log_fields_tests[] = {
    {"the task and statement lists match the schema", test_lists_match_schema},
    {"the list's wire and export places are dense", test_list_places},
    {"the monitor's copy takes the COPY fields only", test_copy},
    {"a sample task's XML matches the golden file", test_xml_golden},
    {"every listed field reads back from the golden XML", test_xml_reads_back},
    {"the records message decodes to the sample's fields", test_wire_reads_back},
    {"a sample task's records message matches the golden bytes", test_wire_golden},
    {"a sample task's export matches the golden file", test_export_golden},
    CU_TEST_INFO_NULL,
};
