/*
 * A program whose task learns another's tid outside PVM: the master spawns two
 * workers and writes the second's tid into a file (given as the first argument);
 * the first worker reads it there and sends that worker a greeting, which the second
 * takes, with the master's, by pvm_recv(-1, -1). Preserve mode cannot see that
 * knowledge; it must say so, not rely on it. It prints what the second worker took.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pvm3.h>

#define TAG_HELLO 71
#define TAG_DONE 72

static int first(const char *path)
{
	int peer = 0, one = 1;
	FILE *f;

	/* The master writes the file before it spawns anyone. */
	f = fopen(path, "r");
	if (!f || fscanf(f, "%x", (unsigned *)&peer) != 1 || peer <= 0) {
		fprintf(stderr, "tidfile: cannot read a tid from %s\n", path);
		return 1;
	}
	fclose(f);
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&one, 1, 1);
	pvm_send(peer, TAG_HELLO);
	pvm_exit();
	return 0;
}

static int second(void)
{
	int got = 0, v, bufid, src, tag, bytes;

	for (int i = 0; i < 2; i++) {
		bufid = pvm_recv(-1, -1);
		pvm_bufinfo(bufid, &bytes, &tag, &src);
		pvm_upkint(&v, 1, 1);
		got += tag == TAG_HELLO ? 1 : 10;
	}
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&got, 1, 1);
	pvm_send(pvm_parent(), TAG_DONE);
	pvm_exit();
	return 0;
}

int main(int argc, char **argv)
{
	int tids[2], got = 0, two = 2;
	char *args1[] = {"second", NULL}, *args0[3] = {"first", NULL, NULL};
	FILE *f;

	if (argc > 2 && !strcmp(argv[1], "first"))
		return first(argv[2]);
	if (argc > 1 && !strcmp(argv[1], "second"))
		return second();
	if (argc != 2) {
		fprintf(stderr, "usage: tidfile FILE\n"
		                "Two workers; the first learns the second's tid from FILE.\n");
		return 2;
	}
	pvm_mytid();
	if (pvm_spawn(argv[0], args1, PvmTaskDefault, "", 1, &tids[1]) != 1)
		return 1;
	f = fopen(argv[1], "w");
	if (!f)
		return 1;
	fprintf(f, "%x\n", (unsigned)tids[1]);
	fclose(f);
	args0[1] = argv[1];
	if (pvm_spawn(argv[0], args0, PvmTaskDefault, "", 1, &tids[0]) != 1)
		return 1;
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&two, 1, 1);
	pvm_send(tids[1], TAG_HELLO + 10);
	pvm_recv(tids[1], TAG_DONE);
	pvm_upkint(&got, 1, 1);
	printf("tidfile: the second worker took %d message(s) from its sibling and %d from the master\n",
	       got % 10, got / 10);
	pvm_exit();
	return 0;
}
