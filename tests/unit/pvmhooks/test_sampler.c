/* Unit tests for pvmhooks/sampletree.c (the bounded calling-context tree of call-path
 * samples) and the samples' way to the log: the records message and the XML log. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "../../../common/wire_records.h"
#include "../../../pvmhooks/sampletree.h"
#include "pvmmon/errors.h"
#include "pvmmon/log.h"

/* Addresses below 0x1000 are in "a", the rest in "b", at offset pc & 0xfff. */
static int fake_where(uintptr_t pc, const char **module, uint64_t *offset)
{
	if (pc == 0xdead)
		return -1;
	*module = pc < 0x1000 ? "/bin/a" : "/lib/b.so";
	*offset = pc & 0xfff;
	return 0;
}

/* The exported node whose path from the outermost frame is pcs (outermost first). */
static const pvmmon_log_snode *node_at(const pvmmon_log_samples *s, const uint64_t *offs, int n)
{
	int64_t parent = -1;
	const pvmmon_log_snode *found = NULL;

	for (int k = 0; k < n; k++) {
		found = NULL;
		for (size_t i = 0; i < s->nnodes; i++)
			if (s->nodes[i].parent == parent && s->nodes[i].offset == offs[k]) {
				found = &s->nodes[i];
				parent = (int64_t)i;
				break;
			}
		if (!found)
			return NULL;
	}
	return found;
}

static void test_paths_share_prefixes(void)
{
	stree t;
	/* Innermost first: main(0x10) > f(0x20) > g(0x30); main > f; main > h(0x1040). */
	uintptr_t p1[] = {0x30, 0x20, 0x10}, p2[] = {0x20, 0x10}, p3[] = {0x1040, 0x10};
	uint64_t o1[] = {0x10, 0x20, 0x30}, o2[] = {0x10, 0x20}, o3[] = {0x10, 0x40};
	pvmmon_log_samples *s;

	CU_ASSERT_EQUAL_FATAL(sampletree__init(&t, 64), 0);
	for (int i = 0; i < 6; i++)
		sampletree__add(&t, p1, 3, PVMMON_SAMPLE_COMPUTE, 1);
	sampletree__add(&t, p2, 2, PVMMON_SAMPLE_PVM, 3);
	sampletree__add(&t, p3, 2, PVMMON_SAMPLE_MONITOR, 1);
	/* A state out of range is no sample. */
	sampletree__add(&t, p3, 2, 7, 1);
	CU_ASSERT_EQUAL(t.total, 10);
	CU_ASSERT_EQUAL(t.used, 5); /* root, main, f, g, h */
	s = sampletree__export(&t, 199, fake_where);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(s->hz, 199);
	CU_ASSERT_EQUAL(s->total, 10);
	CU_ASSERT_EQUAL(s->truncated, 0);
	CU_ASSERT_EQUAL(s->nnodes, 4);
	CU_ASSERT_EQUAL_FATAL(s->nmodules, 2);
	CU_ASSERT_STRING_EQUAL(s->modules[0], "/bin/a");
	CU_ASSERT_STRING_EQUAL(s->modules[1], "/lib/b.so");
	for (size_t i = 0; i < s->nnodes; i++)
		CU_ASSERT(s->nodes[i].parent < (int64_t)i);
	CU_ASSERT_EQUAL(node_at(s, o1, 3)->self[PVMMON_SAMPLE_COMPUTE], 6);
	CU_ASSERT_EQUAL(node_at(s, o2, 2)->self[PVMMON_SAMPLE_PVM], 3);
	CU_ASSERT_EQUAL(node_at(s, o2, 2)->self[PVMMON_SAMPLE_COMPUTE], 0);
	CU_ASSERT_EQUAL(node_at(s, o3, 2)->self[PVMMON_SAMPLE_MONITOR], 1);
	CU_ASSERT_EQUAL(node_at(s, o3, 2)->module, 1);
	CU_ASSERT_EQUAL(node_at(s, o1, 1)->self[PVMMON_SAMPLE_COMPUTE], 0);
	pvmmon_log_samples_free(s);
	sampletree__free(&t);
}

static void test_full_tree_truncates(void)
{
	stree t;
	uintptr_t deep[40];
	pvmmon_log_samples *s;

	/* Room for the root and 9 frames: a 40-frame path keeps its outermost 9. */
	CU_ASSERT_EQUAL_FATAL(sampletree__init(&t, 10), 0);
	for (int i = 0; i < 40; i++)
		deep[i] = (uintptr_t)(0x100 + 40 - i); /* innermost first */
	sampletree__add(&t, deep, 40, PVMMON_SAMPLE_COMPUTE, 1);
	CU_ASSERT_EQUAL(t.used, 10);
	CU_ASSERT_EQUAL(t.truncated, 1);
	/* Counted at the deepest frame that has a node. */
	CU_ASSERT_EQUAL(t.nodes[9].self[PVMMON_SAMPLE_COMPUTE], 1);
	/* The same path again follows the existing nodes, and is cut again. */
	sampletree__add(&t, deep, 40, PVMMON_SAMPLE_COMPUTE, 2);
	CU_ASSERT_EQUAL(t.nodes[9].self[PVMMON_SAMPLE_COMPUTE], 3);
	CU_ASSERT_EQUAL(t.truncated, 3);
	/* A path of no frames (an unwind that failed) counts at the root: in the total,
	 * in no node. */
	sampletree__add(&t, deep, 0, PVMMON_SAMPLE_COMPUTE, 1);
	CU_ASSERT_EQUAL(t.total, 4);
	/* An address nobody knows is kept as it is, in module "?". */
	deep[39] = 0xdead;
	s = sampletree__export(&t, 50, fake_where);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(s->nnodes, 9);
	pvmmon_log_samples_free(s);
	sampletree__free(&t);
	CU_ASSERT_PTR_NULL(t.nodes);
}

/* A small samples object: main > hot, in two modules, one node cut. */
static pvmmon_log_samples *sample_object(void)
{
	pvmmon_log_samples *s = calloc(1, sizeof(*s));

	s->hz = 997;
	s->total = 120;
	s->truncated = 2;
	s->cost_ns = 123456;
	s->nmodules = 2;
	s->modules = calloc(2, sizeof(char *));
	s->modules[0] = strdup("/opt/app/hot");
	s->modules[1] = strdup("/lib/x86_64-linux-gnu/libc.so.6");
	s->nnodes = 3;
	s->nodes = calloc(3, sizeof(*s->nodes));
	s->nodes[0] = (pvmmon_log_snode){-1, 1, 0x27305, {0, 0, 0}};
	s->nodes[1] = (pvmmon_log_snode){0, 0, 0x1118, {10, 4, 1}};
	s->nodes[2] = (pvmmon_log_snode){1, 0, 0x12d5, {100, 0, 0}};
	return s;
}

static void check_same(const pvmmon_log_samples *a, const pvmmon_log_samples *b)
{
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_EQUAL(a->hz, b->hz);
	CU_ASSERT_EQUAL(a->total, b->total);
	CU_ASSERT_EQUAL(a->truncated, b->truncated);
	CU_ASSERT_EQUAL(a->cost_ns, b->cost_ns);
	CU_ASSERT_EQUAL_FATAL(a->nmodules, b->nmodules);
	for (size_t i = 0; i < a->nmodules; i++)
		CU_ASSERT_STRING_EQUAL(a->modules[i], b->modules[i]);
	CU_ASSERT_EQUAL_FATAL(a->nnodes, b->nnodes);
	CU_ASSERT(!memcmp(a->nodes, b->nodes, a->nnodes * sizeof(*a->nodes)));
}

static void test_records_carry_samples(void)
{
	pvmmon_log_task t = {0}, back;
	wire_buf b;
	int final;

	t.tid = 0x40001;
	t.samples = sample_object();
	wire__buf_init(&b);
	wire__records_encode(&b, &t, 1);
	CU_ASSERT_EQUAL_FATAL(wire__records_decode(&back, &final, b.data, b.len), 0);
	check_same(t.samples, back.samples);
	wire__task_clear(&back);
	/* A caller after its callee, or a module out of the table, is damage. */
	t.samples->nodes[1].parent = 2;
	wire__buf_reset(&b);
	wire__records_encode(&b, &t, 1);
	CU_ASSERT(wire__records_decode(&back, &final, b.data, b.len) < 0);
	t.samples->nodes[1].parent = 0;
	t.samples->nodes[2].module = 2;
	wire__buf_reset(&b);
	wire__records_encode(&b, &t, 1);
	CU_ASSERT(wire__records_decode(&back, &final, b.data, b.len) < 0);
	/* Cut anywhere in the section: refused, never read past the end. */
	t.samples->nodes[2].module = 0;
	wire__buf_reset(&b);
	wire__records_encode(&b, &t, 1);
	for (size_t cut = 1; cut < 60; cut++)
		CU_ASSERT(wire__records_decode(&back, &final, b.data, b.len - cut) < 0);
	wire__buf_free(&b);
	pvmmon_log_task_clear(&t);
}

static void test_log_keeps_samples(void)
{
	pvmmon_log *log = NULL, *back = NULL;
	char path[] = "/tmp/pvmmon-sampler-XXXXXX";
	int fd = mkstemp(path);
	FILE *f;

	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_new(&log), 0);
	log->program = strdup("/opt/app/hot");
	log->ntasks = 1;
	log->tasks = calloc(1, sizeof(*log->tasks));
	log->tasks[0].tid = 0x40001;
	log->tasks[0].lid = strdup("0");
	log->tasks[0].program = strdup("hot");
	log->tasks[0].samples = sample_object();
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_write(log, path), 0);
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&back, path), 0);
	CU_ASSERT_EQUAL(back->version_minor, PVMMON_LOG_VERSION_MINOR);
	check_same(log->tasks[0].samples, back->tasks[0].samples);
	pvmmon_log_free(back);
	back = NULL;
	/* A node naming a caller after it is refused, naming the file. */
	f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("<pvmmon-log version=\"1.13\"><run program=\"p\" mode=\"observe\" wall-ns=\"1\" "
	      "exit-code=\"0\"/><hosts/><tasks><task tid=\"1\" lid=\"0\" parent-tid=\"0\" "
	      "pid=\"1\" status=\"exited\" start-ns=\"0\" end-ns=\"1\" virtual-ns=\"1\" "
	      "intrusion-ns=\"0\" flushes=\"1\" msgs-sent=\"0\" msgs-recv=\"0\" bytes-sent=\"0\" "
	      "bytes-recv=\"0\" unmonitored-recv=\"0\"><samples hz=\"1\" total=\"1\" "
	      "truncated=\"0\"><sample-module path=\"/a\"/><snode parent=\"3\" module=\"0\" "
	      "offset=\"0x1\" compute=\"1\"/></samples></task></tasks></pvmmon-log>\n",
	      f);
	fclose(f);
	CU_ASSERT(pvmmon_log_read(&back, path) < 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(pvmmon_error_last(), path));
	pvmmon_log_free(back);
	pvmmon_log_free(log);
	unlink(path);
}

/* sampletree__where: the module and offset of code addresses, as dladdr gives them (its
 * module's path and base), for this program's code and libc's; nothing for an address
 * outside every module. */
static void test_modules_as_dladdr(void)
{
	const uintptr_t pcs[] = {(uintptr_t)test_modules_as_dladdr + 8, (uintptr_t)&printf + 4};
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	CU_ASSERT_FATAL(n > 0);
	exe[n] = 0;
	for (size_t i = 0; i < sizeof(pcs) / sizeof(pcs[0]); i++) {
		const char *module = NULL;
		uint64_t offset = 0;
		Dl_info info;

		CU_ASSERT_FATAL(dladdr((void *)(pcs[i] - 1), &info) && info.dli_fbase);
		CU_ASSERT_EQUAL_FATAL(sampletree__where(pcs[i], &module, &offset), 0);
		CU_ASSERT_EQUAL(offset, pcs[i] - (uintptr_t)info.dli_fbase);
		/* The main program by its path (dladdr may say it by argv[0]). */
		CU_ASSERT_STRING_EQUAL(module, i == 0 ? exe : info.dli_fname);
	}
	{
		const char *module = NULL;
		uint64_t offset = 0;

		CU_ASSERT_EQUAL(sampletree__where(16, &module, &offset), -1);
	}
	sampletree__modules_clear();
}

CU_TestInfo test_sampler_tests[] = {
    {"paths share their prefixes; states and weights count apart", test_paths_share_prefixes},
    {"a full tree cuts paths and counts them at their deepest node", test_full_tree_truncates},
    {"the records message carries the samples, checked", test_records_carry_samples},
    {"the log keeps the samples; a bad node names the file", test_log_keeps_samples},
    {"sampled addresses' modules and offsets as dladdr's", test_modules_as_dladdr},
    CU_TEST_INFO_NULL,
};
