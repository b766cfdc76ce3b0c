/*
 * `pvmmon run`: makes sure there is a virtual machine (a private one by default),
 * starts the monitor, runs the program with the hooks library preloaded, tells the
 * monitor when the program ended, waits for the log, and halts the private VM.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../common/vm.h"
#include "cli.h"
#include "pvmmon/errors.h"
#include "pvmmon/log.h"
#include "runopts.h"

static volatile sig_atomic_t got_signal;
/* How often an interrupted run passes the signal on again to a program that goes on. */
#define STOP_REPEAT_S 5

static void on_signal(int sig) { got_signal = sig; }

int cli__run_file_write(const char *log, const char *pvm_tmp, long monitor_pid, long pvmd_pid,
                        unsigned long long token)
{
	char *path = NULL, *tmp = NULL;
	FILE *f;
	int fd, rc;

	if (asprintf(&path, "%s.run", log) < 0 ||
	    asprintf(&tmp, "%s.run.%d", log, (int)getpid()) < 0) {
		rc = pvmmon_error_set(PVMMON_ENOMEM, "%s.run: out of memory", log);
		goto out;
	}
	/* Written aside and renamed, 0600, never through a symlink. */
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		rc = pvmmon_error_set(PVMMON_EIO, "cannot create %s: %s", tmp, strerror(errno));
		if (fd >= 0)
			close(fd);
		free(tmp);
		tmp = NULL;
		goto out;
	}
	fprintf(f, "pvm_tmp=%s\nlog=%s\npid=%d\nmonitor_pid=%ld\npvmd_pid=%ld\ntoken=%016llx\n",
	        pvm_tmp, log, (int)getpid(), monitor_pid, pvmd_pid, token);
	/* A full disk shows only here, when the buffered text is written out. */
	if (fclose(f) != 0)
		rc = pvmmon_error_set(PVMMON_EIO, "cannot write %s: %s", path, strerror(errno));
	else if (rename(tmp, path) != 0)
		rc = pvmmon_error_set(PVMMON_EIO, "cannot write %s: %s", path, strerror(errno));
	else
		rc = 0;
out:
	if (rc < 0 && tmp)
		unlink(tmp);
	free(path);
	free(tmp);
	return rc;
}

void cli__run_file_remove(const char *log)
{
	char *path = NULL;

	if (asprintf(&path, "%s.run", log) >= 0)
		unlink(path);
	free(path);
}

/* Finds PROGRAM as a shell would: a path if it has a slash, else on PATH. */
static char *find_program(const char *name)
{
	char buf[PATH_MAX];
	const char *path = getenv("PATH");
	const char *p;

	if (strchr(name, '/'))
		return access(name, X_OK) == 0 ? realpath(name, NULL) : NULL;
	for (p = path ? path : "/usr/bin:/bin"; *p;) {
		const char *e = strchr(p, ':');
		size_t n = e ? (size_t)(e - p) : strlen(p);

		snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, n ? p : ".", name);
		if (access(buf, X_OK) == 0)
			return realpath(buf, NULL);
		p += n + (e ? 1 : 0);
	}
	return NULL;
}

/* The log path: as given, or the program's name + .pvmmon.xml in the current folder;
 * its folder must exist and be writable before anything runs. */
static char *log_path(const cli_run_opts *o, const char *program)
{
	char cwd[PATH_MAX], *path, *dir, *slash;
	const char *base = strrchr(program, '/');

	if (o->output && o->output[0] == '/') {
		path = strdup(o->output);
	} else if (!getcwd(cwd, sizeof(cwd))) {
		/* A folder removed since the shell entered it (ENOENT), or a path too long. */
		cli__error("run: cannot name the log: the current folder cannot be found (%s); "
		           "give -o with a full path",
		           strerror(errno));
		path = NULL;
	} else if (o->output) {
		if (asprintf(&path, "%s/%s", cwd, o->output) < 0)
			path = NULL;
	} else if (asprintf(&path, "%s/%s.%spvmmon.xml", cwd, base ? base + 1 : program,
	                    o->replay ? "replay." : "") < 0) {
		/* A replay never writes over the log it replays. */
		path = NULL;
	}
	if (!path)
		return NULL;
	dir = strdup(path);
	slash = dir ? strrchr(dir, '/') : NULL;
	if (slash) {
		*slash = '\0';
		/* Checked before anything starts (a log that cannot be written: no run);
		 * access() also sees a read-only file system, which root's bits do not. */
		if (access(*dir ? dir : "/", W_OK) != 0) {
			cli__error("run: cannot write the log '%s' into its folder '%s': %s", path,
			           *dir ? dir : "/", strerror(errno));
			free(dir);
			free(path);
			return NULL;
		}
	}
	free(dir);
	return path;
}

typedef struct monitor_proc {
	pid_t pid;
	int ctl;                  /* write end of its standard input */
	int out;                  /* read end of its standard output */
	unsigned long long token; /* the run's token, from its "ready" line */
} monitor_proc;

/*
 * The monitor's command line into *out (the caller frees the vector, not its words):
 * the wrapper's words (split in place), then mon and what o asks for. Returns 0 or
 * PVMMON_ENOMEM. num holds the numbers' text, so it must live as long as the vector.
 */
static int monitor_argv(char ***out, char num[8][32], const cli_run_opts *o, char *wrapper,
                        const char *mon, const char *log, const char *program)
{
	char **argv, *word, *save = NULL;
	size_t na = 0;
	int i, n = 0;

	for (i = 1; o->prog_argv[i]; i++)
		n++;
	for (i = 0; wrapper && wrapper[i]; i++)
		n += wrapper[i] == ' ';
	*out = argv = calloc((size_t)(40 + 2 * n), sizeof(char *));
	if (!argv)
		return PVMMON_ENOMEM;
	snprintf(num[0], 32, "%d", o->flush_ms);
	snprintf(num[1], 32, "%d", o->linger_ms);
	for (word = wrapper ? strtok_r(wrapper, " ", &save) : NULL; word;
	     word = strtok_r(NULL, " ", &save))
		argv[na++] = word;
	argv[na++] = (char *)mon;
	argv[na++] = "--log";
	argv[na++] = (char *)log;
	argv[na++] = "--flush-ms";
	argv[na++] = num[0];
	argv[na++] = "--linger-ms";
	argv[na++] = num[1];
	argv[na++] = "--program";
	argv[na++] = (char *)program;
	if (o->cp) {
		argv[na++] = "--cp";
		argv[na++] = (char *)o->cp;
	}
	if (o->cp_top) {
		snprintf(num[2], 32, "%d", o->cp_top);
		argv[na++] = "--cp-top";
		argv[na++] = num[2];
	}
	if (o->cp_phase_ms) {
		snprintf(num[3], 32, "%d", o->cp_phase_ms);
		argv[na++] = "--cp-phase-ms";
		argv[na++] = num[3];
	}
	if (o->cp_exclusive)
		argv[na++] = "--cp-exclusive";
	if (o->budget) {
		argv[na++] = "--budget";
		argv[na++] = (char *)o->budget;
	}
	/* Time histograms: the defaults unless told otherwise. */
	snprintf(num[5], 32, "%d", o->hist_buckets);
	snprintf(num[6], 32, "%lld", o->hist_width_ns);
	snprintf(num[7], 32, "%d", o->hist_hottest);
	argv[na++] = "--hist-buckets";
	argv[na++] = num[5];
	argv[na++] = "--hist-width-ns";
	argv[na++] = num[6];
	argv[na++] = "--hist-hottest";
	argv[na++] = num[7];
	if (o->no_histograms)
		argv[na++] = "--no-histograms";
	if (o->histogram) {
		argv[na++] = "--histogram";
		argv[na++] = (char *)o->histogram;
	}
	if (o->replay) {
		argv[na++] = "--replay";
		argv[na++] = (char *)o->replay;
		if (o->keep_going) {
			argv[na++] = "--on-divergence";
			argv[na++] = "continue-recording";
		}
		if (o->stop_at) {
			argv[na++] = "--stop-at";
			argv[na++] = (char *)o->stop_at;
		}
	} else if (o->no_record) {
		argv[na++] = "--no-record";
	}
	if (o->preserve)
		argv[na++] = "--preserve";
	if (o->deadlock_abort)
		argv[na++] = "--deadlock-abort";
	if (o->trace_bytes) {
		snprintf(num[4], 32, "%llu", o->trace_bytes);
		argv[na++] = "--trace-bytes";
		argv[na++] = num[4];
	}
	for (i = 1; o->prog_argv[i]; i++) {
		argv[na++] = "--arg";
		argv[na++] = o->prog_argv[i];
	}
	return 0;
}

/* Reads the monitor's "ready TID TOKEN" line into m->token; 0, or PVMMON_ETIMEOUT
 * after saying so when it does not come within timeout_ms. */
static int wait_ready(monitor_proc *m, int timeout_ms)
{
	char line[128];
	struct pollfd p;
	ssize_t got = 0;

	p.fd = m->out;
	p.events = POLLIN;
	while (got < (ssize_t)sizeof(line) - 1 && poll(&p, 1, timeout_ms) > 0) {
		ssize_t r = read(m->out, line + got, sizeof(line) - 1 - (size_t)got);

		if (r <= 0)
			break;
		got += r;
		if (memchr(line, '\n', (size_t)got))
			break;
	}
	line[got > 0 ? got : 0] = '\0';
	if (strncmp(line, "ready", 5) != 0) {
		cli__error("run: the monitor did not start (is another pvmmon monitor running "
		           "in this VM?)");
		return PVMMON_ETIMEOUT;
	}
	/* The token goes into the run file for pvmmon top and cp. */
	m->token = 0;
	sscanf(line, "ready %*d %llx", &m->token);
	return 0;
}

/* Starts pvmmon-monitor and waits for its "ready" line; 0 or a negative code. */
static int start_monitor(monitor_proc *m, const cli_run_opts *o, const char *log,
                         const char *program)
{
	static const char *const cand[] = {"pvmmon-monitor", NULL};
	char *mon = NULL;
	/* PVMMON_MONITOR_WRAPPER (for tests, such as "valgrind --error-exitcode=9"): words
	 * that go before the monitor's command, so a checker can run it. */
	const char *wrap_env = getenv("PVMMON_MONITOR_WRAPPER");
	char *wrapper = wrap_env && *wrap_env ? strdup(wrap_env) : NULL;
	int in[2] = {-1, -1}, out[2] = {-1, -1}, rc;
	char num[8][32], **argv = NULL;

	/* Preserve mode's waits go to the hang rules after the tasks' threshold. */
	if (o->wait_ms > 0) {
		snprintf(num[0], sizeof(num[0]), "%d", o->wait_ms);
		setenv("PVMMON_WAIT_MS", num[0], 1);
	}
	rc = cli__sibling(&mon, cand);
	if (rc < 0) {
		cli__error("run: pvmmon-monitor is not installed beside pvmmon");
		goto out;
	}
	rc = monitor_argv(&argv, num, o, wrapper, mon, log, program);
	if (rc == 0 && (pipe(in) < 0 || pipe(out) < 0))
		rc = PVMMON_EIO;
	if (rc < 0)
		goto out;
	m->pid = fork();
	if (m->pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		close(in[0]);
		close(in[1]);
		close(out[0]);
		close(out[1]);
		unsetenv("LD_PRELOAD");
		execvp(argv[0], argv);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	m->ctl = in[1];
	m->out = out[0];
	if (m->pid < 0) {
		rc = PVMMON_ERROR;
		goto out;
	}
	/* The monitor answers within a second; ten allow for a loaded machine, and sixty
	 * for a checker such as valgrind, under which it starts many times slower. */
	rc = wait_ready(m, wrapper ? 60000 : 10000);
out:
	free(argv);
	free(mon);
	free(wrapper);
	return rc;
}

/* Waits for pid up to timeout_ms; returns its wait status, PVMMON_ETIMEOUT when it has
 * not ended, PVMMON_ERROR when it cannot be waited for. */
static int wait_for(pid_t pid, int timeout_ms)
{
	int status, waited;

	for (waited = 0; waited <= timeout_ms; waited += 20) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid)
			return status;
		if (r < 0 && errno != EINTR)
			return pvmmon_error_set(PVMMON_ERROR,
			                        "run: cannot wait for process %ld: %s", (long)pid,
			                        strerror(errno));
		usleep(20000);
	}
	return pvmmon_error_set(PVMMON_ETIMEOUT, "run: process %ld did not end within %d ms",
	                        (long)pid, timeout_ms);
}

/* The pvmd log settles when its size has not changed for this long: what tasks printed
 * reaches it through pvmd's own loop (from other hosts through their pvmds), after the
 * tasks' exits may have been seen. At most OUTPUT_WAIT_MS is spent waiting. */
#define OUTPUT_SETTLE_MS 150
#define OUTPUT_WAIT_MS 2000

static void wait_output_settled(const char *path)
{
	struct stat st;
	off_t last = -1;
	int still = 0;

	for (int waited = 0; waited < OUTPUT_WAIT_MS && still < OUTPUT_SETTLE_MS; waited += 25) {
		off_t now = stat(path, &st) == 0 ? st.st_size : -1;

		still = now == last ? still + 25 : 0;
		last = now;
		usleep(25000);
	}
}

/* Shows what spawned tasks printed (with -q too: it is the program's output): PVM sends
 * it to the pvmd log of the private VM, which disappears with the VM. */
static void show_task_output(const pvmmon_vm *vm, int quiet)
{
	char path[PATH_MAX], line[4096];
	FILE *f;
	int header = 0;

	snprintf(path, sizeof(path), "%s/pvml.%u", pvmmon_vm_tmpdir(vm), (unsigned)getuid());
	wait_output_settled(path);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *p = line;
		unsigned long tid;

		/* Task output lines look like "[t40002] text", which pvmd writes behind its
		 * own tid and the date: "[t80040000] 11/23 03:19:43 [t40002] text". pvmd's own
		 * lines carry only its tid, which has the top bit set. */
		if (p[0] == '[' && p[1] == 't' && (strtoul(p + 2, NULL, 16) & 0x80000000ul)) {
			p = strstr(p, "] ");
			p = p ? strstr(p, " [t") : NULL;
			if (!p)
				continue;
			p++;
		}
		if (p[0] != '[' || p[1] != 't')
			continue;
		tid = strtoul(p + 2, NULL, 16);
		if (tid & 0x80000000ul)
			continue;
		/* -q quiets pvmmon, not the program: the lines stay, the heading goes. */
		if (!header++ && !quiet)
			fprintf(stderr, "pvmmon: output of spawned tasks:\n");
		fputs(p, stderr);
	}
	fclose(f);
}

/* The monitored program's environment: the hooks preloaded, what they are to do. */
static void child_env(const cli_run_opts *o, const char *hooks)
{
	char flush[16];

	setenv("LD_PRELOAD", hooks, 1);
	snprintf(flush, sizeof(flush), "%d", o->flush_ms);
	setenv("PVMMON_FLUSH_MS", flush, 1);
	if (o->wait_ms > 0) {
		char wait[32];

		snprintf(wait, sizeof(wait), "%d", o->wait_ms);
		setenv("PVMMON_WAIT_MS", wait, 1);
	}
	setenv("PVMMON_THROTTLE", cli__run_throttle(o), 1);
	if (o->check)
		setenv("PVMMON_CHECK", o->check, 1);
	/* Sampling: --sample's rate, or "auto" (programs without pvmmon-cc); none with
	 * --no-sample, nor in preserve mode unless asked (its time enters virtual time). */
	if (o->sample_hz) {
		char hz[16];

		snprintf(hz, sizeof(hz), "%d", o->sample_hz);
		setenv("PVMMON_SAMPLE", hz, 1);
	} else if (o->no_sample || o->preserve) {
		unsetenv("PVMMON_SAMPLE");
	} else {
		setenv("PVMMON_SAMPLE", "auto", 1);
	}
	/* The monitor is already there; tasks must not start another. */
	setenv("PVMMON_NO_AUTOSTART", "1", 1);
	/* A task that records registers at its first clock read (pvmhooks/sources.c). */
	setenv("PVMMON_RR", o->replay || !o->no_record ? "1" : "0", 1);
}

/*
 * Runs the program with the preload (none when hooks is NULL); returns its wait
 * status, or PVMMON_ERROR when it cannot start. The monitor is told the program's
 * process group on ctl (-1: none).
 * When monitor is a live pid and the monitor ends first (a replay that diverged), the
 * program is stopped: *monitor_status gets the monitor's status and monitor is set to
 * -1 through it.
 */
static int run_program(const cli_run_opts *o, const char *program, const char *hooks, int ctl,
                       pid_t *monitor, int *monitor_status)
{
	pid_t pid;
	int status = -1, told = 0, main_done = 0, tty;
	struct timespec told_at = {0, 0}, now;

	pid = fork();
	if (pid == 0) {
		const char *old = getenv("PVM_EXPORT");

		cli__group_enter();
		char *exp = NULL;

		if (!hooks) {
			/* --raw: a program linked with libpvmhooks (built with pvmmon-cc) must
			 * not start a monitor of its own either. */
			setenv("PVMMON_PASSIVE", "1", 1);
			if (asprintf(&exp, "%s%sPVMMON_PASSIVE", old ? old : "",
			             old && *old ? ":" : "") >= 0)
				setenv("PVM_EXPORT", exp, 1);
			execv(program, o->prog_argv);
			fprintf(stderr, "pvmmon: cannot run %s: %s\n", program, strerror(errno));
			_exit(127);
		}
		child_env(o, hooks);
		exp = cli__run_export_list(old, o->wait_ms > 0);
		if (exp)
			setenv("PVM_EXPORT", exp, 1);
		execv(program, o->prog_argv);
		fprintf(stderr, "pvmmon: cannot run %s: %s\n", program, strerror(errno));
		_exit(127);
	}
	if (pid < 0)
		return pvmmon_error_set(PVMMON_ERROR, "cannot start a process: %s",
		                        strerror(errno));
	cli__group_adopt(pid);
	/* The monitor judges a program whose tasks all wait for anyone by its group: while a
	 * process of it is no task (a script), a task may still join (monitor/pgroup.c). */
	if (ctl >= 0) {
		char line[32];
		int len = snprintf(line, sizeof(line), "group %ld\n", (long)pid);

		if (write(ctl, line, (size_t)len) < 0)
			cli__error("run: lost contact with the monitor");
	}
	tty = cli__group_foreground(pid);
	/* The run lasts while any process of the program's group does: a script's
	 * background jobs may still start tasks after the script has exited. */
	while (!cli__group_reap(pid, &status, &main_done)) {
		if (monitor && *monitor > 0) {
			/* A replay that diverged (status 3) or a hang with --on-hang=abort (4)
			 * stops the run, the whole group; a monitor that died otherwise leaves the
			 * program to finish, unmonitored. */
			if (waitpid(*monitor, monitor_status, WNOHANG) == *monitor) {
				*monitor = -1;
				/* Stopped by us (below): its log is written; the program ends. */
				if (got_signal) {
					monitor = NULL;
					continue;
				}
				if (WIFEXITED(*monitor_status) &&
				    (WEXITSTATUS(*monitor_status) == 3 ||
				     WEXITSTATUS(*monitor_status) == 4)) {
					cli__group_end(pid, &status, &main_done);
					break;
				}
				cli__error(
				    "run: the monitor ended during the run; the program goes on "
				    "unmonitored");
				monitor = NULL;
				continue;
			}
		}
		/* Ctrl-C reaches pvmmon, and a signal sent to pvmmon alone as well: either is
		 * passed on to the program's group so the run ends either way. The monitor is
		 * told first: it stops every task and takes their last records
		 * (monitor/ending.c). The signal goes once, then again every STOP_REPEAT_S
		 * while the program runs: a second one at once would end a task before its
		 * handler sends its records. */
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (got_signal && (!told || now.tv_sec - told_at.tv_sec >= STOP_REPEAT_S)) {
			if (!told && monitor && *monitor > 0)
				kill(*monitor, SIGTERM);
			cli__group_signal(pid, got_signal);
			told = 1;
			told_at = now;
		}
		usleep(20000);
	}
	cli__group_background(tty);
	/* A Ctrl-C typed went to the program's group, not to pvmmon: the monitor stops the
	 * tasks it spawned (children of the pvmd), as for a signal to pvmmon. */
	if (tty && !told && monitor && *monitor > 0 && WIFSIGNALED(status) &&
	    WTERMSIG(status) == SIGINT)
		kill(*monitor, SIGTERM);
	return status;
}

static int run_main(int argc, char **argv, const char *replay);

int cli__run(int argc, char **argv) { return run_main(argc, argv, NULL); }

int cli__replay(int argc, char **argv)
{
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf(
		    "usage: pvmmon replay LOG [options] [--] PROGRAM [ARGS...]\n"
		    "Runs PROGRAM again, forcing every outcome that can differ between runs\n"
		    "(wildcard receives, pvm_nrecv/pvm_probe results, pvm_trecv timeouts, spawn\n"
		    "counts, pvm_notify messages, pvm_addmhf handler deliveries) to be the one\n"
		    "LOG recorded. The first difference stops the run\n"
		    "with a report: task, event, statement, expected and observed (exit\n"
		    "status 3); so does a recorded message that can never come (its sender\n"
		    "has ended, or waits for what cannot come), as soon as that is certain.\n"
		    "Options as for pvmmon run, and:\n"
		    "  --on-divergence=stop|continue-recording\n"
		    "                 stop at the first difference (default), or say it and\n"
		    "                 go on, the rest of the run a new recording\n"
		    "  --stop-at TASK:EVENT\n"
		    "                 stop that task (SIGSTOP) before its EVENTth recorded event\n"
		    "                 and print its pid, for a debugger; the other tasks hold\n"
		    "                 at their next receive until it is continued\n"
		    "The replay's own log (-o LOG, default PROGRAM.replay.pvmmon.xml) records\n"
		    "what it observed, so it can be replayed in turn.\n");
		return 0;
	}
	if (argc < 2 || argv[1][0] == '-') {
		cli__error("replay: which log? (pvmmon replay LOG [--] PROGRAM [ARGS...])");
		return 2;
	}
	return run_main(argc - 1, argv + 1, argv[1]);
}

/* The exit status a wait status stands for, as a shell gives it. */
static int exit_status(int status)
{
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/*
 * After the program ended with wait status status: tells the monitor (or, when
 * interrupted, makes it write what it has), waits for its log and shows the tasks'
 * output. Returns the command's exit status. mon->pid is -1 after.
 */
static int finish_run(monitor_proc *mon, const pvmmon_vm *vm, const cli_run_opts *o,
                      const char *log, int status, int mstatus)
{
	char line[32];
	int lost = 0;

	if (mon->pid < 0) {
		/* The monitor ended first: a replay that diverged (it said how), a run we
		 * stopped (its log is written), or a monitor that died, whose last
		 * checkpoint is all the log there is. */
		show_task_output(vm, o->quiet);
		if (WIFEXITED(mstatus) && (WEXITSTATUS(mstatus) == 3 || WEXITSTATUS(mstatus) == 4))
			return WEXITSTATUS(mstatus);
		if (got_signal && WIFEXITED(mstatus) && WEXITSTATUS(mstatus) == 0) {
			if (!o->quiet)
				fprintf(stderr, "pvmmon: log written to %s\n", log);
			return exit_status(status);
		}
		cli__error("run: the log is the monitor's last checkpoint, if it wrote one: %s",
		           log);
		return exit_status(status);
	}
	if (got_signal) {
		/* Interrupted: tasks that still run end with the virtual machine, and the
		 * monitor writes what it has now rather than wait for them (the linger). */
		kill(mon->pid, SIGTERM);
		mstatus = wait_for(mon->pid, 10000);
	} else {
		snprintf(line, sizeof(line), "end %d\n", exit_status(status));
		lost = write(mon->ctl, line, strlen(line)) < 0;
		mstatus = wait_for(mon->pid, o->linger_ms + 30000);
		/* A monitor that stopped the run itself (a hang with --on-hang=abort, whose
		 * stop ended the program too) has gone before the program's end was told. */
		if (lost && !(mstatus >= 0 && WIFEXITED(mstatus) &&
		              (WEXITSTATUS(mstatus) == 3 || WEXITSTATUS(mstatus) == 4)))
			cli__error("run: lost contact with the monitor");
	}
	if (mstatus < 0) {
		/* A monitor that does not finish is told to write what it has. */
		kill(mon->pid, SIGTERM);
		mstatus = wait_for(mon->pid, 10000);
		if (mstatus < 0) {
			kill(mon->pid, SIGKILL);
			waitpid(mon->pid, NULL, 0);
		}
	}
	mon->pid = -1;
	show_task_output(vm, o->quiet);
	if (!pvmmon_vm_alive(vm))
		cli__error("run: the virtual machine's pvmd died during the run; its tasks could "
		           "not reach it any more (what they reported before is in the log)");
	/* The monitor stopped the run and wrote the log: a replay that diverged (3), a
	 * hang with --on-hang=abort (4). */
	if (mstatus >= 0 && WIFEXITED(mstatus) &&
	    (WEXITSTATUS(mstatus) == 3 || WEXITSTATUS(mstatus) == 4)) {
		if (!o->quiet)
			fprintf(stderr, "pvmmon: log written to %s\n", log);
		return WEXITSTATUS(mstatus);
	}
	if (mstatus < 0 || !WIFEXITED(mstatus) || WEXITSTATUS(mstatus) != 0) {
		/* The monitor replaces the log atomically, so a failed write leaves whatever
		 * was there before, never part of a log. */
		cli__error("run: the monitor failed and wrote no final log to %s; the file there, "
		           "if any, is an older log or this run's last checkpoint",
		           log);
		return EXIT_PVMMON;
	}
	if (!o->quiet)
		fprintf(stderr, "pvmmon: log written to %s\n", log);
	return exit_status(status);
}

/* Starts (or joins, with --attach) the virtual machine into *out, with the program's
 * folder as where it finds executables; *progdir keeps that folder's text. */
static int start_vm(pvmmon_vm **out, char **progdir, const cli_run_opts *o, const char *program)
{
	pvmmon_vm_opts vo;
	const char *ep[1];
	char *slash, *board;
	int rc;

	*progdir = strdup(program);
	slash = *progdir ? strrchr(*progdir, '/') : NULL;
	if (slash)
		*slash = '\0';
	ep[0] = *progdir;
	memset(&vo, 0, sizeof(vo));
	vo.hostfile = o->hostfile;
	vo.attach = o->attach;
	vo.ep_dirs = ep;
	vo.nep_dirs = *progdir ? 1 : 0;
	rc = pvmmon_vm_start(out, &vo);
	if (rc < 0) {
		cli__error("run: %s", pvmmon_error_last());
		*out = NULL;
		return rc;
	}
	pvmmon_vm_apply_env(*out);
	/* Preserve mode's board (pvmhooks/board.c) goes in the private VM's folder, which
	 * goes with the VM (not an attached one's); one already set ("": none) stays. */
	if (o->preserve && !o->attach && pvmmon_vm_tmpdir(*out) &&
	    asprintf(&board, "%s/pvmmon-board", pvmmon_vm_tmpdir(*out)) >= 0) {
		setenv("PVMMON_BOARD", board, 0);
		free(board);
	}
	return 0;
}

static int run_main(int argc, char **argv, const char *replay)
{
	cli_run_opts o;
	pvmmon_vm *vm = NULL;
	monitor_proc mon = {-1, -1, -1, 0};
	char *program = NULL, *log = NULL, *hooks = NULL, *progdir = NULL;
	int rc = EXIT_PVMMON, status, mstatus = 0, pr, run_file = 0;
	struct sigaction sa;

	pr = cli__run_parse(argc, argv, replay, &o);
	if (pr)
		return pr > 0 ? 0 : 2;
	program = find_program(o.prog_argv[0]);
	if (!program) {
		cli__error("%s: %s: no such program (or not executable)", replay ? "replay" : "run",
		           o.prog_argv[0]);
		return EXIT_PVMMON;
	}
	if (replay && cli__check_replay(replay, program) < 0) {
		free(program);
		return EXIT_PVMMON;
	}
	log = log_path(&o, program);
	hooks = cli__run_preload_list();
	if (!log || !hooks) {
		if (!hooks)
			cli__error("run: libpvmhooks.so is not installed beside pvmmon");
		goto out;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* A terminal that hangs up stops the run as Ctrl-C does (log written, VM halted). */
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (start_vm(&vm, &progdir, &o, program) < 0)
		goto out;
	if (o.raw) {
		status = run_program(&o, program, NULL, -1, NULL, NULL);
		show_task_output(vm, o.quiet);
		rc = status < 0 ? EXIT_PVMMON : exit_status(status);
		goto out;
	}
	if (start_monitor(&mon, &o, log, program) < 0)
		goto out;
	/* pvmmon top and pvmmon cp find the run through this file while it lasts. */
	if (cli__run_file_write(log, pvmmon_vm_tmpdir(vm) ? pvmmon_vm_tmpdir(vm) : "/tmp",
	                        (long)mon.pid, (long)pvmmon_vm_pvmd_pid(vm), mon.token) == 0)
		run_file = 1;
	else
		cli__error("run: %s (pvmmon top and pvmmon cp will not find this run)",
		           pvmmon_error_last());
	if (!o.quiet)
		fprintf(stderr, "pvmmon: monitoring %s on a %s virtual machine\n", o.prog_argv[0],
		        o.attach ? "running" : "private");
	status = run_program(&o, program, hooks, mon.ctl, &mon.pid, &mstatus);
	if (status < 0) {
		cli__error("run: cannot run %s: %s", program, pvmmon_error_last());
		goto out;
	}
	rc = finish_run(&mon, vm, &o, log, status, mstatus);
out:
	if (run_file)
		cli__run_file_remove(log);
	if (mon.ctl >= 0)
		close(mon.ctl);
	if (mon.out >= 0)
		close(mon.out);
	if (mon.pid > 0) {
		kill(mon.pid, SIGTERM);
		if (wait_for(mon.pid, 5000) < 0) {
			kill(mon.pid, SIGKILL);
			waitpid(mon.pid, NULL, 0);
		}
	}
	if (vm && pvmmon_vm_halt(vm) < 0)
		cli__error("run: %s", pvmmon_error_last());
	free(program);
	free(log);
	free(hooks);
	free(progdir);
	return rc;
}
