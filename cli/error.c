/* The pvmmon command's one-line errors, apart from its main so that the option reader
 * links without the rest of the command (its unit tests and fuzz target). */
#include <stdarg.h>
#include <stdio.h>

#include "cli.h"

void cli__error(const char *fmt, ...)
{
	va_list ap;

	fputs("pvmmon: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
