/*
 * Private to libpvmhooks: where a wrapped call's statement is. A call made through
 * PVM's Fortran binding (the pvmf* routines of libfpvm3, linked statically or shared)
 * belongs to the Fortran caller's line, found by unwinding past the binding; a call
 * made inside one of libgpvm3's group operations belongs to that operation's
 * statement, whose own call site the group wrapper took.
 */
#ifndef PVMMON_HOOKS_CALLSITE_H
#define PVMMON_HOOKS_CALLSITE_H

/*
 * The program's own call site for a wrapper whose return address is ret: ret itself,
 * unless ret lies in the Fortran binding, then the return address of the first frame
 * above it outside the binding (ret when unwinding finds none). The first sight of
 * each ret is classified once and cached.
 */
void *callsite__user(void *ret);

/* Whether code address pc belongs to PVM's Fortran binding: a function named pvmf*_
 * (the binding's routines, statically linked) or any code of a libfpvm3 module. */
int callsite__in_binding(const void *pc);

/* A group operation of libgpvm3 begins (its statement at site) or ends. Group
 * operations nest (one may call another through the PLT): the outermost one is the
 * statement. */
void callsite__group_enter(void *site);
void callsite__group_leave(void);
/* Whether a group operation is running, and the outermost one's statement. Read by
 * the fatal-signal handler: plain loads of static data. */
int callsite__grouped(void);
void *callsite__group_site(void);

#endif
