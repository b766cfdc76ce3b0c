/* What every public pvmmon header shares: the mark of the libraries' public API. */
#ifndef PVMMON_COMMON_H
#define PVMMON_COMMON_H

/*
 * pvmmon's libraries (libpvmmon.so, libpvmhooks.so) are compiled with
 * -fvisibility=hidden: a function or variable is exported only when its public
 * declaration carries PVMMON_EXTERN, so that internal names never become part of the
 * libraries' interface or clash with a program's own.
 */
#if defined(__GNUC__) || defined(__clang__)
#define PVMMON_EXTERN __attribute__((visibility("default")))
#else
#define PVMMON_EXTERN
#endif

#endif
