/*
 * Integration tests of call-path sampling (pvmmon run --sample, on by default for
 * programs not built with pvmmon-cc, pvmmon ctl sample): apps/hotspots, a plain gcc
 * build, a stripped copy and a pvmmon-cc build of it, on a private VM per run; the
 * shares the report gives against the program's own measurement of its CPU time and
 * against the probes' times; all tasks merged (mcpi); a Fortran program (apps/hotf.f)
 * and Debian's tablix2 named; a task that dies keeps its samples.
 */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "harness.h"
#include "pvmmon/errors.h"
#include "pvmmon/log.h"

#define RUN_TIMEOUT 180
/*
 * Steps of apps/hotspots: about 3 s of CPU time, which the kernel's CPU-time timers
 * (checked at its 250 Hz tick) sample some 750 times, weighted to about 3000 samples
 * at 997 Hz. The samples fall at fixed intervals of the task's own CPU time, so each
 * of the program's 150 stretches (50 rounds of three parts) is counted to within about
 * one tick: the shares come out within a point of the program's own measurement (seen:
 * 0.8 points at most over 3 runs of half this length). CPU time is what the timer
 * counts, so a busy 2-CPU machine that deschedules the task changes the run's length,
 * not the shares; the comparison is with the program's own CPU-time measurement of
 * the same run, so a part slowed by a neighbour on the machine is slowed in both.
 */
#define STEPS "2000000000"

/* Runs PROG monitored with OPTS into dir/name.xml; the log (NULL when unreadable), the
 * report's text into *report (heap) when report is not NULL. */
static pvmmon_log *sampled_run(const char *dir, const char *name, const char *opts,
                               const char *prog, cmd_result *r, char **report)
{
	char path[4096];
	pvmmon_log *log = NULL;
	cmd_result rep;

	snprintf(path, sizeof(path), "%s/%s.xml", dir, name);
	harness_sh(r, RUN_TIMEOUT, "cd '%s' && %s/pvmmon run -q %s -o '%s' -- %s " STEPS, dir,
	           harness_bin(), opts, path, prog);
	if (r->status != 0)
		fprintf(stderr, "\npvmmon run %s: status %d\nstdout: %s\nstderr: %s\n", prog,
		        r->status, r->out, r->err);
	if (pvmmon_log_read(&log, path) < 0) {
		fprintf(stderr, "\n%s\n", pvmmon_error_last());
		return NULL;
	}
	if (report) {
		harness_sh(&rep, 60, "%s/pvmmon report '%s'", harness_bin(), path);
		CU_ASSERT_EQUAL(rep.status, 0);
		*report = rep.out;
		rep.out = NULL;
		cmd_result_free(&rep);
	}
	return log;
}

/* The self share (percent) of procedure name in the report's sampled table, or -1. */
static double self_share(const char *report, const char *name)
{
	const char *p = strstr(report, "\nSampled procedures");
	size_t l = strlen(name);
	unsigned long long self;
	double pct;

	for (p = p ? strchr(p + 1, '\n') : NULL; p; p = strchr(p + 1, '\n')) {
		const char *s = p + 1;

		while (*s == ' ')
			s++;
		if (!strncmp(s, name, l) && s[l] == ' ' &&
		    sscanf(s + l, " %llu %lf%%", &self, &pct) == 2)
			return pct;
	}
	return -1;
}

/* The line of procedure name in the table that follows text (up to the next blank
 * line), just after the name; NULL when there is none. */
static const char *row_of(const char *text, const char *name)
{
	size_t l = strlen(name);

	for (const char *p = text ? strchr(text, '\n') : NULL; p && p[1] != '\n';
	     p = strchr(p + 1, '\n')) {
		const char *s = p + 1;

		while (*s == ' ')
			s++;
		if (!strncmp(s, name, l) && s[l] == ' ')
			return s + l;
	}
	return NULL;
}

static void test_hot_functions_shares(void)
{
	const char *dir = harness_tmpdir();
	char prog[4096], *report = NULL;
	cmd_result r;
	pvmmon_log *log;
	double a = -1, b = -1, sa, sb;

	snprintf(prog, sizeof(prog), "%s/hotspots", harness_bin());
	log = sampled_run(dir, "hot", "--sample=997", prog, &r, &report);
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(log);
	CU_ASSERT_PTR_NOT_NULL_FATAL(report);
	CU_ASSERT_EQUAL_FATAL(log->ntasks, 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(log->tasks[0].samples);
	CU_ASSERT_EQUAL(log->tasks[0].samples->hz, 997);
	CU_ASSERT(log->tasks[0].samples->total >= 1500);
	CU_ASSERT_EQUAL(log->tasks[0].samples->truncated, 0);
	/* What the program measured of its own CPU time. */
	CU_ASSERT_EQUAL(sscanf(r.out, "hotspots: a %lf b %lf", &a, &b), 2);
	CU_ASSERT(a > 50 && a < 70);
	CU_ASSERT(b > 22 && b < 38);
	sa = self_share(report, "hot_a");
	sb = self_share(report, "hot_b");
	if (sa < a - 3 || sa > a + 3 || sb < b - 3 || sb > b + 3)
		fprintf(stderr, "\nmeasured a %.1f b %.1f, sampled %.1f %.1f\n%s\n", a, b, sa, sb,
		        report);
	CU_ASSERT(sa >= a - 3 && sa <= a + 3);
	CU_ASSERT(sb >= b - 3 && sb <= b + 3);
	/* hot_b's samples come through hot_b_caller: its inclusive share, its path. */
	CU_ASSERT_PTR_NOT_NULL(strstr(report, "main > hot_b_caller > hot_b"));
	/* warm is inlined into main: named from the debug information, with the rest. */
	CU_ASSERT(self_share(report, "warm") >= 100 - a - b - 3 &&
	          self_share(report, "warm") <= 100 - a - b + 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(report, "main > warm"));
	CU_ASSERT_PTR_NOT_NULL(strstr(report, "from call-path samples"));
	free(report);
	/* The page: the table and the flame graph, hot_a's box with its share. */
	{
		char html[4096], *page;
		cmd_result h;

		snprintf(html, sizeof(html), "%s/page", dir);
		harness_sh(&h, 60, "%s/pvmmon report -o '%s' '%s/hot.xml'", harness_bin(), html, dir);
		CU_ASSERT_EQUAL(h.status, 0);
		cmd_result_free(&h);
		snprintf(html, sizeof(html), "%s/page/index.html", dir);
		page = harness_slurp(html, NULL);
		CU_ASSERT_PTR_NOT_NULL_FATAL(page);
		CU_ASSERT_PTR_NOT_NULL(strstr(page, "<h2 id=sampled>Sampled procedures</h2>"));
		CU_ASSERT_PTR_NOT_NULL(strstr(page, "class=flame"));
		CU_ASSERT_PTR_NOT_NULL(strstr(page, "<title>hot_a: "));
		free(page);
	}
	pvmmon_log_free(log);
	cmd_result_free(&r);
}

/* A stripped copy has no symbols for its own functions (they are not dynamic): the
 * report says "?" with the binary's name, and still names libc's. */
static void test_stripped_copy(void)
{
	const char *dir = harness_tmpdir();
	char *report = NULL;
	cmd_result r, c;
	pvmmon_log *log;

	harness_sh(&c, 30, "cp '%s/hotspots' '%s/hs-stripped' && strip '%s/hs-stripped' && "
	                   "nm '%s/hs-stripped' 2>&1",
	           harness_bin(), dir, dir, dir);
	CU_ASSERT_PTR_NOT_NULL(strstr(c.out, "no symbols"));
	cmd_result_free(&c);
	log = sampled_run(dir, "stripped", "--sample=997", "./hs-stripped", &r, &report);
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(log);
	CU_ASSERT_PTR_NOT_NULL_FATAL(report);
	CU_ASSERT_PTR_NOT_NULL_FATAL(log->tasks[0].samples);
	CU_ASSERT(log->tasks[0].samples->total >= 1500);
	CU_ASSERT(self_share(report, "hot_a") < 0);
	CU_ASSERT(self_share(report, "? (hs-stripped)") > 95);
	CU_ASSERT_PTR_NOT_NULL(strstr(report, "__libc_start_call_main"));
	free(report);
	pvmmon_log_free(log);
	cmd_result_free(&r);
}

/* The program's CPU time (ms) and its early part, as it prints them; -1 when absent. */
static void cpu_of(const char *out, long *cpu, long *early)
{
	const char *p = out ? strstr(out, "hotspots: ") : NULL;

	*cpu = *early = -1;
	if (p && sscanf(p, "hotspots: a %*f b %*f cpu %ld ms early %ld ms", cpu, early) != 2)
		*cpu = *early = -1;
}

/*
 * Without an option a program not built with pvmmon-cc samples at the default 199 Hz,
 * from before its first PVM call: apps/hotspots' early mode computes in before_pvm for
 * a third of its CPU time before pvm_mytid, and the samples see it (at 199 Hz, some 900
 * samples over its 4.5 s: a share's uncertainty is under 2 points). --no-sample takes
 * none; bad rates are refused before any VM.
 */
static void test_default_on(void)
{
	const char *dir = harness_tmpdir();
	char prog[4096], *report = NULL;
	cmd_result r;
	pvmmon_log *log;
	long cpu, early;
	double want, got;

	snprintf(prog, sizeof(prog), "%s/hotspots", harness_bin());
	harness_sh(&r, RUN_TIMEOUT, "cd '%s' && %s/pvmmon run -q -o dflt.xml -- %s " STEPS " early",
	           dir, harness_bin(), prog);
	CU_ASSERT_EQUAL(r.status, 0);
	cpu_of(r.out, &cpu, &early);
	CU_ASSERT_FATAL(cpu > 0 && early > 0);
	cmd_result_free(&r);
	{
		char path[4096];

		snprintf(path, sizeof(path), "%s/dflt.xml", dir);
		CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, path), 0);
	}
	CU_ASSERT_PTR_NOT_NULL_FATAL(log->tasks[0].samples);
	CU_ASSERT_EQUAL(log->tasks[0].samples->hz, 199);
	CU_ASSERT(log->tasks[0].samples->total >= 500);
	pvmmon_log_free(log);
	harness_sh(&r, 60, "%s/pvmmon report '%s/dflt.xml'", harness_bin(), dir);
	report = r.out;
	want = 100.0 * (double)early / (double)(early + cpu);
	got = self_share(report, "before_pvm");
	if (got < want - 3 || got > want + 3)
		fprintf(stderr, "\nearly %ld ms of %ld: %.1f%%, sampled %.1f%%\n%s\n", early,
		        early + cpu, want, got, report);
	CU_ASSERT(got >= want - 3 && got <= want + 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(report, "main > before_pvm"));
	cmd_result_free(&r);

	log = sampled_run(dir, "plain", "--no-sample", prog, &r, &report);
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(log);
	CU_ASSERT_PTR_NULL(log->tasks[0].samples);
	CU_ASSERT_PTR_NULL(strstr(report, "Sampled procedures"));
	free(report);
	pvmmon_log_free(log);
	cmd_result_free(&r);
	/* Nor in preserve mode unless asked: its decisions go by virtual time. */
	log = sampled_run(dir, "pres", "--mode=preserve --no-record", prog, &r, NULL);
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(log);
	CU_ASSERT_PTR_NULL(log->tasks[0].samples);
	pvmmon_log_free(log);
	cmd_result_free(&r);
	harness_sh(&r, 30, "%s/pvmmon run --sample=0 -- true", harness_bin());
	CU_ASSERT_EQUAL(r.status, 2); /* usage */
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "--sample wants a rate"));
	cmd_result_free(&r);
	harness_sh(&r, 30, "%s/pvmmon run --sample --no-sample -- true", harness_bin());
	CU_ASSERT_EQUAL(r.status, 2); /* usage */
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "exclude each other"));
	cmd_result_free(&r);
}

/*
 * mcpi's three workers sampled: the report's table of all tasks merges their procedure
 * (by name and module) with the tasks counted and each task's samples summed; the page
 * has the merged table and a flame graph of the whole run besides each task's.
 */
static void test_all_tasks_merged(void)
{
	const char *dir = harness_tmpdir();
	char *report = NULL, *page, html[4096];
	unsigned long long sum = 0, self = 0, n;
	unsigned tasks = 0;
	const char *all, *p, *row;
	cmd_result r;
	pvmmon_log *log;
	int nworkers = 0;

	harness_sh(&r, RUN_TIMEOUT,
	           "cd '%s' && %s/pvmmon run -q --sample=997 -o all.xml -- %s/mcpi -w 3 -c 20 "
	           "-s 3000000 && %s/pvmmon report all.xml && %s/pvmmon report -o page all.xml",
	           dir, harness_bin(), harness_bin(), harness_bin(), harness_bin());
	CU_ASSERT_EQUAL_FATAL(r.status, 0);
	report = r.out;
	all = strstr(report, "\nall 4 sampled tasks: ");
	CU_ASSERT_PTR_NOT_NULL_FATAL(all);
	CU_ASSERT_PTR_NOT_NULL(strstr(all, "procedure                    module"));
	row = row_of(all, "mcpi_chunk_hits");
	CU_ASSERT_PTR_NOT_NULL_FATAL(row);
	CU_ASSERT_EQUAL(sscanf(row, " mcpi-worker %u %llu", &tasks, &self), 2);
	CU_ASSERT_EQUAL(tasks, 3);
	/* Each worker's own section: its samples of the same procedure. */
	for (p = strstr(report, "\ntask "); p; p = strstr(p + 1, "\ntask ")) {
		const char *worker = strstr(p, " (mcpi-worker): ");

		if (worker && worker < strchr(p + 1, '\n') &&
		    (row = row_of(p, "mcpi_chunk_hits")) && sscanf(row, " %llu", &n) == 1) {
			sum += n;
			nworkers++;
		}
	}
	CU_ASSERT_EQUAL(nworkers, 3);
	CU_ASSERT(self > 100);
	CU_ASSERT_EQUAL(self, sum);
	CU_ASSERT_PTR_NOT_NULL(strstr(all, "main > do_chunk > mcpi_chunk_hits (3 tasks)"));
	snprintf(html, sizeof(html), "%s/page/index.html", dir);
	page = harness_slurp(html, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(page);
	CU_ASSERT_PTR_NOT_NULL(strstr(page, "<h3>all 4 sampled tasks</h3>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(page, "id=sampled-all"));
	/* The whole run's flame graph first, then one per task with computing samples. */
	p = strstr(page, "<h3>all 4 sampled tasks</h3>");
	CU_ASSERT(p && strstr(p, "class=flame") && strstr(p, "class=flame") < strstr(p, "<h3>task "));
	free(page);
	log = NULL;
	snprintf(html, sizeof(html), "%s/all.xml", dir);
	CU_ASSERT_EQUAL(pvmmon_log_read(&log, html), 0);
	pvmmon_log_free(log);
	cmd_result_free(&r);
}

/*
 * apps/hotspots built with pvmmon-cc and sampled: the report gives both the sampled
 * share and the probed one (the probes' exclusive time over the task's compute time),
 * says which is which, and they agree within 3 points for hot_a and hot_b. Both
 * measure the same run's CPU time, so a busy machine changes them alike.
 */
static void test_probed_and_sampled_agree(void)
{
	const char *dir = harness_tmpdir();
	const char *names[] = {"hot_a", "hot_b"};
	cmd_result b, r;
	char *report = NULL;
	pvmmon_log *log;

	harness_sh(&b, 120, "cd '%s' && %s/pvmmon-cc -g -O2 -o hs-cc %s/../apps/hotspots.c -lpvm3",
	           dir, harness_bin(), harness_build());
	CU_ASSERT_EQUAL_FATAL(b.status, 0);
	cmd_result_free(&b);
	log = sampled_run(dir, "cc", "--sample=997", "./hs-cc", &r, &report);
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(log);
	CU_ASSERT_PTR_NOT_NULL_FATAL(report);
	CU_ASSERT(log->tasks[0].nprocs > 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(report, "self % and incl % are sampled; probed % is measured"));
	CU_ASSERT_PTR_NOT_NULL(strstr(report, "they differ by at most"));
	/* The clones pvmmon-cc makes (hot_a__pvmmon_on) are named as written. */
	CU_ASSERT_PTR_NULL(strstr(report, "__pvmmon_"));
	for (size_t i = 0; i < 2; i++) {
		const char *row = row_of(strstr(report, "\ntask 0 (hs-cc)"), names[i]);
		unsigned long long self, incl;
		double sp = -1, ip, ms, pp = -100;

		CU_ASSERT_PTR_NOT_NULL(row);
		CU_ASSERT_EQUAL(row ? sscanf(row, " %llu %lf%% %llu %lf%% %lf %lf%%", &self, &sp, &incl,
		                             &ip, &ms, &pp)
		                    : 0,
		                6);
		if (sp < pp - 3 || sp > pp + 3)
			fprintf(stderr, "\n%s: sampled %.1f probed %.1f\n%s\n", names[i], sp, pp, report);
		CU_ASSERT(sp >= pp - 3 && sp <= pp + 3);
		CU_ASSERT(pp > (i == 0 ? 50 : 22) && pp < (i == 0 ? 70 : 38));
	}
	free(report);
	pvmmon_log_free(log);
	cmd_result_free(&r);
}

/*
 * apps/hotf.f (gfortran, -lfpvm3): its subroutines named as written (hotsub, not the
 * symbol hotsub_), their shares within 3 points of the program's own CPU-time
 * measurement (STEPS steps: about 5 s of CPU time, some 5000 samples at 997 Hz). Built with -g
 * (named from the debug information) and without (from the symbols of a binary that
 * needs libgfortran; -fno-inline, or gfortran puts each routine, called once, into the
 * main program, where no tool could tell them apart).
 */
static void test_fortran_names(void)
{
	static const char *const flags[] = {"-O2 -g", "-O2 -fno-inline"};

	for (size_t i = 0; i < 2; i++) {
		const char *dir = harness_tmpdir();
		char *report = NULL;
		double hot = -1, warm = -1, sh, sw;
		cmd_result r;
		pvmmon_log *log;

		if (harness_gfortran(dir, "hotf", flags[i], "") != 0)
			return;
		log = sampled_run(dir, "f", "--sample=997", "./hotf", &r, &report);
		CU_ASSERT_EQUAL(r.status, 0);
		CU_ASSERT_PTR_NOT_NULL_FATAL(log);
		CU_ASSERT_PTR_NOT_NULL_FATAL(report);
		CU_ASSERT_EQUAL(sscanf(r.out, "hotf: hot %lf warm %lf", &hot, &warm), 2);
		CU_ASSERT(hot > 60 && hot < 80);
		sh = self_share(report, "hotsub");
		sw = self_share(report, "warmsb");
		if (sh < hot - 3 || sh > hot + 3 || sw < warm - 3 || sw > warm + 3)
			fprintf(stderr, "\n%s: measured hot %.1f warm %.1f, sampled %.1f %.1f\n%s\n",
			        flags[i], hot, warm, sh, sw, report);
		CU_ASSERT(sh >= hot - 3 && sh <= hot + 3);
		CU_ASSERT(sw >= warm - 3 && sw <= warm + 3);
		CU_ASSERT(self_share(report, "hotsub_") < 0);
		CU_ASSERT_PTR_NOT_NULL(strstr(report, " > hotsub\n"));
		free(report);
		pvmmon_log_free(log);
		cmd_result_free(&r);
	}
}

/* One sampled run of tablix2 on hint.xml in dir: the fitness modules' self share and
 * new_generation's inclusive share (-1 when not read); *ga whether the genetic
 * algorithm's paths are there. The output goes to stderr when told. */
static void tablix2_shares(const char *dir, double *fit, double *gen, int *ga, int tell)
{
	cmd_result r;

	*fit = *gen = -1;
	harness_sh(&r, RUN_TIMEOUT,
	           "cd '%s' && cp /usr/share/doc/tablix2/examples/hint.xml . && rm -rf csv && "
	           "%s/pvmmon run -q "
	           "--sample=997 -o tx.xml -- tablix2 -n 2 -d 1 -p popsize=10000 -o hint- hint.xml "
	           ">/dev/null && %s/pvmmon export tx.xml --csv csv && /usr/bin/python3 -c '"
	           "import csv, os\n"
	           "mods = set(os.listdir(\"/usr/lib/x86_64-linux-gnu/tablix2\"))\n"
	           "rows = list(csv.DictReader(open(\"csv/sampled_procedures_all.csv\")))\n"
	           "paths = list(csv.DictReader(open(\"csv/sampled_paths_all.csv\")))\n"
	           "print(\"fitness %%f\" %% sum(float(p[\"self_share\"]) for p in rows "
	           "if p[\"module\"] in mods))\n"
	           "print(\"new_generation %%s\" %% [p[\"inclusive_share\"] for p in rows "
	           "if p[\"procedure\"] == \"new_generation\" and p[\"module\"] == "
	           "\"tablix2_kernel\"][0])\n"
	           "print(\"ga paths %%d\" %% sum(p[\"path\"].startswith("
	           "\"main > main_loop > new_generation\") for p in paths))'",
	           dir, harness_bin(), harness_bin());
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_EQUAL(sscanf(r.out, "fitness %lf\nnew_generation %lf", fit, gen), 2);
	*ga = strstr(r.out, "ga paths ") && !strstr(r.out, "ga paths 0\n");
	if (tell || *fit < 0.1 || *gen < 0.5 || !*ga)
		fprintf(stderr, "\ntablix2 sampled: %s\n", r.out);
	cmd_result_free(&r);
}

static double median3(double a, double b, double c)
{
	return a > b ? (b > c ? b : (a > c ? c : a)) : (a > c ? a : (b > c ? c : b));
}

/*
 * Debian's tablix2 (skipped when it is not installed) sampled with its two kernels: the
 * hottest path of all tasks is the kernels' genetic algorithm (main > main_loop >
 * new_generation), new_generation holds most computing samples, and the fitness
 * modules it loads (its plugins in /usr/lib/x86_64-linux-gnu/tablix2) hold a good part
 * of them by themselves: 44% and 72% over a run of hint.xml, 87% and 97% over the long
 * sample2.xml (4.7 minutes here, too long for the suite; its report puts the modules'
 * fitness and module_fitness on top). hint.xml is solved within a few generations, so
 * how much of the run the genetic algorithm takes varies from run to run. With the
 * population of 3,000 (about 40 computing samples) two runs in 24 gave the modules no
 * sample at all; a population of 10,000 gives 65 to 125 computing samples and, over 8
 * runs, the modules 24% to 61% and new_generation 63% to 82% (30,000: 19% to 43%,
 * 56% to 81%). Under the whole suite's load a run fell below once (new_generation 47%,
 * 2026-11-29; ten runs alone then gave 62% to 84%, and 55% to 82% with the build
 * before). The bounds are set below those spreads, and a run that misses them is judged
 * with two more by the medians: an attribution gone wrong moves every run alike.
 */
static void test_tablix2_named(void)
{
	const char *dir = harness_tmpdir();
	double fit[3], gen[3], f, g;
	int ga[3], n = 1;

	if (access("/usr/bin/tablix2", X_OK) != 0 ||
	    access("/usr/share/doc/tablix2/examples/hint.xml", R_OK) != 0) {
		fprintf(stderr, "\n  skipped: tablix2 or tablix2-doc is not installed (scripts/setup.sh "
		                "installs them) ");
		return;
	}
	tablix2_shares(dir, &fit[0], &gen[0], &ga[0], 0);
	f = fit[0];
	g = gen[0];
	if ((f < 0.1 || g < 0.5) && !harness_slowed()) {
		for (; n < 3; n++)
			tablix2_shares(dir, &fit[n], &gen[n], &ga[n], 1);
		f = median3(fit[0], fit[1], fit[2]);
		g = median3(gen[0], gen[1], gen[2]);
	}
	/* The shares are loose (above); a sanitized hooks library moves them further (12%
	 * for the fitness modules seen under ASan), so there only the names are checked. */
	CU_ASSERT(f >= 0.1 || harness_slowed());
	CU_ASSERT(g >= 0.5 || harness_slowed());
	/* The genetic algorithm's paths are there; which one is hottest varies with so few
	 * samples (a fitness module's, or new_generation's own). */
	for (int i = 0; i < n; i++)
		CU_ASSERT(ga[i]);
}

/*
 * apps/hotspots killed by SIGKILL, and faulting, after computing: the log keeps its
 * samples to its last flush (the flush period of 100 ms has passed by the PVM calls
 * after its compute; the program waits until pvmd has them), with the shares right.
 */
static void test_dead_task_keeps_samples(void)
{
	static const char *const how[] = {"kill", "segv"};

	for (size_t i = 0; i < 2; i++) {
		const char *dir = harness_tmpdir();
		char prog[4200], *report = NULL;
		double a = -1, b = -1, sa;
		cmd_result r;
		pvmmon_log *log;

		snprintf(prog, sizeof(prog), "%s/hotspots", harness_bin());
		harness_sh(&r, RUN_TIMEOUT,
		           "cd '%s' && %s/pvmmon run -q --sample=997 --flush-ms=100 -o d.xml -- %s "
		           "1000000000 %s; echo status $?; %s/pvmmon report d.xml",
		           dir, harness_bin(), prog, how[i], harness_bin());
		report = r.out;
		/* Killed: 128 + 9. Faulting: 128 + 11, or 1 from ASan's own handler of the
		 * fault in a sanitized build. */
		CU_ASSERT(strstr(report, i == 0 ? "status 137" : "status 139") ||
		          (i == 1 && harness_slowed() && strstr(report, "status 1\n")));
		CU_ASSERT_EQUAL(sscanf(report, "hotspots: a %lf b %lf", &a, &b), 2);
		snprintf(prog, sizeof(prog), "%s/d.xml", dir);
		log = NULL;
		CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, prog), 0);
		CU_ASSERT_EQUAL(log->ntasks, 1);
		CU_ASSERT_STRING_EQUAL(pvmmon_task_status_name(log->tasks[0].status), "crashed");
		CU_ASSERT_PTR_NOT_NULL_FATAL(log->tasks[0].samples);
		/* About 1.4 s of CPU time computed before the last flush. */
		CU_ASSERT(log->tasks[0].samples->total >= 700);
		sa = self_share(report, "hot_a");
		if (sa < a - 3 || sa > a + 3)
			fprintf(stderr, "\n%s: measured a %.1f, sampled %.1f\n%s\n", how[i], a, sa, report);
		CU_ASSERT(sa >= a - 3 && sa <= a + 3);
		pvmmon_log_free(log);
		cmd_result_free(&r);
	}
}

/* The same program built with pvmmon-cc has its probes: no samples unless asked. */
static void test_cc_build_not_by_default(void)
{
	const char *dir = harness_tmpdir();
	cmd_result r;
	pvmmon_log *log = NULL;
	char path[4096];

	harness_sh(&r, 120, "cd '%s' && %s/pvmmon-cc -O2 -o hs-cc %s/../apps/hotspots.c -lpvm3",
	           dir, harness_bin(), harness_build());
	CU_ASSERT_EQUAL_FATAL(r.status, 0);
	cmd_result_free(&r);
	harness_sh(&r, RUN_TIMEOUT,
	           "cd '%s' && %s/pvmmon run -q -o cc.xml -- ./hs-cc 300000000 && "
	           "%s/pvmmon run -q --sample -o ccs.xml -- ./hs-cc 300000000",
	           dir, harness_bin(), harness_bin());
	CU_ASSERT_EQUAL(r.status, 0);
	cmd_result_free(&r);
	snprintf(path, sizeof(path), "%s/cc.xml", dir);
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, path), 0);
	/* Built with pvmmon-cc: its procedures are probed, and nothing is sampled. */
	CU_ASSERT(log->tasks[0].nprocs > 0);
	CU_ASSERT_PTR_NULL(log->tasks[0].samples);
	pvmmon_log_free(log);
	snprintf(path, sizeof(path), "%s/ccs.xml", dir);
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, path), 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(log->tasks[0].samples);
	CU_ASSERT(log->tasks[0].samples->total > 0);
	pvmmon_log_free(log);
}

/* Starts `pvmmon run OPTS -o NAME.xml -- hotspots STEPS` in the background in dir, its
 * output and status in NAME.out; returns once the task is registered (pvmmon top shows
 * it; polled every 50 ms, bounded by the run's own timeout), 0 if it never was. */
static int start_and_wait(const char *dir, const char *name, const char *opts)
{
	cmd_result r;
	int seen = 0;

	harness_sh(&r, 30,
	           "cd '%s' && { timeout %d %s/pvmmon run -q %s -o %s.xml -- %s/hotspots " STEPS
	           " >%s.out 2>&1; echo rc=$? >>%s.out; } </dev/null >/dev/null 2>&1 &",
	           dir, RUN_TIMEOUT, harness_bin(), opts, name, harness_bin(), name, name);
	cmd_result_free(&r);
	for (int i = 0; i < RUN_TIMEOUT * 10 && !seen; i++) {
		harness_sh(&r, 30, "cd '%s' && %s/pvmmon top --once %s.xml 2>/dev/null | "
		                   "grep -q ', 1 task '",
		           dir, harness_bin(), name);
		seen = r.status == 0;
		cmd_result_free(&r);
		if (!seen)
			poll(NULL, 0, 50);
	}
	return seen;
}

/* Waits for the background run of start_and_wait to end; its output (heap). */
static char *run_output(const char *dir, const char *name)
{
	char path[4096];
	char *out = NULL;

	snprintf(path, sizeof(path), "%s/%s.out", dir, name);
	for (int i = 0; i < RUN_TIMEOUT * 20; i++) {
		free(out);
		out = harness_slurp(path, NULL);
		if (out && strstr(out, "rc="))
			return out;
		poll(NULL, 0, 50);
	}
	return out;
}

/* The log's switch of sampling (resource "sample..."), or NULL. */
static const pvmmon_log_switch *sample_switch(const pvmmon_log *log)
{
	for (size_t i = 0; i < log->nswitches; i++)
		if (!strncmp(log->switches[i].resource, "sample", 6))
			return &log->switches[i];
	return NULL;
}

/*
 * `pvmmon ctl sample` while hotspots runs (it makes a PVM call each round, so it takes
 * commands while it computes): a run without samples gets them at 997 Hz from the
 * switch on; a run sampling at 997 Hz stops, keeping the few it took. The switch comes
 * once the task is registered, near the start of its 3 s of CPU time: the samples of
 * the run switched off are under half what the whole run would have (about 2990) even
 * if the command took a second of its CPU time to arrive on a busy machine.
 */
static void test_ctl_sample(void)
{
	const char *dir = harness_tmpdir();
	char path[4096], *out;
	cmd_result r;
	pvmmon_log *log = NULL;
	const pvmmon_log_switch *w;
	long cpu, early;

	CU_ASSERT_FATAL(start_and_wait(dir, "on", "--no-sample"));
	harness_sh(&r, 60, "cd '%s' && %s/pvmmon ctl sample 997 on.xml", dir, harness_bin());
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "call-path sampling at 997 Hz"));
	cmd_result_free(&r);
	out = run_output(dir, "on");
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "rc=0"));
	free(out);
	snprintf(path, sizeof(path), "%s/on.xml", dir);
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, path), 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(log->tasks[0].samples);
	CU_ASSERT_EQUAL(log->tasks[0].samples->hz, 997);
	CU_ASSERT(log->tasks[0].samples->total > 0);
	w = sample_switch(log);
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	CU_ASSERT(w->on && !strcmp(w->resource, "sample=997") && !strcmp(w->by, "user"));
	pvmmon_log_free(log);

	CU_ASSERT_FATAL(start_and_wait(dir, "off", "--sample=997"));
	harness_sh(&r, 60, "cd '%s' && %s/pvmmon ctl sample off off.xml", dir, harness_bin());
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "call-path sampling off"));
	cmd_result_free(&r);
	out = run_output(dir, "off");
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "rc=0"));
	cpu_of(out, &cpu, &early);
	free(out);
	CU_ASSERT_FATAL(cpu > 0);
	snprintf(path, sizeof(path), "%s/off.xml", dir);
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, path), 0);
	/* What it took before the switch stays (it may be none). */
	if (log->tasks[0].samples) {
		if (log->tasks[0].samples->total * 2 >= (uint64_t)cpu)
			fprintf(stderr, "\n%llu samples at 997 Hz in %ld ms of CPU time\n",
			        (unsigned long long)log->tasks[0].samples->total, cpu);
		CU_ASSERT(log->tasks[0].samples->total * 2 < (uint64_t)cpu);
	}
	w = sample_switch(log);
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	CU_ASSERT(!w->on && !strcmp(w->resource, "sample"));
	pvmmon_log_free(log);

	/* Bad input, before any run is asked. */
	harness_sh(&r, 30, "cd '%s' && %s/pvmmon ctl sample fast off.xml", dir, harness_bin());
	CU_ASSERT_EQUAL(r.status, 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "on, off or a rate from 1 to 10000 Hz"));
	cmd_result_free(&r);
}

CU_TestInfo test_sampling_tests[] = {
    {"hot functions' sampled shares within 3 points of their CPU time",
     test_hot_functions_shares},
    {"a stripped copy: its own code is ?, libc's is named", test_stripped_copy},
    {"on by default, from before the first PVM call; --no-sample; bad rates refused",
     test_default_on},
    {"a pvmmon-cc build samples only when asked", test_cc_build_not_by_default},
    {"pvmmon ctl sample on and off while the program runs", test_ctl_sample},
    {"all tasks merged: mcpi's workers' procedure summed, the run's flame graph",
     test_all_tasks_merged},
    {"a pvmmon-cc build: probed and sampled shares within 3 points, said which is which",
     test_probed_and_sampled_agree},
    {"Fortran (gfortran, -lfpvm3): subroutines named as written, shares within 3 points",
     test_fortran_names},
    {"tablix2 sampled: its genetic algorithm and fitness modules named", test_tablix2_named},
    {"a task killed or faulting keeps its samples to its last flush",
     test_dead_task_keeps_samples},
    CU_TEST_INFO_NULL,
};
