/*
 * A PVM program whose every PVM call is one libpvmhooks wraps: it joins a group,
 * prints its instance number, leaves the group and exits PVM. Linked after
 * libpvmhooks with --as-needed, the linker finds no use for libpvm3 or libgpvm3.
 *
 * usage: joinonly [ROUNDS]   (default 3 joins and leaves)
 */
#include <stdio.h>
#include <stdlib.h>

#include <pvm3.h>

#define GROUP "pvmmon-joinonly"

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 3, rc = 0;

	for (int i = 0; i < rounds && rc == 0; i++) {
		int inst = pvm_joingroup(GROUP);

		printf("joinonly: round %d instance %d\n", i, inst);
		if (inst < 0 || pvm_lvgroup(GROUP) < 0)
			rc = 1;
	}
	pvm_exit();
	return rc;
}
