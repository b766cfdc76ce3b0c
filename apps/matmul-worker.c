/* Worker of the matmul demo: keeps B, multiplies the row blocks it is sent. */
#include <stdio.h>
#include <stdlib.h>

#include <pvm3.h>

#include "matmul.h"

int main(void)
{
	int parent = pvm_parent(), n = 0, rc = 1;
	double *b = NULL, *a = NULL, *c = NULL;

	if (pvm_mytid() < 0 || parent < 0) {
		fprintf(stderr, "matmul-worker: must be spawned by matmul\n");
		return 1;
	}
	if (pvm_recv(parent, MATMUL_TAG_B) < 0)
		goto out;
	pvm_upkint(&n, 1, 1);
	if (n < 1 || n > 4000)
		goto out;
	b = malloc(sizeof(double) * n * n);
	a = malloc(sizeof(double) * n * n);
	c = malloc(sizeof(double) * n * n);
	if (!a || !b || !c)
		goto out;
	pvm_upkdouble(b, n * n, 1);
	for (;;) {
		int bufid = pvm_recv(parent, -1), bytes, tag, src, r0, r1, i, j, k;

		if (bufid < 0)
			goto out;
		pvm_bufinfo(bufid, &bytes, &tag, &src);
		if (tag == MATMUL_TAG_QUIT)
			break;
		if (tag != MATMUL_TAG_ROWS)
			continue;
		pvm_upkint(&r0, 1, 1);
		pvm_upkint(&r1, 1, 1);
		if (r0 < 0 || r1 > n || r0 > r1)
			goto out;
		pvm_upkdouble(a, (r1 - r0) * n, 1);
		for (i = 0; i < r1 - r0; i++)
			for (j = 0; j < n; j++) {
				double s = 0;

				for (k = 0; k < n; k++)
					s += a[(size_t)i * n + k] * b[(size_t)k * n + j];
				c[(size_t)i * n + j] = s;
			}
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&r0, 1, 1);
		pvm_pkint(&r1, 1, 1);
		pvm_pkdouble(c, (r1 - r0) * n, 1);
		if (pvm_send(parent, MATMUL_TAG_RESULT) < 0)
			goto out;
	}
	rc = 0;
out:
	free(a);
	free(b);
	free(c);
	pvm_exit();
	return rc;
}
