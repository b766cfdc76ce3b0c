/*
 * Integration tests of `pvmmon report -o DIR`: the HTML report opened in headless
 * Chromium (Debian's chromium) renders its graphs with no console error (among them the
 * wait-for graph of hung runs' deadlock cycles), and bad input gets the validation error
 * without touching the output folder.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "harness.h"
#include "report_check.h"

/*
 * A page that loads the report in a frame and, once everything has loaded, writes each
 * image's source and rendered size into the page, which --dump-dom then prints.
 */
static const char check_page[] =
    "<!DOCTYPE html><html><body><iframe id=f src=\"index.html\" "
    "style=\"width:1280px;height:1000px\"></iframe><script>"
    "window.addEventListener('load',function(){var d=document.getElementById('f')."
    "contentDocument;var im=d.querySelectorAll('img');var o=[];im.forEach(function(i){"
    "o.push(i.getAttribute('src')+'='+i.naturalWidth+'x'+i.naturalHeight+'/'+i.width+'x'+"
    "i.height);});var p=document.createElement('pre');p.textContent='IMAGES '+im.length+"
    "' '+o.join(' ')+' END';document.body.appendChild(p);});</script></body></html>\n";

/*
 * A page that loads the report in a frame and, once it has loaded, drives the first
 * space-time diagram as a user would: a wheel turn towards the screen at its centre, a
 * drag of 200 pixels to the left, a pointer over a message arrow, then over a lane's
 * first box (Graphviz names it b0). It writes the time range in view after each (the
 * diagram's data-from and data-to) and the tooltips shown into the page, which
 * --dump-dom then prints.
 */
static const char interact_page[] =
    "<!DOCTYPE html><html><body><iframe id=f src=\"index.html\" "
    "style=\"width:1280px;height:1000px\"></iframe><script>"
    "window.addEventListener('load',function(){var w=document.getElementById('f')."
    "contentWindow,d=w.document,o=['ST'];var box=d.querySelector('div.st');"
    "var svg=box.querySelector('svg');svg.scrollIntoView();"
    "function rg(){o.push(box.dataset.from+' '+box.dataset.to);}"
    "var r=svg.getBoundingClientRect(),x=r.left+r.width/2,y=r.top+r.height/2;rg();"
    "function ev(t,k,at,dx,b){at.dispatchEvent(new w[k](t,{deltaY:-100,button:0,"
    "clientX:x+dx,clientY:y,bubbles:true,cancelable:true,view:w}));}"
    "ev('wheel','WheelEvent',svg,0);rg();ev('mousedown','MouseEvent',svg,0);"
    "ev('mousemove','MouseEvent',w,-200);ev('mouseup','MouseEvent',w,-200);rg();"
    "ev('mouseover','MouseEvent',svg.querySelector('g.edge path'),0);"
    "var t=d.querySelector('div.st-tip');o.push('TIP '+t.style.display+' '+t.textContent);"
    "var b=Array.from(svg.querySelectorAll('g.node')).filter(function(g){"
    "return /^b[0-9]+$/.test(g.querySelector('title').textContent);})[0];"
    "ev('mouseover','MouseEvent',b.querySelector('polygon'),0);o.push('STATE '+t.textContent);"
    "var p=document.createElement('pre');p.textContent=o.join(' | ')+' END';"
    "document.body.appendChild(p);});</script></body></html>\n";

int report_write_file(const char *dir, const char *name, const char *text)
{
	char path[4200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

/*
 * Opens the report in dir/rep in headless Chromium: nimages images, each drawn with a
 * size (the one named must, when given, among them), a screenshot, and no console
 * message; a broken control page shows the check can fail.
 */
void report_check_dir(const char *dir, int nimages, const char *must)
{
	char shot[4000];
	cmd_result dom, con, bad;
	const char *images, *p;
	int n = 0, sized = 0;

	CU_ASSERT_EQUAL_FATAL(access(CHROMIUM, X_OK), 0);
	snprintf(shot, sizeof(shot), "%s/rep", dir);
	CU_ASSERT_EQUAL_FATAL(report_write_file(shot, "check.html", check_page), 0);
	CU_ASSERT_EQUAL_FATAL(report_write_file(shot, "broken.html",
					 "<!DOCTYPE html><html><body><script>nosuch();</script>"
					 "</body></html>\n"),
			      0);

	/* Every image of the page loaded and is drawn with a size. */
	harness_sh(&dom, 120, CHROMIUM_RUN "--virtual-time-budget=10000 --dump-dom 'file://%s/rep/check.html'",
		   dir, dir);
	CU_ASSERT_EQUAL(dom.status, 0);
	images = strstr(dom.out, "<pre>IMAGES ");
	CU_ASSERT_PTR_NOT_NULL_FATAL(images);
	n = atoi(images + 12);
	CU_ASSERT_EQUAL(n, nimages);
	for (p = strchr(images + 12, ' '); p && (p = strstr(p, ".svg=")); p++) {
		unsigned nw = 0, nh = 0, w = 0, h = 0;

		if (sscanf(p, ".svg=%ux%u/%ux%u", &nw, &nh, &w, &h) == 4 && nw > 0 && nh > 0 && w > 0 &&
		    h > 0)
			sized++;
	}
	if (sized != n)
		fprintf(stderr, "\n  %.300s ", images);
	CU_ASSERT_EQUAL(sized, nimages);
	if (must) {
		unsigned nw = 0, nh = 0;

		snprintf(shot, sizeof(shot), " %s=", must);
		p = strstr(images, shot);
		CU_ASSERT_PTR_NOT_NULL(p);
		CU_ASSERT(p && sscanf(p + strlen(shot), "%ux%u", &nw, &nh) == 2 && nw > 0 && nh > 0);
	}

	/* The report itself: a screenshot, and no console message (a missing image or a
	 * script error would log one). */
	snprintf(shot, sizeof(shot), "%s/rep/shot.png", dir);
	harness_sh(&con, 120, CHROMIUM_RUN "--window-size=1280,2400 --screenshot='%s' 'file://%s/rep/index.html'",
		   dir, shot, dir);
	CU_ASSERT_EQUAL(con.status, 0);
	CU_ASSERT(harness_file_size(shot) > 10000);
	if (strstr(con.err, ":CONSOLE"))
		fprintf(stderr, "\n%s", con.err);
	CU_ASSERT_PTR_NULL(strstr(con.err, ":CONSOLE"));
	/* The same check sees a broken page: it can fail. */
	harness_sh(&bad, 120, CHROMIUM_RUN "--dump-dom 'file://%s/rep/broken.html'", dir, dir);
	CU_ASSERT_PTR_NOT_NULL(strstr(bad.err, ":CONSOLE"));
	cmd_result_free(&dom);
	cmd_result_free(&con);
	cmd_result_free(&bad);
}

/* Writes the report of fixture (with extra report options) into the scratch folder it
 * returns (the report in its rep/) and checks it in Chromium. */
static const char *check_in_chromium(const char *fixture, const char *options, int nimages)
{
	const char *dir = harness_tmpdir();
	cmd_result r;

	harness_sh(&r, 60, "%s/pvmmon report %s/../tests/fixtures/%s -o '%s/rep' %s", harness_bin(),
		   harness_build(), fixture, dir, options);
	CU_ASSERT_EQUAL_FATAL(r.status, 0);
	cmd_result_free(&r);
	report_check_dir(dir, nimages, NULL);
	return dir;
}

static void test_report_renders_in_chromium(void)
{
	check_in_chromium("report-proctest.xml", "", 2);
}

/*
 * 24 mutually recursive procedures: the page draws, and Chromium's parse of it keeps the
 * group's members inside its closed details element, all 24, the entry first.
 */
static void test_group_report_renders_in_chromium(void)
{
	const char *dir = check_in_chromium("report-mutual24.xml", "", 2);
	const char *cell, *end;
	cmd_result r;
	int nli = 0;

	harness_sh(&r, 120, CHROMIUM_RUN "--dump-dom 'file://%s/rep/index.html'", dir, dir);
	CU_ASSERT_EQUAL(r.status, 0);
	cell = strstr(r.out, "<details class=\"members\"><summary>eval and 23 more, mutually "
			     "recursive</summary><ul><li><b>eval</b> (entry)</li>");
	CU_ASSERT_PTR_NOT_NULL(cell);
	end = cell ? strstr(cell, "</details>") : NULL;
	for (const char *p = cell; end && (p = strstr(p, "<li>")) && p < end; p++)
		nli++;
	CU_ASSERT_EQUAL(nli, 24);
	cmd_result_free(&r);
}

/* A traced run: two programs' graphs, the picture of who delays whom (drawn, with a
 * size) and the space-time diagram on both time axes; the picture's source names each
 * task with the waiting it caused and suffered, and has an arrow per waiting pair. */
static void test_traced_report_renders_in_chromium(void)
{
	const char *dir = harness_tmpdir();
	char path[4096], *dot;
	cmd_result r;

	harness_sh(&r, 60, "%s/pvmmon report %s/../tests/fixtures/report-trace.xml -o '%s/rep' "
	           "--time both --dot", harness_bin(), harness_build(), dir);
	CU_ASSERT_EQUAL_FATAL(r.status, 0);
	cmd_result_free(&r);
	report_check_dir(dir, 3, "delays.svg");
	snprintf(path, sizeof(path), "%s/rep/delays.dot", dir);
	dot = harness_slurp(path, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(dot);
	CU_ASSERT_PTR_NOT_NULL(strstr(dot, "digraph delays"));
	CU_ASSERT_PTR_NOT_NULL(strstr(dot, "\\ncaused "));
	CU_ASSERT_PTR_NOT_NULL(strstr(dot, "\\nwaited "));
	CU_ASSERT_PTR_NOT_NULL(strstr(dot, " -> t"));
	free(dot);
}

/*
 * The traced run's report driven in headless Chromium: a wheel turn zooms in (the time
 * range in view shrinks), a drag pans (both ends move later by the same amount), a
 * message arrow hovered shows its tasks, tag, size, times and statements in a tooltip,
 * a lane hovered its task, state and times, with no console message.
 * doc/images/report-interactive.png was taken of the same page, its frame cut to 330
 * pixels high around the first diagram.
 */
static void test_report_interactive_in_chromium(void)
{
	const char *dir = harness_tmpdir();
	double f0 = 0, t0 = 0, f1 = 0, t1 = 0, f2 = 0, t2 = 0;
	cmd_result r;
	const char *st, *tip;
	char rep[4000], *page;

	harness_sh(&r, 60, "%s/pvmmon report %s/../tests/fixtures/report-trace.xml -o '%s/rep' "
		   "--time both", harness_bin(), harness_build(), dir);
	CU_ASSERT_EQUAL_FATAL(r.status, 0);
	cmd_result_free(&r);
	/* The diagrams are in the page, and it stays offline: no address in it. */
	snprintf(rep, sizeof(rep), "%s/rep/index.html", dir);
	page = harness_slurp(rep, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(page);
	CU_ASSERT_PTR_NOT_NULL(strstr(page, "<div class=st "));
	CU_ASSERT_PTR_NULL(strstr(page, "http"));
	free(page);
	snprintf(rep, sizeof(rep), "%s/rep", dir);
	CU_ASSERT_EQUAL_FATAL(report_write_file(rep, "interact.html", interact_page), 0);
	harness_sh(&r, 120, CHROMIUM_RUN "--hide-scrollbars --window-size=1300,1100 "
		   "--virtual-time-budget=10000 --screenshot='%s/interact.png' --dump-dom "
		   "'file://%s/interact.html'", dir, rep, rep);
	CU_ASSERT_EQUAL(r.status, 0);
	snprintf(rep, sizeof(rep), "%s/rep/interact.png", dir);
	CU_ASSERT(harness_file_size(rep) > 10000);
	st = strstr(r.out, "<pre>ST | ");
	CU_ASSERT_PTR_NOT_NULL_FATAL(st);
	CU_ASSERT_EQUAL(sscanf(st, "<pre>ST | %lf %lf | %lf %lf | %lf %lf", &f0, &t0, &f1, &t1,
			       &f2, &t2), 6);
	/* Zoomed in around the centre: the range shrank (by the wheel's 0.8) inside the
	 * old one. */
	CU_ASSERT(t0 > f0 && t1 - f1 < 0.85 * (t0 - f0) && f1 > f0 && t1 < t0);
	/* Dragged left: the same width, later. */
	CU_ASSERT(f2 > f1 && t2 > t1);
	CU_ASSERT(t2 - f2 > 0.99 * (t1 - f1) && t2 - f2 < 1.01 * (t1 - f1));
	tip = strstr(st, "TIP block ");
	CU_ASSERT_PTR_NOT_NULL(tip);
	CU_ASSERT_PTR_NOT_NULL(tip ? strstr(tip, " tag ") : NULL);
	CU_ASSERT_PTR_NOT_NULL(tip ? strstr(tip, "sent at ") : NULL);
	CU_ASSERT_PTR_NOT_NULL(tip ? strstr(tip, "send at mcpi") : NULL);
	/* A lane's box: its task, state and stretch of time. */
	tip = strstr(st, " | STATE ");
	CU_ASSERT_PTR_NOT_NULL(tip);
	CU_ASSERT(tip && strstr(tip, "STATE 0: ") && strstr(tip, " from ") && strstr(tip, " to "));
	CU_ASSERT(tip && (strstr(tip, ": computing ") || strstr(tip, ": waiting ") ||
			  strstr(tip, ": communicating ")));
	if (strstr(r.err, ":CONSOLE"))
		fprintf(stderr, "\n%s", r.err);
	CU_ASSERT_PTR_NULL(strstr(r.err, ":CONSOLE"));
	cmd_result_free(&r);
}

/*
 * A hung run of apps/hang (mode: a deadlock cycle of ncycle tasks) stopped with
 * --on-hang=abort, then its report: the cycle said with each statement, its arrows red in
 * the wait-for graph, which Chromium draws beside the program graph with no console
 * message. Each run has its own private VM, which pvmmon run halts.
 */
static void check_hang_report(const char *mode, int ncycle)
{
	const char *dir = harness_tmpdir();
	char path[4200], *dot;
	cmd_result r;
	int red = 0;

	harness_sh(&r, 60, "cd '%s' && %s/pvmmon run -q --on-hang=abort -o h.xml -- %s/hang %s", dir,
		   harness_bin(), harness_bin(), mode);
	CU_ASSERT_EQUAL(r.status, 4);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "pvmmon: deadlock: task 0.0 waits at hang.c:"));
	cmd_result_free(&r);
	harness_sh(&r, 60, "%s/pvmmon report '%s/h.xml' -o '%s/rep' --dot", harness_bin(), dir, dir);
	CU_ASSERT_EQUAL_FATAL(r.status, 0);
	cmd_result_free(&r);
	snprintf(path, sizeof(path), "%s/rep/waits.dot", dir);
	dot = harness_slurp(path, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(dot);
	for (const char *p = strstr(dot, "penwidth=2.5"); p; p = strstr(p + 1, "penwidth=2.5"))
		red++;
	CU_ASSERT_EQUAL(red, ncycle);
	CU_ASSERT_PTR_NOT_NULL(strstr(dot, "waits at hang.c:"));
	free(dot);
	snprintf(path, sizeof(path), "%s/rep/index.html", dir);
	dot = harness_slurp(path, NULL);
	CU_ASSERT_PTR_NOT_NULL(dot ? strstr(dot, "<li><b>deadlock</b>: task 0.0 waits at hang.c:") : NULL);
	free(dot);
	report_check_dir(dir, 2, "waits.svg");
}

static void test_two_task_cycle_report(void)
{
	check_hang_report("cycle2", 2);
}

static void test_three_task_cycle_report(void)
{
	check_hang_report("cycle3", 3);
}

static void test_report_bad_input(void)
{
	const char *dir = harness_tmpdir();
	char out[4096];
	cmd_result r;

	/* A truncated log: the reader's error naming the file; no folder is made. */
	harness_sh(&r, 60, "%s/pvmmon report %s/../tests/fixtures/truncated.xml -o '%s/rep'",
		   harness_bin(), harness_build(), dir);
	CU_ASSERT_EQUAL(r.status, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "truncated.xml"));
	snprintf(out, sizeof(out), "%s/rep", dir);
	CU_ASSERT(access(out, F_OK) != 0);
	cmd_result_free(&r);
	/* Options that need -o, and an unknown format. */
	harness_sh(&r, 60, "%s/pvmmon report %s/../tests/fixtures/report-matmul.xml --dot",
		   harness_bin(), harness_build());
	CU_ASSERT_EQUAL(r.status, 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "need -o"));
	cmd_result_free(&r);
	harness_sh(&r, 60, "%s/pvmmon report %s/../tests/fixtures/report-matmul.xml -o '%s/rep' --format gif",
		   harness_bin(), harness_build(), dir);
	CU_ASSERT_EQUAL(r.status, 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "gif"));
	cmd_result_free(&r);
	/* An existing file where the folder should be. */
	harness_sh(&r, 60, "touch '%s/afile' && %s/pvmmon report %s/../tests/fixtures/report-matmul.xml -o '%s/afile'",
		   dir, harness_bin(), harness_build(), dir);
	CU_ASSERT_EQUAL(r.status, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "not a folder"));
	cmd_result_free(&r);
	/* A preloaded (no static tables) multi-program log still gives its graphs. */
	harness_sh(&r, 60, "%s/pvmmon report %s/../tests/fixtures/report-matmul.xml -o '%s/mm' --dot && "
		   "ls '%s/mm'",
		   harness_bin(), harness_build(), dir, dir);
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "program-0.svg"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "program-1.svg"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "index.html"));
	CU_ASSERT_PTR_NULL(strstr(r.out, "calls-0"));
	cmd_result_free(&r);
}

CU_TestInfo test_report_tests[] = {
    {"HTML report in headless Chromium: graphs drawn, no console error",
     test_report_renders_in_chromium},
    {"24 mutually recursive procedures' report in headless Chromium: members listed",
     test_group_report_renders_in_chromium},
    {"traced run's report with space-time diagrams in headless Chromium",
     test_traced_report_renders_in_chromium},
    {"interactive space-time diagram in headless Chromium: wheel zooms, drag pans, hover "
     "tooltip",
     test_report_interactive_in_chromium},
    {"two-task cycle: wait-for graph in the HTML report, in headless Chromium",
     test_two_task_cycle_report},
    {"three-task cycle: wait-for graph in the HTML report, in headless Chromium",
     test_three_task_cycle_report},
    {"report: bad input and options, preloaded logs", test_report_bad_input},
    CU_TEST_INFO_NULL,
};
