/* Starting a private PVM virtual machine (or attaching to a running one) and halting
 * only a machine we started. */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <ifaddrs.h>
#include <netdb.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <pvm3.h>

#include "pvmmon/errors.h"
#include "hostfile.h"
#include "vm.h"

struct pvmmon_vm {
	int attached;
	pid_t pvmd;     /* the pvmd we started (our child, leader of its own session) */
	int reaped;     /* pvmd's exit has been collected with waitpid */
	char *dir;      /* the private folder (NULL when attached) */
	char *tmp;      /* PVM_TMP */
	char *root;     /* PVM_ROOT */
};

static const char *pvm_root(void)
{
	const char *r = getenv("PVM_ROOT");

	return r && *r ? r : "/usr/lib/pvm3";
}

static void sleep_ms(int ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path) < 0 && errno != ENOENT ? -1 : 0;
}

static int remove_tree(const char *dir)
{
	if (!dir)
		return 0;
	return nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS) < 0 && errno != ENOENT ? -1 : 0;
}

static char *join(const char *a, const char *b)
{
	char *s = NULL;

	if (asprintf(&s, "%s/%s", a, b) < 0)
		return NULL;
	return s;
}

/* The daemon's address file: it exists and is non-empty once pvmd is listening. */
static int address_file_ready(const char *tmp)
{
	char path[4096];
	struct stat st;

	snprintf(path, sizeof(path), "%s/pvmd.%u", tmp, (unsigned)getuid());
	return stat(path, &st) == 0 && st.st_size > 0;
}

/* Appends ':'-separated folders to the spawn path, skipping empty entries. */
static void add_dirs(FILE *f, const char *list, int *first)
{
	char *copy = strdup(list ? list : ""), *save = NULL, *d;

	for (d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		fprintf(f, "%s%s", *first ? "" : ":", d);
		*first = 0;
	}
	free(copy);
}

/*
 * Writes the hostfile: a defaults line (`*`) giving the local pvmd its spawn path and
 * working folder, then the host and defaults lines of the user's hostfile, as checked
 * by hostfile__parse() (without its comments), when one was given.
 */
static int write_hostfile(const char *path, const pvmmon_vm_opts *opts,
			  const hostfile_list *user)
{
	FILE *f = fopen(path, "w");
	char cwd[4096];
	int first = 1;
	size_t i;

	if (!f)
		return pvmmon_error_set(PVMMON_EIO, "%s: cannot create: %s", path, strerror(errno));
	if (!opts->workdir && !getcwd(cwd, sizeof(cwd)))
		snprintf(cwd, sizeof(cwd), "/");
	fprintf(f, "* ep=");
	for (i = 0; i < opts->nep_dirs; i++)
		add_dirs(f, opts->ep_dirs[i], &first);
	add_dirs(f, getenv("PATH"), &first);
	fprintf(f, "%s%s/lib wd=%s\n", first ? "" : ":", pvm_root(),
		opts->workdir ? opts->workdir : cwd);
	for (i = 0; user && i < user->n; i++)
		fprintf(f, "%s\n", user->v[i].text);
	if (fclose(f) != 0)
		return pvmmon_error_set(PVMMON_EIO, "%s: cannot write: %s", path, strerror(errno));
	return 0;
}

/* 2 when addr is one of this machine's own addresses, 1 when it is a loopback
 * address, 0 otherwise. */
static int local_address(const struct sockaddr *addr)
{
	struct ifaddrs *ifs = NULL, *i;
	int found = 0;

	if (addr->sa_family != AF_INET)
		return 0;
	const struct in_addr a = ((const struct sockaddr_in *)addr)->sin_addr;

	if ((ntohl(a.s_addr) >> 24) == 127)
		return 1;
	if (getifaddrs(&ifs) < 0)
		return 0;
	for (i = ifs; i && !found; i = i->ifa_next)
		found = i->ifa_addr && i->ifa_addr->sa_family == AF_INET &&
			((struct sockaddr_in *)i->ifa_addr)->sin_addr.s_addr == a.s_addr;
	freeifaddrs(ifs);
	return found ? 2 : 0;
}

/*
 * From the host lines of a user's hostfile (not the defaults lines `*` or hosts to
 * add later `&`): how many hosts pvmd starts with, counting this machine once whether
 * or not a line names it, and in *name the name under which a line lists this machine
 * by one of its non-loopback addresses (or NULL). pvmd otherwise takes its own address
 * from the host name, which Debian resolves to a loopback address that no other host
 * can reach; that line says which interface the other hosts see, and pvmd -n NAME
 * makes the master announce it. pvmd recognises its own line and does not start itself
 * a second time, unless the line starts with `$`: pvmd then starts that host whatever
 * its address, so it counts as a host of its own.
 */
static int count_hosts(const hostfile_list *user, char **name)
{
	char self[256] = "";
	int hosts = 0;
	size_t i;

	*name = NULL;
	gethostname(self, sizeof(self) - 1);
	for (i = 0; i < user->n; i++) {
		const hostfile_entry *e = &user->v[i];
		struct addrinfo hints, *res = NULL, *r;
		int local = 0;

		if (e->kind != HOSTFILE_HOST)
			continue;
		if (e->overload) {
			hosts++;
			continue;
		}
		memset(&hints, 0, sizeof(hints));
		hints.ai_family = AF_INET;
		if (getaddrinfo(e->name, NULL, &hints, &res) == 0) {
			for (r = res; r; r = r->ai_next) {
				int l = local_address(r->ai_addr);

				local = l > local ? l : local;
			}
			freeaddrinfo(res);
		}
		/* This machine, under whatever name, is counted once, below. */
		if (!local && strcmp(e->name, self) != 0)
			hosts++;
		if (local == 2 && !*name)
			*name = strdup(e->name);
	}
	return hosts + 1;
}

/*
 * Waits until the VM has `want` hosts, or timeout_ms passed; returns how many it has,
 * PVMMON_ERROR when it could not ask.
 * The master pvmd answers before it has started the other hosts of its hostfile, and a
 * program started then would find a VM of one host. Asked from a child process, so
 * that the caller never becomes a PVM task itself.
 */
static int wait_for_hosts(const pvmmon_vm *vm, int want, int timeout_ms)
{
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		struct pvmhostinfo *hi;
		int nhost = 0, narch, waited = 0;

		setenv("PVM_ROOT", vm->root, 1);
		setenv("PVM_TMP", vm->tmp, 1);
		if (geteuid() == 0)
			setenv("PVM_ALLOW_ROOT", "1", 1);
		unsetenv("LD_PRELOAD");
		pvm_setopt(PvmAutoErr, 0);
		if (pvm_mytid() < 0)
			_exit(0);
		while ((pvm_config(&nhost, &narch, &hi) < 0 || nhost < want) && waited < timeout_ms) {
			sleep_ms(50);
			waited += 50;
		}
		pvm_exit();
		_exit(nhost > 255 ? 255 : nhost);
	}
	if (pid < 0)
		return pvmmon_error_set(PVMMON_ERROR,
		                        "vm: cannot start a process to count the hosts: %s",
		                        strerror(errno));
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status))
		return pvmmon_error_set(PVMMON_ERROR, "vm: the process counting the hosts failed");
	return WEXITSTATUS(status);
}

/* The last lines pvmd printed, so a failed start says why. */
static void pvmd_output(const char *dir, char *buf, size_t len)
{
	char path[4096];
	FILE *f;
	size_t n;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "%s/pvmd.out", dir);
	f = fopen(path, "r");
	if (!f)
		return;
	if (fseek(f, -(long)(len - 1), SEEK_END) < 0)
		rewind(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
	for (char *p = buf; *p; p++)
		if (*p == '\n')
			*p = ' ';
}

static void vm_free(pvmmon_vm *vm)
{
	if (!vm)
		return;
	free(vm->dir);
	free(vm->tmp);
	free(vm->root);
	free(vm);
}

static int attach(pvmmon_vm *vm)
{
	const char *t = getenv("PVM_TMP");

	vm->attached = 1;
	vm->pvmd = -1;
	vm->tmp = strdup(t && *t ? t : "/tmp");
	if (!vm->tmp)
		return pvmmon_error_set(PVMMON_ENOMEM, "out of memory");
	if (!address_file_ready(vm->tmp))
		return pvmmon_error_set(PVMMON_ENOTFOUND,
					"no running PVM for this user (PVM_TMP=%s); start one "
					"with `pvm` or leave out --attach",
					vm->tmp);
	return 0;
}

static pid_t start_pvmd(const pvmmon_vm *vm, const char *hostfile, const char *out,
			const char *name)
{
	pid_t pid = fork();

	if (pid != 0)
		return pid;
	/* The child: its own session, so the terminal's signals do not reach it and halt
	 * can end the whole group; never preloaded, since pvmd links libpvm3 itself. */
	setsid();
	unsetenv("LD_PRELOAD");
	setenv("PVM_ROOT", vm->root, 1);
	setenv("PVM_TMP", vm->tmp, 1);
	if (geteuid() == 0)
		setenv("PVM_ALLOW_ROOT", "1", 1);
	int in = open("/dev/null", O_RDONLY);
	int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (in >= 0)
		dup2(in, 0);
	if (o >= 0) {
		dup2(o, 1);
		dup2(o, 2);
	}
	char *pvmd = join(vm->root, "lib/pvmd"), *nopt = NULL;

	if (name && asprintf(&nopt, "-n%s", name) >= 0)
		execl(pvmd, "pvmd", nopt, hostfile, (char *)NULL);
	else
		execl(pvmd, "pvmd", hostfile, (char *)NULL);
	fprintf(stderr, "cannot run %s: %s\n", pvmd, strerror(errno));
	_exit(127);
}

int pvmmon_vm_start(pvmmon_vm **out, const pvmmon_vm_opts *opts)
{
	static const pvmmon_vm_opts none;
	pvmmon_vm *vm = calloc(1, sizeof(*vm));
	const char *base = getenv("TMPDIR");
	char *hostfile = NULL, *pvmd_out = NULL, *name = NULL, tail[512];
	hostfile_list *user = NULL;
	int rc = 0, waited = 0, timeout, want = 1;

	if (!opts)
		opts = &none;
	if (!vm)
		return pvmmon_error_set(PVMMON_ENOMEM, "out of memory");
	vm->pvmd = -1;
	vm->root = strdup(pvm_root());
	if (opts->attach) {
		rc = attach(vm);
		goto out;
	}
	/* The user's hostfile is read once and checked before anything is created, so a
	 * bad one starts nothing and leaves nothing behind. */
	if (opts->hostfile) {
		rc = hostfile__read(&user, opts->hostfile);
		if (rc < 0)
			goto out;
	}
	if (asprintf(&vm->dir, "%s/pvmmon-vm.XXXXXX", base && *base ? base : "/tmp") < 0) {
		vm->dir = NULL;
		rc = pvmmon_error_set(PVMMON_ENOMEM, "out of memory");
		goto out;
	}
	if (!mkdtemp(vm->dir)) {
		rc = pvmmon_error_set(PVMMON_EIO, "%s: cannot create a private folder: %s",
				      vm->dir, strerror(errno));
		free(vm->dir);
		vm->dir = NULL;
		goto out;
	}
	vm->tmp = join(vm->dir, "tmp");
	hostfile = join(vm->dir, "hostfile");
	pvmd_out = join(vm->dir, "pvmd.out");
	if (!vm->tmp || !hostfile || !pvmd_out || !vm->root) {
		rc = pvmmon_error_set(PVMMON_ENOMEM, "out of memory");
		goto out;
	}
	if (mkdir(vm->tmp, 0700) < 0) {
		rc = pvmmon_error_set(PVMMON_EIO, "%s: cannot create: %s", vm->tmp, strerror(errno));
		goto out;
	}
	rc = write_hostfile(hostfile, opts, user);
	if (rc < 0)
		goto out;
	if (user)
		want = count_hosts(user, &name);
	vm->pvmd = start_pvmd(vm, hostfile, pvmd_out, name);
	if (vm->pvmd < 0) {
		rc = pvmmon_error_set(PVMMON_ERROR, "cannot start pvmd: %s", strerror(errno));
		goto out;
	}
	timeout = opts->timeout_ms > 0 ? opts->timeout_ms : 10000;
	while (!address_file_ready(vm->tmp)) {
		int status;

		if (waitpid(vm->pvmd, &status, WNOHANG) == vm->pvmd) {
			vm->reaped = 1;
			pvmd_output(vm->dir, tail, sizeof(tail));
			rc = pvmmon_error_set(PVMMON_EPVM, "pvmd exited at start (status %d): %s",
					      WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status),
					      tail);
			goto out;
		}
		if (waited >= timeout) {
			pvmd_output(vm->dir, tail, sizeof(tail));
			rc = pvmmon_error_set(PVMMON_ETIMEOUT, "pvmd not ready after %d ms: %s",
					      timeout, tail);
			goto out;
		}
		sleep_ms(10);
		waited += 10;
	}
	if (opts->hostfile) {
		int have = want > 1 ? wait_for_hosts(vm, want, timeout) : want;

		/* A host that could not be started (no ssh access, no pvmd there) is pvmd's
		 * to report in its log; the run goes on with the hosts that came up. */
		if (have >= 0 && have < want)
			fprintf(stderr,
				"pvmmon: only %d of the %d hosts of %s joined the virtual machine "
				"within %d ms; going on with those\n",
				have, want, opts->hostfile, timeout);
	}
out:
	free(hostfile);
	free(pvmd_out);
	free(name);
	hostfile__free(user);
	if (rc < 0) {
		if (!vm->attached)
			pvmmon_vm_halt(vm);
		else
			vm_free(vm);
		/* Halting must not replace the reason the start failed. */
		return rc;
	}
	*out = vm;
	return 0;
}

int pvmmon_vm_apply_env(const pvmmon_vm *vm)
{
	if (!vm)
		return pvmmon_error_set(PVMMON_EINVAL, "no virtual machine");
	if (setenv("PVM_ROOT", vm->root, 1) < 0 || setenv("PVM_TMP", vm->tmp, 1) < 0 ||
	    (geteuid() == 0 && setenv("PVM_ALLOW_ROOT", "1", 1) < 0))
		return pvmmon_error_set(PVMMON_ENOMEM, "cannot set the PVM environment");
	return 0;
}

const char *pvmmon_vm_tmpdir(const pvmmon_vm *vm)
{
	return vm ? vm->tmp : NULL;
}

pid_t pvmmon_vm_pvmd_pid(const pvmmon_vm *vm)
{
	return vm && !vm->attached ? vm->pvmd : -1;
}

int pvmmon_vm_alive(const pvmmon_vm *vm)
{
	int status;

	if (!vm)
		return 0;
	if (vm->attached)
		return address_file_ready(vm->tmp);
	if (vm->reaped || vm->pvmd <= 0)
		return 0;
	/* A zombie still answers kill(0); collect it to tell the truth. */
	if (waitpid(vm->pvmd, &status, WNOHANG) == vm->pvmd) {
		((pvmmon_vm *)vm)->reaped = 1;
		return 0;
	}
	return kill(vm->pvmd, 0) == 0;
}

int pvmmon_vm_halt(pvmmon_vm *vm)
{
	int rc = 0, status, waited = 0;

	if (!vm)
		return 0;
	if (vm->attached) {
		vm_free(vm);
		return 0;
	}
	if (vm->pvmd > 0 && !vm->reaped) {
		/* SIGTERM lets pvmd stop its tasks and remove its files. */
		kill(vm->pvmd, SIGTERM);
		while (waitpid(vm->pvmd, &status, WNOHANG) == 0 && waited < 3000) {
			sleep_ms(10);
			waited += 10;
		}
		if (waited >= 3000) {
			kill(-vm->pvmd, SIGKILL);
			waitpid(vm->pvmd, &status, 0);
		}
		vm->reaped = 1;
	}
	/* Whatever is left of the daemon's session (tasks it started stay in its process
	 * group) goes too; the group is ours alone because pvmd made its own session. */
	if (vm->pvmd > 0)
		kill(-vm->pvmd, SIGKILL);
	if (remove_tree(vm->dir) < 0)
		rc = pvmmon_error_set(PVMMON_EIO, "%s: could not remove the private folder: %s",
				      vm->dir, strerror(errno));
	vm_free(vm);
	return rc;
}
