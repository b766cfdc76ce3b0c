/*
 * The subject of the PVM usage checks' tests: a parent spawns itself as a child and the
 * two misuse PVM in one way, chosen by MODE, or use it correctly (match):
 *   mismatch  the child unpacks a string from a message packed as 1 int, and prints
 *             what pvm_upkstr returned ("upkstr rc=...").
 *   match     every pack sequence is unpacked as packed: a 10-int pack in three
 *             smaller unpacks, an empty pack, two int packs in one unpack, bytes,
 *             strings, doubles, signed and unsigned, psend/precv; the child checks
 *             every result.
 *   queued    the child sends two messages (tag 5) the parent never receives.
 *   unfreed   the parent makes three buffers with pvm_mkbuf and frees one.
 *   ignored   the child unpacks 2 ints from a message of 1, and then another.
 * Usage: upkcheck MODE
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pvm3.h>

#define TAG_DATA 1
#define TAG_DONE 9
#define TAG_EXTRA 5

/* The child's side of match: every unpack as packed, each result checked. */
static int child_match(int parent)
{
	int v[10], a[3], ok = 1;
	unsigned u = 0;
	char bytes[8], s[32];
	double d[2];
	int rtid, rtag, rlen;

	if (pvm_recv(parent, TAG_DATA) < 0)
		return 0;
	ok &= pvm_upkint(v, 3, 1) >= 0;
	ok &= pvm_upkint(v + 3, 3, 1) >= 0;
	ok &= pvm_upkint(v + 6, 4, 1) >= 0;
	ok &= pvm_upkint(a, 2, 1) >= 0; /* two packs of 1 int, one unpack */
	ok &= pvm_upkbyte(bytes, 8, 1) >= 0;
	ok &= pvm_upkstr(s) >= 0;
	ok &= pvm_upkdouble(d, 2, 1) >= 0;
	ok &= pvm_upkuint(&u, 1, 1) >= 0; /* packed as int */
	ok &= pvm_upkstr(s) >= 0;
	ok &= pvm_precv(parent, TAG_DATA + 1, a, 3, PVM_INT, &rtid, &rtag, &rlen) >= 0;
	ok &= v[9] == 9 && d[1] == 2.5 && !strcmp(s, "two") && a[2] == 42;
	return ok;
}

static void parent_match(int child)
{
	int v[10], one = 1, two = 2, sent[3] = {40, 41, 42};
	char bytes[8] = "abcdefg";
	double d[2] = {1.5, 2.5};

	for (int i = 0; i < 10; i++)
		v[i] = i;
	pvm_initsend(PvmDataDefault);
	pvm_pkint(v, 10, 1);
	pvm_pkdouble(d, 0, 1); /* packs nothing */
	pvm_pkint(&one, 1, 1);
	pvm_pkint(&two, 1, 1);
	pvm_pkbyte(bytes, 8, 1);
	pvm_pkstr("one");
	pvm_pkdouble(d, 2, 1);
	pvm_pkint(&one, 1, 1);
	pvm_pkstr("two");
	pvm_send(child, TAG_DATA);
	pvm_psend(child, TAG_DATA + 1, sent, 3, PVM_INT);
}

int main(int argc, char **argv)
{
	int parent = pvm_parent(), child, done = 0, ok = 1;
	const char *mode = argc > 1 ? argv[1] : "match";

	if (pvm_mytid() < 0)
		return 1;
	if (parent > 0) {
		int x = 0, rc;
		char s[64];

		if (!strcmp(mode, "mismatch")) {
			pvm_recv(parent, TAG_DATA);
			rc = pvm_upkstr(s);
			printf("upkstr rc=%d\n", rc);
		} else if (!strcmp(mode, "match")) {
			ok = child_match(parent);
			printf("match %s\n", ok ? "ok" : "FAILED");
		} else if (!strcmp(mode, "queued")) {
			for (int i = 0; i < 2; i++) {
				pvm_initsend(PvmDataDefault);
				pvm_pkint(&i, 1, 1);
				pvm_send(parent, TAG_EXTRA);
			}
		} else if (!strcmp(mode, "ignored")) {
			pvm_recv(parent, TAG_DATA);
			pvm_upkint(&x, 1, 1);
			rc = pvm_upkint(&x, 1, 1); /* past the end: an error result */
			pvm_upkint(&x, 1, 1);      /* and on as if it had worked */
			printf("upkint rc=%d\n", rc);
		}
		fflush(stdout);
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&ok, 1, 1);
		pvm_send(parent, TAG_DONE);
		pvm_exit();
		return 0;
	}
	if (pvm_spawn(argv[0], argv + 1, PvmTaskDefault, "", 1, &child) != 1) {
		fprintf(stderr, "upkcheck: cannot spawn\n");
		pvm_exit();
		return 1;
	}
	if (!strcmp(mode, "match")) {
		parent_match(child);
	} else if (!strcmp(mode, "unfreed")) {
		int b[3];

		for (int i = 0; i < 3; i++)
			b[i] = pvm_mkbuf(PvmDataDefault);
		pvm_freebuf(b[1]);
	} else if (strcmp(mode, "queued")) {
		int one = 1;

		pvm_initsend(PvmDataDefault);
		pvm_pkint(&one, 1, 1);
		pvm_send(child, TAG_DATA);
	}
	pvm_recv(child, TAG_DONE);
	pvm_upkint(&done, 1, 1);
	printf("upkcheck %s: child %s\n", mode, done ? "done" : "failed");
	pvm_exit();
	return 0;
}
