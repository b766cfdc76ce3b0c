/* Error codes and the last-error helper shared by every pvmmon component. */
#ifndef PVMMON_ERRORS_H
#define PVMMON_ERRORS_H

#include "pvmmon/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Functions that can fail return 0 or one of these negative codes. */
enum {
	PVMMON_OK = 0,
	PVMMON_ERROR = -1,     /* generic failure, see pvmmon_error_last() */
	PVMMON_ENOMEM = -2,    /* out of memory */
	PVMMON_EINVAL = -3,    /* invalid argument or option */
	PVMMON_EIO = -4,       /* a file or pipe could not be read or written */
	PVMMON_EPARSE = -5,    /* input is not well-formed */
	PVMMON_EVERSION = -6,  /* input has a format version we do not read */
	PVMMON_ENOTFOUND = -7, /* a file, task or entry does not exist */
	PVMMON_EPVM = -8,      /* a PVM call failed */
	PVMMON_ETIMEOUT = -9,  /* something did not happen in time */
	PVMMON_ESCHEMA = -10,  /* input does not match the schema */
	PVMMON_ESTATE = -11,   /* operation not allowed in the current state */
	PVMMON_EEXISTS = -12,  /* something is already there (a running VM, a lock) */
};

/* Returns a static one-line description of code. */
PVMMON_EXTERN const char *pvmmon_strerror(int code);

/*
 * Records code and a printf-style detail as this thread's last error and returns
 * code, so that callers can write `return pvmmon_error_set(PVMMON_EIO, "...")`.
 */
PVMMON_EXTERN int pvmmon_error_set(int code, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The detail of this thread's last error, or pvmmon_strerror() of it if none was given. */
PVMMON_EXTERN const char *pvmmon_error_last(void);

/* The code of this thread's last error (0 if none). */
PVMMON_EXTERN int pvmmon_error_code(void);

PVMMON_EXTERN void pvmmon_error_clear(void);

#ifdef __cplusplus
}
#endif
#endif
