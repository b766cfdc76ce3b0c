/*
 * Timeouts that must mean what they mean unmonitored: a worker (this program with
 * "worker") waits in pvm_trecv(-1, 2, 1 s) for a message that never comes, then sends
 * the master tag 1; the master polls with pvm_trecv(-1, 1, 0.1 s) and gives up after
 * 40 timeouts in a row. Unmonitored the message comes after about 10 timeouts; the
 * master prints "got after N timeouts" or "gave up after 40 timeouts".
 */
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

#include <pvm3.h>

#define TAG_WORK 1
#define TAG_NEVER 2
#define GIVE_UP 40

static int worker(void)
{
	struct timeval one = {1, 0};
	int parent = pvm_parent(), one_more = 1;

	if (pvm_trecv(-1, TAG_NEVER, &one) > 0)
		one_more = 0;
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&one_more, 1, 1);
	pvm_send(parent, TAG_WORK);
	pvm_exit();
	return 0;
}

int main(int argc, char **argv)
{
	struct timeval tenth = {0, 100000};
	int tid, timeouts = 0, b = 0;
	char *args[] = {"worker", NULL};

	if (argc > 1 && !strcmp(argv[1], "worker"))
		return worker();
	if (pvm_mytid() < 0 || pvm_spawn(argv[0], args, PvmTaskDefault, "", 1, &tid) != 1) {
		fprintf(stderr, "tpoll: cannot start the worker\n");
		pvm_exit();
		return 1;
	}
	while (timeouts < GIVE_UP && (b = pvm_trecv(-1, TAG_WORK, &tenth)) == 0)
		timeouts++;
	if (b > 0)
		printf("got after %d timeouts\n", timeouts);
	else
		printf("gave up after %d timeouts\n", timeouts);
	pvm_exit();
	return 0;
}
