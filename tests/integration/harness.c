/* Helpers for the integration tests: commands with time limits, scratch folders, files. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "harness.h"
#include "pvmmon/log.h"

static char build_dir[PATH_MAX], bin_dir[PATH_MAX + 8], root_tmp[PATH_MAX];
static int ntmp;

const char *harness_build(void)
{
	if (!build_dir[0]) {
		const char *b = getenv("PVMMON_BUILD");

		if (!realpath(b && *b ? b : "build", build_dir))
			snprintf(build_dir, sizeof(build_dir), "%s", b && *b ? b : "build");
	}
	return build_dir;
}

int harness_gfortran(const char *dir, const char *name, const char *flags, const char *libs)
{
	cmd_result b;
	int rc;

	harness_sh(&b, 120,
	           "command -v gfortran >/dev/null || exit 77; cd '%s' && "
	           "gfortran %s -fallow-argument-mismatch -I/usr/include -o %s %s/../apps/%s.f "
	           "-lfpvm3 %s -lpvm3",
	           dir, flags, name, harness_build(), name, libs);
	if (b.status == 77) {
		fprintf(stderr, "\n  skipped: no gfortran ");
		rc = 1;
	} else {
		CU_ASSERT_EQUAL(b.status, 0);
		if (b.status != 0)
			fprintf(stderr, "\ngfortran %s.f: %s%s\n", name, b.out, b.err);
		rc = b.status == 0 ? 0 : -1;
	}
	cmd_result_free(&b);
	return rc;
}

const char *harness_bin(void)
{
	if (!bin_dir[0])
		snprintf(bin_dir, sizeof(bin_dir), "%s/bin", harness_build());
	return bin_dir;
}

/* Every folder name handed out stays valid until harness_cleanup(), so a test may hold
 * several while the harness makes more for the commands it runs. */
static char **dirs;
static size_t ndirs;

const char *harness_tmpdir(void)
{
	char dir[PATH_MAX + 32], **grown;

	if (!root_tmp[0]) {
		const char *t = getenv("TMPDIR");

		snprintf(root_tmp, sizeof(root_tmp), "%s/pvmmon-itest.XXXXXX",
		         t && *t ? t : "/tmp");
		if (!mkdtemp(root_tmp))
			return NULL;
	}
	snprintf(dir, sizeof(dir), "%s/%d", root_tmp, ++ntmp);
	mkdir(dir, 0700);
	grown = realloc(dirs, (ndirs + 1) * sizeof(*dirs));
	if (!grown)
		return NULL;
	dirs = grown;
	dirs[ndirs] = strdup(dir);
	return dirs[ndirs++];
}

void harness_cleanup(void)
{
	char cmd[PATH_MAX + 16];

	if (!root_tmp[0])
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root_tmp);
	if (system(cmd) != 0)
		fprintf(stderr, "harness: could not remove %s\n", root_tmp);
	root_tmp[0] = '\0';
	for (size_t i = 0; i < ndirs; i++)
		free(dirs[i]);
	free(dirs);
	dirs = NULL;
	ndirs = 0;
}

char *harness_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0, r;

	if (!f)
		return NULL;
	do {
		if (n + 4096 + 1 > cap) {
			char *b = realloc(buf, cap = cap ? cap * 2 : 8192);

			if (!b) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = b;
		}
		r = fread(buf + n, 1, cap - n - 1, f);
		n += r;
	} while (r > 0);
	fclose(f);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

long harness_file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

int harness_count(const char *hay, const char *needle)
{
	int n = 0;
	size_t l = strlen(needle);

	if (!hay || !l)
		return 0;
	while ((hay = strstr(hay, needle))) {
		n++;
		hay += l;
	}
	return n;
}

void cmd_result_free(cmd_result *r)
{
	free(r->out);
	free(r->err);
	r->out = r->err = NULL;
}

int harness_sh(cmd_result *r, int timeout_s, const char *fmt, ...)
{
	char cmd[8192], outp[PATH_MAX + 16], errp[PATH_MAX + 16];
	const char *dir = harness_tmpdir();
	va_list ap;
	pid_t pid;
	int status = 0, waited;

	memset(r, 0, sizeof(*r));
	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	snprintf(outp, sizeof(outp), "%s/stdout", dir);
	snprintf(errp, sizeof(errp), "%s/stderr", dir);
	pid = fork();
	if (pid == 0) {
		int o = open(outp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		int e = open(errp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		int in = open("/dev/null", O_RDONLY);

		setpgid(0, 0);
		dup2(in, 0);
		dup2(o, 1);
		dup2(e, 2);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	if (pid < 0)
		return -1;
	setpgid(pid, pid);
	r->status = -1;
	for (waited = 0; waited < timeout_s * 100; waited++) {
		pid_t w = waitpid(pid, &status, WNOHANG);

		if (w == pid) {
			r->status =
			    WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
			break;
		}
		usleep(10000);
	}
	if (r->status == -1) {
		/* The command's whole process group goes, so nothing of it is left behind. */
		fprintf(stderr, "harness: '%s' timed out after %d s\n", cmd, timeout_s);
		kill(-pid, SIGTERM);
		/* pvmmon run halts its VM on SIGTERM; give it the time to. The shell ends at
		 * once, so wait for the whole group, not for the shell alone. */
		for (waited = 0; waited < 1000; waited++) {
			waitpid(pid, &status, WNOHANG);
			if (kill(-pid, 0) < 0)
				break;
			usleep(10000);
		}
		kill(-pid, SIGKILL);
		waitpid(pid, &status, WNOHANG);
	}
	r->out = harness_slurp(outp, NULL);
	r->err = harness_slurp(errp, NULL);
	if (!r->out)
		r->out = strdup("");
	if (!r->err)
		r->err = strdup("");
	return 0;
}

int harness_build_order(const char *dir)
{
	cmd_result b;
	int st;

	harness_sh(&b, 120, "cd '%s' && %s/pvmmon-cc -g -O2 -o order %s/../apps/order.c -lpvm3",
	           dir, harness_bin(), harness_build());
	st = b.status;
	if (st != 0)
		fprintf(stderr, "\npvmmon-cc: %s%s\n", b.out, b.err);
	cmd_result_free(&b);
	return st;
}

char *harness_order_line(const char *out)
{
	const char *p = strstr(out, "order:");

	return p ? strndup(p, strcspn(p, "\n")) : NULL;
}

int harness_slowed(void)
{
#ifdef __SANITIZE_ADDRESS__
	return 1;
#else
	const char *wrapper = getenv("PVMMON_MONITOR_WRAPPER");

	return wrapper && *wrapper;
#endif
}

int harness_no_findings(const struct pvmmon_log *l, const char *what)
{
	for (size_t i = 0; l && i < l->nfindings; i++)
		fprintf(stderr, "\n  %s: %s finding (%llu): %s ", what, l->findings[i].kind,
		        (unsigned long long)l->findings[i].count, l->findings[i].text);
	return !l || l->nfindings == 0;
}
