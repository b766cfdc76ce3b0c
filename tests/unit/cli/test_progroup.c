/* Unit tests for cli/progroup.c: the launched program as a process group, with real
 * child processes: the run lasts while any process of the group does (orphans
 * included), and stopping it reaches every one of them and nothing else. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "../../../cli/cli.h"

/* How long a child has to do what a test waits for: generous on a loaded 2-CPU
 * machine, where a fork and an exit take milliseconds; reached only when it fails. */
#define PATIENCE_MS 20000

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* Reaps group pid until *main_done (want 0) or the whole group has ended (want 1);
 * returns cli__group_reap's last answer. */
static int reap_until(pid_t pid, int *status, int *main_done, int want_all)
{
	long long end = now_ms() + PATIENCE_MS;
	int all = 0;

	while (now_ms() < end) {
		all = cli__group_reap(pid, status, main_done);
		if (want_all ? all : *main_done)
			break;
		/* A poll of the condition above, not a fixed wait: cli__group_reap does not
		 * block, and 2 ms between looks keeps the loop off the processor. */
		usleep(2000);
	}
	return all;
}

/* A child that enters a group of its own, then on the word from go forks a grandchild
 * that lives until hold is closed, and exits with status 7 (the grandchild an orphan
 * of the group). */
static pid_t start_group(int go[2], int hold[2])
{
	pid_t pid;

	CU_ASSERT_FATAL(pipe(go) == 0 && pipe(hold) == 0);
	pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (pid == 0) {
		char c;

		cli__group_enter();
		close(go[1]);
		close(hold[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(90);
		if (fork() == 0) {
			/* EOF when the test closes its end: the grandchild ends. */
			while (read(hold[0], &c, 1) > 0)
				;
			_exit(0);
		}
		_exit(7);
	}
	close(go[0]);
	close(hold[0]);
	return pid;
}

static void test_reap_whole_group(void)
{
	int go[2], hold[2], status = -1, main_done = 0;
	pid_t pid = start_group(go, hold);

	cli__group_adopt(pid);
	CU_ASSERT_EQUAL(write(go[1], "x", 1), 1);
	close(go[1]);
	/* The program has ended, its orphan not: not over yet. */
	CU_ASSERT_EQUAL(reap_until(pid, &status, &main_done, 0), 0);
	CU_ASSERT_EQUAL(main_done, 1);
	CU_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 7);
	CU_ASSERT_EQUAL(cli__group_reap(pid, &status, &main_done), 0);
	/* The orphan ends: over, the program's status kept. */
	close(hold[1]);
	CU_ASSERT_EQUAL(reap_until(pid, &status, &main_done, 1), 1);
	CU_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 7);
	CU_ASSERT_EQUAL(waitpid(-pid, NULL, WNOHANG), -1);
	prctl(PR_SET_CHILD_SUBREAPER, 0);
}

/* A child in a group of its own whose processes wait for a signal; with ignore, the
 * child ignores SIGTERM. Returns once the grandchild exists (a byte on ready). */
static pid_t start_waiting_group(int ignore)
{
	int ready[2];
	pid_t pid;
	char c;

	CU_ASSERT_FATAL(pipe(ready) == 0);
	pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (pid == 0) {
		cli__group_enter();
		if (ignore)
			signal(SIGTERM, SIG_IGN);
		if (fork() == 0) {
			signal(SIGTERM, SIG_DFL);
			if (write(ready[1], "x", 1) != 1)
				_exit(91);
			for (;;)
				pause();
		}
		for (;;)
			pause();
	}
	close(ready[1]);
	cli__group_adopt(pid);
	CU_ASSERT_EQUAL(read(ready[0], &c, 1), 1);
	close(ready[0]);
	return pid;
}

/* SIGTERM to the group ends both processes; the program's status is its signal. */
static void test_end_group(void)
{
	int status = -1, main_done = 0;
	pid_t pid = start_waiting_group(0);

	cli__group_end(pid, &status, &main_done);
	CU_ASSERT_EQUAL(main_done, 1);
	CU_ASSERT(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
	CU_ASSERT_EQUAL(kill(-pid, 0), -1);
	CU_ASSERT_EQUAL(errno, ESRCH);
	prctl(PR_SET_CHILD_SUBREAPER, 0);
}

/* A program that ignores SIGTERM gets SIGKILL after the grace (3 s). */
static void test_end_group_kill(void)
{
	int status = -1, main_done = 0;
	pid_t pid = start_waiting_group(1);
	long long t0 = now_ms();

	cli__group_end(pid, &status, &main_done);
	CU_ASSERT_EQUAL(main_done, 1);
	CU_ASSERT(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	/* Not before the grace (a lower bound: it holds however slow the machine is). */
	CU_ASSERT(now_ms() - t0 >= 3000);
	CU_ASSERT_EQUAL(kill(-pid, 0), -1);
	prctl(PR_SET_CHILD_SUBREAPER, 0);
}

/* A process that has no group of its own (it never entered one) still gets the
 * signal, alone: its group is this process's, which gets nothing. */
static void test_signal_without_group(void)
{
	int st = 0;
	pid_t pid = fork();

	CU_ASSERT_FATAL(pid >= 0);
	if (pid == 0) {
		for (;;)
			pause();
	}
	cli__group_signal(pid, SIGUSR2);
	CU_ASSERT_EQUAL(waitpid(pid, &st, 0), pid);
	CU_ASSERT(WIFSIGNALED(st) && WTERMSIG(st) == SIGUSR2);
}

/* Not from a terminal (standard input /dev/null): the terminal is not taken. */
static void test_foreground_without_terminal(void)
{
	int saved = dup(0), null = open("/dev/null", O_RDONLY);

	CU_ASSERT_FATAL(saved >= 0 && null >= 0);
	dup2(null, 0);
	CU_ASSERT_EQUAL(cli__group_foreground(getpid()), 0);
	cli__group_background(0);
	dup2(saved, 0);
	close(saved);
	close(null);
}

CU_TestInfo test_progroup_tests[] = {
    {"the group is reaped whole, orphans included", test_reap_whole_group},
    {"ending the group: SIGTERM to every process", test_end_group},
    {"ending the group: SIGKILL after the grace", test_end_group_kill},
    {"a process without a group gets the signal alone", test_signal_without_group},
    {"no terminal, no foreground", test_foreground_without_terminal},
    CU_TEST_INFO_NULL,
};
