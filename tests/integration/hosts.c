/* Makes a few network+mount+pid namespaces act as extra PVM hosts for the integration
 * tests, and removes them again by the pids it started. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "hosts.h"

#define MAX_EXTRA 8

typedef struct ns_host {
	pid_t holder; /* our child: it made the namespaces and waits for init */
	pid_t init;   /* pid 1 of the host's pid namespace, as seen from here */
	char addr[32];
	long long clock_offset_ns; /* the shift of its clock (PVMMON_TEST_CLOCK_OFFSET_NS) */
	long long clock_drift_ppb; /* its clock's drift (PVMMON_TEST_CLOCK_DRIFT_PPB) */
	char tmp[PATH_MAX + 16];   /* its private tmpfs, the parent of its pvmds' PVM_TMP */
} ns_host;

struct test_hosts {
	int n;            /* extra hosts */
	int net;          /* N of 10.77.N.0/24 */
	pid_t sw;         /* holder of the switch namespace */
	char root_if[16]; /* the master's end of its veth pair, in our namespace */
	char master[32];
	ns_host host[MAX_EXTRA];
	char dir[PATH_MAX];
	char hostfile[PATH_MAX + 16];
	char rsh[PATH_MAX + 16];
	char calls[PATH_MAX + 16];
	long long epoch; /* CLOCK_MONOTONIC at creation: where drifting clocks start */
};

static void say(char *why, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void say(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
}

/* Reads fd to its end into buf (NUL-terminated, at most cap - 1 bytes); returns the
 * length. */
static size_t read_all(int fd, char *buf, size_t cap)
{
	size_t got = 0;
	ssize_t r;

	while (got + 1 < cap && (r = read(fd, buf + got, cap - 1 - got)) > 0)
		got += (size_t)r;
	buf[got] = '\0';
	return got;
}

/*
 * Runs argv (no shell) and returns its exit status; what it printed on stderr goes to
 * err, so that a refusal by the kernel reaches the test's output word for word.
 */
static int run(char *err, size_t errlen, char *const argv[])
{
	int p[2], status;
	pid_t pid;
	size_t got;

	if (err && errlen)
		err[0] = '\0';
	if (pipe(p) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		int in = open("/dev/null", O_RDWR);

		dup2(in, 0);
		dup2(in, 1);
		dup2(p[1], 2);
		close(p[0]);
		close(p[1]);
		execvp(argv[0], argv);
		fprintf(stderr, "cannot run %s: %s", argv[0], strerror(errno));
		_exit(127);
	}
	close(p[1]);
	if (err && errlen) {
		got = read_all(p[0], err, errlen);
		while (got > 0 && err[got - 1] == '\n')
			err[--got] = '\0';
	}
	close(p[0]);
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* Runs a command (its words, then NULL) inside the network namespace of pid. */
static int run_in(pid_t pid, char *err, size_t errlen, ...) __attribute__((sentinel));

static int run_in(pid_t pid, char *err, size_t errlen, ...)
{
	char t[16];
	const char *argv[16] = {"nsenter", "-t", t, "-n"};
	int n = 4;
	va_list ap;

	snprintf(t, sizeof(t), "%d", (int)pid);
	va_start(ap, errlen);
	while (n < 15 && (argv[n] = va_arg(ap, const char *)) != NULL)
		n++;
	va_end(ap);
	argv[n] = NULL;
	return run(err, errlen, (char *const *)argv);
}

/* The parent dying (a test process that crashed) takes its holder along: the kernel
 * sends SIGKILL, so nothing of a host outlives the test run. */
static void die_with_parent(pid_t parent)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	/* A parent that died before the line above would go unnoticed. Pid 1 of a new pid
	 * namespace sees its parent as 0 and skips this check (parent 0). */
	if (parent && getppid() != parent)
		_exit(1);
}

/* Reports one line to the creator through fd. */
static void tell(int fd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void tell(int fd, const char *fmt, ...)
{
	char line[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n > 0 && write(fd, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1) < 0)
		_exit(1);
}

static void on_chld(int sig) { (void)sig; }

/*
 * Pid 1 of a host: reaps the orphans of its namespace (the pvmds that detach from the
 * rsh stand-in end up here) until it is killed. SIGCHLD stays blocked except inside
 * sigsuspend, so no child's end can slip between the reaping and the wait.
 */
static void init_loop(void)
{
	struct sigaction sa;
	sigset_t block, empty;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_chld;
	sigaction(SIGCHLD, &sa, NULL);
	sigemptyset(&block);
	sigaddset(&block, SIGCHLD);
	sigprocmask(SIG_BLOCK, &block, NULL);
	sigemptyset(&empty);
	for (;;) {
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		sigsuspend(&empty);
	}
}

/*
 * Starts the holder of a host: it unshares network, mount and pid namespaces, and its
 * child, pid 1 there, mounts a private tmpfs on h->tmp (and a /proc of its own) and
 * stays. The holder reports "pid P" (pid 1 as seen from here) and the child "ok" or
 * "err ...". The tmpfs is not on /tmp: the hosts share every other folder with this
 * one, as machines share a network file system, so that a build anywhere (under /tmp
 * too) runs on all of them.
 */
static int start_host(ns_host *h, char *why, size_t len)
{
	int p[2];
	pid_t me = getpid();
	char buf[512];

	if (pipe(p) < 0) {
		say(why, len, "pipe: %s", strerror(errno));
		return -1;
	}
	h->holder = fork();
	if (h->holder == 0) {
		pid_t init;

		close(p[0]);
		die_with_parent(me);
		if (unshare(CLONE_NEWNET | CLONE_NEWNS | CLONE_NEWPID) < 0) {
			tell(p[1],
			     "err the kernel refused new network, mount and pid namespaces "
			     "(unshare: %s; it needs CAP_SYS_ADMIN and CAP_NET_ADMIN)\n",
			     strerror(errno));
			_exit(1);
		}
		/* Mounts made for this host must not propagate back to the real folders. */
		if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0) {
			tell(p[1], "err cannot make the mounts private: %s\n", strerror(errno));
			_exit(1);
		}
		init = fork();
		if (init == 0) {
			die_with_parent(0);
			if (mount("tmpfs", h->tmp, "tmpfs", 0, "mode=1777") < 0) {
				tell(p[1], "err cannot mount a private tmpfs on %s: %s\n", h->tmp,
				     strerror(errno));
				_exit(1);
			}
			/* A /proc of this pid namespace, for nsenter and for anyone looking. */
			mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
			tell(p[1], "ok\n");
			close(p[1]);
			init_loop();
		}
		if (init < 0) {
			tell(p[1], "err fork: %s\n", strerror(errno));
			_exit(1);
		}
		tell(p[1], "pid %d\n", (int)init);
		close(p[1]);
		while (waitpid(init, NULL, 0) < 0 && errno == EINTR)
			;
		_exit(0);
	}
	close(p[1]);
	if (h->holder < 0) {
		close(p[0]);
		say(why, len, "fork: %s", strerror(errno));
		return -1;
	}
	/* Both lines arrive within moments; the read ends at EOF once both have closed. */
	read_all(p[0], buf, sizeof(buf));
	close(p[0]);
	{
		char *pid = strstr(buf, "pid "), *err = strstr(buf, "err ");

		if (pid)
			h->init = (pid_t)atoi(pid + 4);
		if (err || !pid || !strstr(buf, "ok\n")) {
			char *nl = err ? strchr(err, '\n') : NULL;

			if (nl)
				*nl = '\0';
			say(why, len, "%s", err ? err + 4 : "a host's namespaces did not come up");
			return -1;
		}
	}
	return 0;
}

/* The switch: a network namespace holding only a bridge. Its holder waits in pause(). */
static pid_t start_switch(char *why, size_t len)
{
	int p[2];
	pid_t me = getpid(), pid;
	char buf[256];
	size_t got;

	if (pipe(p) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		die_with_parent(me);
		if (unshare(CLONE_NEWNET) < 0) {
			tell(p[1],
			     "err the kernel refused a new network namespace (unshare: %s; it "
			     "needs CAP_SYS_ADMIN and CAP_NET_ADMIN)\n",
			     strerror(errno));
			_exit(1);
		}
		tell(p[1], "ok\n");
		close(p[1]);
		for (;;)
			pause();
	}
	close(p[1]);
	got = read_all(p[0], buf, sizeof(buf));
	close(p[0]);
	if (pid > 0 && strncmp(buf, "ok", 2) != 0) {
		char *nl = strchr(buf, '\n');

		if (nl)
			*nl = '\0';
		say(why, len, "%s", got > 4 ? buf + 4 : "the switch namespace did not come up");
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return -1;
	}
	return pid;
}

/*
 * Claims a /24 for this run: the master's veth end is named after N, and creating it
 * fails when another run holds that N, so two runs never share a subnet. A subnet that
 * this machine already routes is skipped.
 */
static int claim_subnet(test_hosts *h, char *why, size_t len)
{
	char sw[16], err[512], route[32];
	int start = (int)(getpid() % 250) + 1;

	snprintf(sw, sizeof(sw), "%d", (int)h->sw);
	for (int k = 0; k < 250; k++) {
		int n = (start + k - 1) % 250 + 1;
		char out[256];
		cmd_result r;

		snprintf(route, sizeof(route), "10.77.%d.0/24", n);
		harness_sh(&r, 10, "ip -4 -o route show root %s", route);
		snprintf(out, sizeof(out), "%s", r.out ? r.out : "");
		cmd_result_free(&r);
		if (out[0])
			continue;
		snprintf(h->root_if, sizeof(h->root_if), "pvmmon%dh0", n);
		{
			char *const argv[] = {"ip",   "link", "add", h->root_if, "type", "veth",
			                      "peer", "name", "s0",  "netns",    sw,     NULL};
			int rc = run(err, sizeof(err), argv);

			if (rc == 0) {
				h->net = n;
				return 0;
			}
			if (!strstr(err, "exists")) {
				say(why, len, "cannot make a veth pair (ip link add: %s)", err);
				h->root_if[0] = '\0';
				return -1;
			}
		}
	}
	h->root_if[0] = '\0';
	say(why, len, "no free subnet in 10.77.0.0/16");
	return -1;
}

/* Writes a file, mode 0755 when exec. */
static int write_file(const char *path, const char *text, int exec)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fputs(text, f);
	if (fclose(f) != 0)
		return -1;
	return chmod(path, exec ? 0755 : 0644);
}

/*
 * The rsh stand-in. pvmd runs `$PVM_RSH HOST [-l USER] [-n] COMMAND...`; the script
 * enters that host's namespaces and runs COMMAND with the environment a user's login
 * there would give: PVM_ROOT, root's permission when root, and a new PVM_TMP in the
 * host's private tmpfs for each pvmd, so that a pvmd left over from an earlier run in the
 * same namespaces can never be mistaken for the new one. The host's clock shift goes into
 * the pvmd's environment, so every process of the host (tasks the pvmd starts, the group
 * server) sees the same shifted clock, as the processes of another machine would.
 */
static int write_rsh(test_hosts *h)
{
	char *text = NULL, *cases = NULL, *tmp;
	const char *root = getenv("PVM_ROOT");
	int rc;

	for (int i = 0; i < h->n; i++) {
		if (asprintf(&tmp, "%s%s) pid=%d; off=%lld; drift=%lld; tmp='%s' ;;\n",
		             cases ? cases : "", h->host[i].addr, (int)h->host[i].init,
		             h->host[i].clock_offset_ns, h->host[i].clock_drift_ppb,
		             h->host[i].tmp) < 0)
			return -1;
		free(cases);
		cases = tmp;
	}
	if (asprintf(&text,
	             "#!/bin/sh\n"
	             "# PVM_RSH for the integration tests: starts COMMAND on a namespace host.\n"
	             "echo \"$*\" >> '%s'\n"
	             "host=$1; shift\n"
	             "case $host in\n%s"
	             "*) echo \"rsh stand-in: no host $host\" >&2; exit 255 ;;\n"
	             "esac\n"
	             "while :; do case $1 in -l) shift 2 ;; -n) shift ;; *) break ;; esac; done\n"
	             "exec nsenter -t $pid -n -m -p -- env -u LD_PRELOAD "
	             "PVMMON_TEST_CLOCK_OFFSET_NS=$off PVMMON_TEST_CLOCK_DRIFT_PPB=$drift "
	             "PVMMON_TEST_CLOCK_EPOCH_NS=%lld PVM_ROOT='%s' %s HOST_TMP=\"$tmp\" "
	             "sh -c 'PVM_TMP=$(mktemp -d \"$HOST_TMP/pvm.XXXXXX\") && export PVM_TMP && "
	             "exec '\"$*\"\n",
	             h->calls, cases ? cases : "", h->epoch, root && *root ? root : "/usr/lib/pvm3",
	             geteuid() == 0 ? "PVM_ALLOW_ROOT=1" : "") < 0) {
		free(cases);
		return -1;
	}
	rc = write_file(h->rsh, text, 1);
	free(text);
	free(cases);
	return rc;
}

/* The hosts made last and not destroyed (test_hosts_current). */
static test_hosts *current;

test_hosts *test_hosts_current(void) { return current; }

int test_hosts_possible(char *why, size_t len)
{
	pid_t pid = fork();
	int status = 0;

	if (pid == 0)
		_exit(unshare(CLONE_NEWNET | CLONE_NEWNS | CLONE_NEWPID) < 0 ? errno : 0);
	if (pid < 0)
		return 1; /* no fork is no answer: the caller's failure stands */
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 1;
	say(why, len,
	    "the kernel refuses new network, mount and pid namespaces (unshare: %s; it needs "
	    "CAP_SYS_ADMIN and CAP_NET_ADMIN)",
	    WIFEXITED(status) ? strerror(WEXITSTATUS(status)) : "the probe died");
	return 0;
}

test_hosts *test_hosts_create(int nextra, char *why, size_t len)
{
	test_hosts *h = calloc(1, sizeof(*h));
	char err[512], sw[16], ifname[16], peer[8], cidr[40], pid[16];
	char *text = NULL;

	if (!h || nextra < 1 || nextra > MAX_EXTRA) {
		say(why, len, "bad host count");
		free(h);
		return NULL;
	}
	h->n = nextra;
	/* The scratch folder lives beside the build, on the file system all hosts share;
	 * it holds the mount points of the hosts' private tmpfs too. */
	snprintf(h->dir, sizeof(h->dir), "%s/hosts-test.XXXXXX", harness_build());
	if (!mkdtemp(h->dir)) {
		say(why, len, "%s: %s", h->dir, strerror(errno));
		h->dir[0] = '\0';
		goto fail;
	}
	snprintf(h->hostfile, sizeof(h->hostfile), "%s/hostfile", h->dir);
	snprintf(h->rsh, sizeof(h->rsh), "%s/rsh", h->dir);
	snprintf(h->calls, sizeof(h->calls), "%s/rsh.calls", h->dir);
	for (int i = 0; i < nextra; i++) {
		snprintf(h->host[i].tmp, sizeof(h->host[i].tmp), "%s/host%d.tmp", h->dir, i + 1);
		if (mkdir(h->host[i].tmp, 0700) < 0) {
			say(why, len, "%s: %s", h->host[i].tmp, strerror(errno));
			goto fail;
		}
	}
	{
		struct timespec ts;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		h->epoch = (long long)ts.tv_sec * 1000000000 + ts.tv_nsec;
	}
	h->sw = start_switch(why, len);
	if (h->sw <= 0)
		goto fail;
	for (int i = 0; i < nextra; i++)
		if (start_host(&h->host[i], why, len) < 0)
			goto fail;
	if (claim_subnet(h, why, len) < 0)
		goto fail;
	snprintf(sw, sizeof(sw), "%d", (int)h->sw);
	snprintf(h->master, sizeof(h->master), "10.77.%d.1", h->net);
	/* The switch: a bridge that every host's veth pair ends on. */
	if (run_in(h->sw, err, sizeof(err), "ip", "link", "add", "br0", "type", "bridge", NULL) !=
	        0 ||
	    run_in(h->sw, err, sizeof(err), "ip", "link", "set", "br0", "up", NULL) != 0 ||
	    run_in(h->sw, err, sizeof(err), "ip", "link", "set", "s0", "master", "br0", "up",
	           NULL) != 0) {
		say(why, len, "cannot set up the switch: %s", err);
		goto fail;
	}
	snprintf(cidr, sizeof(cidr), "%s/24", h->master);
	{
		char *const a1[] = {"ip", "addr", "add", cidr, "dev", h->root_if, NULL};
		char *const a2[] = {"ip", "link", "set", h->root_if, "up", NULL};

		if (run(err, sizeof(err), a1) != 0 || run(err, sizeof(err), a2) != 0) {
			say(why, len, "cannot set up %s: %s", h->root_if, err);
			goto fail;
		}
	}
	for (int i = 0; i < nextra; i++) {
		ns_host *x = &h->host[i];

		snprintf(ifname, sizeof(ifname), "pvmmon%dh%d", h->net, i + 1);
		snprintf(peer, sizeof(peer), "s%d", i + 1);
		snprintf(x->addr, sizeof(x->addr), "10.77.%d.%d", h->net, i + 2);
		snprintf(cidr, sizeof(cidr), "%s/24", x->addr);
		snprintf(pid, sizeof(pid), "%d", (int)x->init);
		{
			/* Made here and moved, so that the name is checked against ours. */
			char *const add[] = {"ip",   "link", "add", ifname,  "type", "veth",
			                     "peer", "name", peer,  "netns", sw,     NULL};
			char *const mv[] = {"ip", "link", "set", ifname, "netns", pid, NULL};

			if (run(err, sizeof(err), add) != 0 || run(err, sizeof(err), mv) != 0) {
				say(why, len, "cannot make the veth pair of host %d: %s", i + 1,
				    err);
				goto fail;
			}
		}
		if (run_in(h->sw, err, sizeof(err), "ip", "link", "set", peer, "master", "br0",
		           "up", NULL) != 0 ||
		    run_in(x->init, err, sizeof(err), "ip", "addr", "add", cidr, "dev", ifname,
		           NULL) != 0 ||
		    run_in(x->init, err, sizeof(err), "ip", "link", "set", ifname, "up", NULL) !=
		        0 ||
		    run_in(x->init, err, sizeof(err), "ip", "link", "set", "lo", "up", NULL) != 0) {
			say(why, len, "cannot set up host %d's network: %s", i + 1, err);
			goto fail;
		}
	}
	if (asprintf(&text, "# the master first, on its end of the veth pair\n%s\n", h->master) < 0)
		goto fail;
	for (int i = 0; i < nextra; i++) {
		char *t;

		if (asprintf(&t, "%s%s\n", text, h->host[i].addr) < 0)
			goto fail;
		free(text);
		text = t;
	}
	if (write_file(h->hostfile, text, 0) < 0 || write_rsh(h) < 0) {
		say(why, len, "cannot write into %s: %s", h->dir, strerror(errno));
		goto fail;
	}
	free(text);
	current = h;
	return h;
fail:
	free(text);
	test_hosts_destroy(h);
	return NULL;
}

const char *test_hosts_hostfile(const test_hosts *h) { return h->hostfile; }

int test_hosts_set_clock_offset(test_hosts *h, int i, long long ns)
{
	if (!h || i < 1 || i > h->n)
		return -1;
	h->host[i - 1].clock_offset_ns = ns;
	return write_rsh(h);
}

int test_hosts_set_clock_drift(test_hosts *h, int i, long long ppb)
{
	if (!h || i < 1 || i > h->n)
		return -1;
	h->host[i - 1].clock_drift_ppb = ppb;
	return write_rsh(h);
}

const char *test_hosts_rsh(const test_hosts *h) { return h->rsh; }

const char *test_hosts_dir(const test_hosts *h) { return h->dir; }

const char *test_hosts_address(const test_hosts *h, int i)
{
	return i == 0 ? h->master : h->host[i - 1].addr;
}

int test_hosts_rsh_calls(const test_hosts *h)
{
	char *s = harness_slurp(h->calls, NULL);
	int n = harness_count(s, "\n");

	free(s);
	return n;
}

void test_hosts_destroy(test_hosts *h)
{
	if (!h)
		return;
	if (h == current)
		current = NULL;
	for (int i = 0; i < h->n; i++) {
		ns_host *x = &h->host[i];

		/* Pid 1 going takes every process of its pid namespace along (the kernel
		 * reaps them all before pid 1 is gone), and its holder returns from waiting
		 * for it: once the holder has ended, nothing of the host is left. */
		if (x->init > 0)
			kill(x->init, SIGKILL);
		if (x->holder > 0) {
			int waited = 0;

			while (waitpid(x->holder, NULL, WNOHANG) == 0 && waited++ < 500)
				usleep(10000);
			if (waited >= 500) {
				kill(x->holder, SIGKILL);
				waitpid(x->holder, NULL, 0);
			}
		}
	}
	if (h->sw > 0) {
		kill(h->sw, SIGKILL);
		waitpid(h->sw, NULL, 0);
	}
	/* The veth pair would go with the switch namespace, but the kernel frees a network
	 * namespace lazily: delete our end now so the name (the subnet's claim) is free. */
	if (h->root_if[0]) {
		char *const argv[] = {"ip", "link", "del", h->root_if, NULL};

		run(NULL, 0, argv);
	}
	if (h->dir[0]) {
		cmd_result r;

		harness_sh(&r, 30, "rm -rf '%s'", h->dir);
		cmd_result_free(&r);
	}
	free(h);
}
