/* Error codes, their descriptions and the per-thread last-error detail. */
#include <stdarg.h>
#include <stdio.h>

#include "pvmmon/errors.h"

static __thread int last_code;
static __thread char last_msg[1024];

const char *pvmmon_strerror(int code)
{
	switch (code) {
	case PVMMON_OK:
		return "success";
	case PVMMON_ENOMEM:
		return "out of memory";
	case PVMMON_EINVAL:
		return "invalid argument";
	case PVMMON_EIO:
		return "input/output error";
	case PVMMON_EPARSE:
		return "malformed input";
	case PVMMON_EVERSION:
		return "unsupported format version";
	case PVMMON_ENOTFOUND:
		return "not found";
	case PVMMON_EPVM:
		return "PVM call failed";
	case PVMMON_ETIMEOUT:
		return "timed out";
	case PVMMON_ESCHEMA:
		return "does not match the schema";
	case PVMMON_ESTATE:
		return "not allowed in this state";
	case PVMMON_EEXISTS:
		return "already exists";
	default:
		return "error";
	}
}

int pvmmon_error_set(int code, const char *fmt, ...)
{
	va_list ap;

	last_code = code;
	if (fmt) {
		va_start(ap, fmt);
		vsnprintf(last_msg, sizeof(last_msg), fmt, ap);
		va_end(ap);
	} else {
		last_msg[0] = '\0';
	}
	return code;
}

const char *pvmmon_error_last(void)
{
	if (last_msg[0])
		return last_msg;
	return pvmmon_strerror(last_code);
}

int pvmmon_error_code(void)
{
	return last_code;
}

void pvmmon_error_clear(void)
{
	last_code = 0;
	last_msg[0] = '\0';
}
