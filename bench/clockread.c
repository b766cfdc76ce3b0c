/* What a clock read costs a PVM task: gettimeofday and clock_gettime(CLOCK_REALTIME)
 * N times each, timed by the thread's CPU clock read with the system call itself (no
 * C library function that pvmmon interposes); prints ns per call. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <pvm3.h>

static double now_ns(void)
{
	struct timespec ts;

	syscall(SYS_clock_gettime, CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 200000;
	volatile long sink = 0;
	struct timeval tv;
	struct timespec ts;
	double t0, t1, t2;

	if (pvm_mytid() < 0)
		return 1;
	t0 = now_ns();
	for (long i = 0; i < n; i++) {
		gettimeofday(&tv, NULL);
		sink += tv.tv_usec;
	}
	t1 = now_ns();
	for (long i = 0; i < n; i++) {
		clock_gettime(CLOCK_REALTIME, &ts);
		sink += ts.tv_nsec;
	}
	t2 = now_ns();
	printf("gettimeofday_ns=%.1f clock_gettime_ns=%.1f\n", (t1 - t0) / n, (t2 - t1) / n);
	pvm_exit();
	return 0;
}
