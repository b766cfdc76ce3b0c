/* The top-down text summary of a run's log (`pvmmon report --text`). */
#include "pvmmon/report.h"
#include "pvmmon/errors.h"

int pvmmon_report_text(const pvmmon_log *log, FILE *out)
{
	(void)log;
	(void)out;
	return PVMMON_ERROR;
}
