/*
 * Unit tests for graphs/dot.c and graphs/html_report.c: the Graphviz sources of logs in
 * tests/fixtures/ match the golden files in tests/fixtures/golden/ byte for byte (set
 * PVMMON_UPDATE_GOLDEN=1 to rewrite them after a deliberate change), and the HTML report
 * renders real pictures with Graphviz, the space-time diagram inlined in the page.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <CUnit/CUnit.h>
#include <libxml/parser.h>

#include "pvmmon/errors.h"
#include "pvmmon/log.h"
#include "pvmmon/report.h"
#include "golden.h"

typedef int (*gen_fn)(const pvmmon_log *, const pvmmon_log_task *, FILE *);

static int gen_program(const pvmmon_log *log, const pvmmon_log_task *t, FILE *out)
{
	return pvmmon_report_dot_program(log, t, 0.01, out);
}

/* Generates one graph of fixture log's program p and compares it with golden. */
static void check_golden(const char *log_path, size_t p, gen_fn gen, const char *golden)
{
	pvmmon_log *log = NULL;
	const pvmmon_log_task **progs = NULL;
	size_t nprogs = 0, len = 0;
	char *text = NULL;
	FILE *mem;

	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, log_path), 0);
	CU_ASSERT_EQUAL_FATAL(pvmmon_report_programs(&progs, &nprogs, log), 0);
	CU_ASSERT_FATAL(p < nprogs);
	mem = open_memstream(&text, &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(mem);
	CU_ASSERT_EQUAL(gen(log, progs[p], mem), 0);
	fclose(mem);
	unit_check_golden(text, golden);
	free(text);
	free(progs);
	pvmmon_log_free(log);
}

static void test_program_graph_from_static_tables(void)
{
	check_golden("tests/fixtures/report-proctest.xml", 0, gen_program,
		     "tests/fixtures/golden/proctest-program.dot");
}

static void test_folded_parents_hand_children_up(void)
{
	/* matmul built with pvmmon-cc: a loop of main takes too little time to be drawn,
	 * so the statements it holds fold into main's "N more" node, not a phantom one. */
	check_golden("tests/fixtures/report-matmul-cc.xml", 0, gen_program,
		     "tests/fixtures/golden/matmul-cc-program.dot");
	check_golden("tests/fixtures/report-matmul-cc.xml", 0, pvmmon_report_dot_calls,
		     "tests/fixtures/golden/matmul-cc-calls.dot");
}

static void test_call_graph_with_recursion(void)
{
	check_golden("tests/fixtures/report-proctest.xml", 0, pvmmon_report_dot_calls,
		     "tests/fixtures/golden/proctest-calls.dot");
}

/* 24 mutually recursive procedures: one node named by its entry and count, double
 * bordered, its members in its tooltip (golden). */
static void test_call_graph_of_a_large_group(void)
{
	check_golden("tests/fixtures/report-mutual24.xml", 0, pvmmon_report_dot_calls,
		     "tests/fixtures/golden/mutual24-calls.dot");
}

static void test_call_site_graphs_without_static_tables(void)
{
	/* matmul run unmodified with the preload: master and workers, no probes. */
	check_golden("tests/fixtures/report-matmul.xml", 0, gen_program,
		     "tests/fixtures/golden/matmul-program.dot");
	check_golden("tests/fixtures/report-matmul.xml", 1, gen_program,
		     "tests/fixtures/golden/matmul-worker-program.dot");
}

static int png_size(const char *path, unsigned *w, unsigned *h)
{
	unsigned char b[24];
	FILE *f = fopen(path, "rb");
	size_t got = f ? fread(b, 1, sizeof(b), f) : 0;

	if (f)
		fclose(f);
	if (got != sizeof(b) || memcmp(b, "\x89PNG\r\n\x1a\n", 8) || memcmp(b + 12, "IHDR", 4))
		return -1;
	*w = (unsigned)b[16] << 24 | (unsigned)b[17] << 16 | (unsigned)b[18] << 8 | b[19];
	*h = (unsigned)b[20] << 24 | (unsigned)b[21] << 16 | (unsigned)b[22] << 8 | b[23];
	return 0;
}

static void test_html_report_renders_svg_and_png(void)
{
	char dir[] = "/tmp/pvmmon-unit-report.XXXXXX", path[256];
	pvmmon_log *log = NULL;
	pvmmon_report_opts svg = {"svg", 1, 0.01, 0}, png = {"png", 0, 0.01, 0};
	char *index;
	unsigned w = 0, h = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, "tests/fixtures/report-proctest.xml"), 0);
	CU_ASSERT_EQUAL(pvmmon_report_html(log, dir, &svg), 0);
	/* Every SVG is well-formed XML with a real drawing in it. */
	for (int i = 0; i < 2; i++) {
		xmlDocPtr doc;

		snprintf(path, sizeof(path), "%s/%s-0.svg", dir, i ? "calls" : "program");
		doc = xmlReadFile(path, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR);
		CU_ASSERT_PTR_NOT_NULL(doc);
		if (doc) {
			xmlNodePtr root = xmlDocGetRootElement(doc);

			CU_ASSERT(root && !strcmp((const char *)root->name, "svg"));
			xmlFreeDoc(doc);
		}
		snprintf(path, sizeof(path), "%s/%s-0.dot", dir, i ? "calls" : "program");
		CU_ASSERT_EQUAL(access(path, R_OK), 0);
	}
	snprintf(path, sizeof(path), "%s/index.html", dir);
	index = unit_slurp(path);
	CU_ASSERT_PTR_NOT_NULL_FATAL(index);
	CU_ASSERT_PTR_NOT_NULL(strstr(index, "<img class=graph src=\"program-0.svg\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(index, "<img class=graph src=\"calls-0.svg\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(index, "is_even+is_odd"));
	CU_ASSERT_PTR_NULL(strstr(index, "<details"));
	CU_ASSERT_PTR_NOT_NULL(strstr(index, "no critical-path data"));
	/* Offline: nothing is fetched from elsewhere. */
	CU_ASSERT_PTR_NULL(strstr(index, "http"));
	free(index);
	CU_ASSERT_EQUAL(pvmmon_report_html(log, dir, &png), 0);
	snprintf(path, sizeof(path), "%s/program-0.png", dir);
	CU_ASSERT_EQUAL(png_size(path, &w, &h), 0);
	CU_ASSERT(w > 200 && h > 200);
	/* A format Graphviz is not asked for is refused before anything is written. */
	png.format = "gif";
	CU_ASSERT_EQUAL(pvmmon_report_html(log, dir, &png), PVMMON_EINVAL);
	pvmmon_log_free(log);
	{
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		CU_ASSERT_EQUAL(system(cmd), 0);
	}
}

/* A group of 24 procedures in the procedures table: named by entry and count, opening to
 * list every member, the entry first and marked. */
static void test_html_report_lists_group_members(void)
{
	char dir[] = "/tmp/pvmmon-unit-report.XXXXXX", path[256], cmd[300];
	pvmmon_log *log = NULL;
	pvmmon_report_opts svg = {"svg", 0, 0.01, 0};
	char *index, *cell;
	size_t nli = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, "tests/fixtures/report-mutual24.xml"), 0);
	CU_ASSERT_EQUAL(pvmmon_report_html(log, dir, &svg), 0);
	snprintf(path, sizeof(path), "%s/index.html", dir);
	index = unit_slurp(path);
	CU_ASSERT_PTR_NOT_NULL_FATAL(index);
	cell = strstr(index, "<tr><td><details class=members><summary>eval and 23 more, mutually "
			     "recursive</summary><ul><li><b>eval</b> (entry)</li><li>apply</li>"
			     "<li>ev_quote</li>");
	CU_ASSERT_PTR_NOT_NULL_FATAL(cell);
	for (const char *p = cell; (p = strstr(p, "<li>")) && p < strstr(cell, "</ul>"); p++)
		nli++;
	CU_ASSERT_EQUAL(nli, 24);
	CU_ASSERT_PTR_NOT_NULL(strstr(cell, "<li>ev_prim</li></ul></details></td><td>lisp.c:20</td>"));
	/* The single procedures are plain names. */
	CU_ASSERT_PTR_NOT_NULL(strstr(index, "<tr><td>prim_add</td>"));
	free(index);
	pvmmon_log_free(log);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CU_ASSERT_EQUAL(system(cmd), 0);
}

/* A run profiled with --cp and traced: the HTML report has the critical-path table, the
 * offline check, and the path drawn in the space-time diagram. */
static void test_html_report_critical_path(void)
{
	char dir[] = "/tmp/pvmmon-unit-report.XXXXXX", path[256];
	pvmmon_log *log = NULL;
	pvmmon_report_opts svg = {"svg", 1, 0.01, 0};
	char *index, *dot, *row;

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, "tests/fixtures/cp-issort.xml"), 0);
	CU_ASSERT_EQUAL(pvmmon_report_html(log, dir, &svg), 0);
	snprintf(path, sizeof(path), "%s/index.html", dir);
	index = unit_slurp(path);
	CU_ASSERT_PTR_NOT_NULL_FATAL(index);
	CU_ASSERT_PTR_NULL(strstr(index, "no critical-path data"));
	CU_ASSERT_PTR_NOT_NULL(strstr(index, "Critical path length <b>258.93 ms</b>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(index, "inclusive shares, ending in task 0 (t40002)"));
	/* One row per selected procedure, largest share first. */
	row = strstr(index, "<tr><td>create_seq</td><td class=n data-v=\"152130897\">152.13 ms</td>"
			    "<td class=n data-v=\"58.7526\">58.8%</td>");
	CU_ASSERT_PTR_NOT_NULL(row);
	CU_ASSERT_PTR_NOT_NULL(strstr(index, "<tr><td>do_rank</td><td class=n data-v=\"61287003\">"
					     "61.29 ms</td><td class=n data-v=\"23.6689\">23.7%</td>"
					     "<td class=n data-v=\"59815636\">59.82 ms</td>"));
	if (row) {
		char *rank = strstr(row, "<tr><td>do_rank</td>");

		CU_ASSERT(rank && strstr(rank, "<tr><td>verify</td>"));
	}
	CU_ASSERT_PTR_NOT_NULL(strstr(index, "<td class=n data-v=\"21.8794\">21.9%</td>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(index, "Recomputed offline from the event trace"));
	CU_ASSERT_PTR_NOT_NULL(strstr(index, "0.00% from the online figure"));
	/* The traced run's diagram is inlined for the script, spanning its time axis, with
	 * neither Graphviz's XML prolog nor an address (the page stays offline). */
	{
		const char *st = strstr(index, "<div class=st data-span=\"");
		char *svgfile;

		CU_ASSERT_PTR_NOT_NULL(st);
		CU_ASSERT(st && atoll(st + 26) > 0);
		CU_ASSERT_PTR_NOT_NULL(st ? strstr(st, "<svg width=") : NULL);
		CU_ASSERT_PTR_NULL(strstr(index, "<?xml"));
		CU_ASSERT_PTR_NULL(strstr(index, "http"));
		snprintf(path, sizeof(path), "%s/spacetime-virtual.svg", dir);
		svgfile = unit_slurp(path);
		CU_ASSERT_PTR_NOT_NULL(svgfile);
		CU_ASSERT(svgfile && strstr(index, strstr(svgfile, "<g id=\"graph0\"")));
		free(svgfile);
	}
	free(index);
	snprintf(path, sizeof(path), "%s/spacetime-virtual.dot", dir);
	dot = unit_slurp(path);
	CU_ASSERT_PTR_NOT_NULL_FATAL(dot);
	CU_ASSERT_PTR_NOT_NULL(strstr(dot, "critical path (thick black): 258.93 ms"));
	CU_ASSERT_PTR_NOT_NULL(strstr(dot, "tooltip=\"critical path: message\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(dot, "tooltip=\"critical path: spawn\""));
	free(dot);
	pvmmon_log_free(log);
	{
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		CU_ASSERT_EQUAL(system(cmd), 0);
	}
}

CU_TestInfo test_dot_tests[] = {
    {"program graph from static tables (golden)", test_program_graph_from_static_tables},
    {"call graph with recursion collapsed (golden)", test_call_graph_with_recursion},
    {"call graph of 24 mutually recursive procedures (golden)", test_call_graph_of_a_large_group},
    {"folded entries hand their children to a drawn ancestor (golden)",
     test_folded_parents_hand_children_up},
    {"call-site graphs without static tables (golden)", test_call_site_graphs_without_static_tables},
    {"HTML report: SVG parses, PNG has a size, bad format refused",
     test_html_report_renders_svg_and_png},
    {"HTML report: critical-path table and path in the diagram", test_html_report_critical_path},
    {"HTML report: a large group's members listed", test_html_report_lists_group_members},
    CU_TEST_INFO_NULL,
};
