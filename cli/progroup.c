/*
 * The launched program as a process group (cli/cli.h): `pvmmon run` starts it in a
 * group of its own, so that the run lasts while any of its processes does (a script's
 * background jobs can still start PVM tasks after the script itself has exited) and
 * stopping the run reaches every one of them, never a process outside it.
 */
#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "cli.h"

/* How long the group has after SIGTERM before SIGKILL: a task's handler sends its last
 * records within this on a busy machine. */
#define GROUP_TERM_MS 3000

void cli__group_enter(void) { setpgid(0, 0); }

void cli__group_adopt(pid_t pid)
{
	/* Set from both sides: whichever runs first, the group exists before either
	 * signals it. */
	setpgid(pid, pid);
#ifdef PR_SET_CHILD_SUBREAPER
	/* A process of the group whose parent has ended becomes ours, so that it can be
	 * waited for (and no zombie of it keeps the group alive). */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
#endif
}

int cli__group_foreground(pid_t pid)
{
	struct sigaction ign = {.sa_handler = SIG_IGN}, old;
	int ok;

	/* Only a run started from a terminal, in the terminal's foreground: the program then
	 * reads the terminal, takes Ctrl-C and stops on Ctrl-Z as it would unmonitored,
	 * instead of stopping on SIGTTIN in a background group. */
	if (!isatty(STDIN_FILENO) || tcgetpgrp(STDIN_FILENO) != getpgrp())
		return 0;
	/* The calling process is then in the background for a moment: tcsetpgrp from there
	 * raises SIGTTOU, which must not stop pvmmon. */
	sigemptyset(&ign.sa_mask);
	sigaction(SIGTTOU, &ign, &old);
	ok = tcsetpgrp(STDIN_FILENO, pid) == 0;
	sigaction(SIGTTOU, &old, NULL);
	return ok;
}

void cli__group_background(int was_foreground)
{
	struct sigaction ign = {.sa_handler = SIG_IGN}, old;

	if (!was_foreground)
		return;
	sigemptyset(&ign.sa_mask);
	sigaction(SIGTTOU, &ign, &old);
	tcsetpgrp(STDIN_FILENO, getpgrp());
	sigaction(SIGTTOU, &old, NULL);
}

int cli__group_reap(pid_t pid, int *status, int *main_done)
{
	int st;

	for (;;) {
		pid_t r = waitpid(-pid, &st, WNOHANG);

		if (r == pid) {
			*status = st;
			*main_done = 1;
			continue;
		}
		if (r > 0)
			continue;
		if (r < 0 && errno == EINTR)
			continue;
		/* ECHILD: no process of the group is ours any more (with the subreaper, none
		 * lives); 0: some still run. */
		return r < 0 && *main_done;
	}
}

void cli__group_signal(pid_t pid, int sig)
{
	if (kill(-pid, sig) < 0)
		kill(pid, sig);
}

void cli__group_end(pid_t pid, int *status, int *main_done)
{
	cli__group_signal(pid, SIGTERM);
	for (int waited = 0; waited < GROUP_TERM_MS; waited += 20) {
		if (cli__group_reap(pid, status, main_done))
			return;
		usleep(20000);
	}
	cli__group_signal(pid, SIGKILL);
	while (!cli__group_reap(pid, status, main_done))
		usleep(20000);
}
