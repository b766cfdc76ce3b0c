/*
 * Private to pvmmon (cli and tests): starting a private PVM virtual machine, attaching
 * to a running one, and halting only a machine we started.
 */
#ifndef PVMMON_COMMON_VM_H
#define PVMMON_COMMON_VM_H

#include <stddef.h>
#include <sys/types.h>

typedef struct pvmmon_vm pvmmon_vm;

typedef struct pvmmon_vm_opts {
	/* A user hostfile for the user's own machines; NULL makes a one-host private VM. */
	const char *hostfile;
	/* Attach to the VM already running for this user (PVM_TMP from the environment or
	 * /tmp); nothing is started and pvmmon_vm_halt() leaves it running. */
	int attach;
	/* Extra folders for the local host's spawn path (ep=), in order, before PATH's
	 * folders and PVM's library folder (which holds the group server pvmgs). */
	const char *const *ep_dirs;
	size_t nep_dirs;
	/* Working folder of spawned tasks (wd=); NULL means the current folder. */
	const char *workdir;
	/* How long to wait for the new pvmd to be ready; 0 means 10000. */
	int timeout_ms;
} pvmmon_vm_opts;

/*
 * Starts (or attaches to) a virtual machine. For a private VM: a new 0700 folder under
 * $TMPDIR (or /tmp) holding its own PVM_TMP, hostfile and pvmd output; pvmd started
 * detached in its own session; waits until pvmd.<uid> is written and the daemon socket
 * answers. On success *out belongs to the caller and must be passed to
 * pvmmon_vm_halt(). On failure nothing is left behind.
 */
int pvmmon_vm_start(pvmmon_vm **out, const pvmmon_vm_opts *opts);

/* Sets PVM_ROOT, PVM_TMP (and PVM_ALLOW_ROOT=1 when running as root) in this process's
 * environment so that child processes and this process's PVM calls use vm. */
int pvmmon_vm_apply_env(const pvmmon_vm *vm);

/* The PVM_TMP folder of vm. */
const char *pvmmon_vm_tmpdir(const pvmmon_vm *vm);

/* The pid of the pvmd we started, or -1 when attached. */
pid_t pvmmon_vm_pvmd_pid(const pvmmon_vm *vm);

/* Whether the pvmd we started is still alive (always 1 when attached and it answers). */
int pvmmon_vm_alive(const pvmmon_vm *vm);

/*
 * Halts a VM we started: SIGTERM to our pvmd (it stops its tasks), wait for it, SIGKILL
 * what is left of its process group, remove the private folder. When attached it only
 * frees vm. Always frees vm; returns 0 or a negative code if something could not be
 * cleaned up (then pvmmon_error_last() says what).
 */
int pvmmon_vm_halt(pvmmon_vm *vm);

#endif
