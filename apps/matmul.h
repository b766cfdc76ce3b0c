/* Message tags shared by the matmul master and its workers. */
#ifndef PVMMON_APPS_MATMUL_H
#define PVMMON_APPS_MATMUL_H

#define MATMUL_TAG_B 11      /* n, then all of B, to every worker */
#define MATMUL_TAG_ROWS 12   /* first row, end row, then those rows of A */
#define MATMUL_TAG_RESULT 13 /* first row, end row, then those rows of C */
#define MATMUL_TAG_QUIT 14   /* no more work */

#endif
