/*
 * Unit tests for pvmhooks/groups.c and callsite.c: a group call is one statement that
 * counts the messages libgpvm3 sends and receives inside it, and a call made through
 * PVM's Fortran binding belongs to the binding's caller.
 */
#include <string.h>

#include <CUnit/CUnit.h>

#include "../../../pvmhooks/calls.h"
#include "../../../pvmhooks/callsite.h"
#include "../../../pvmhooks/records.h"
#include "fake_channel.h"

#define ME 0x40001
#define PEER 0x40002
#define SERVER 0x40003
#define MONITOR 0x40009

static char group_site[1], inner_site[1];

/* A call of op at site as hooks__begin starts it inside or outside a group call. */
static void start_call(hooks_call *call, hooks_op op, void *site)
{
	memset(call, 0, sizeof(*call));
	call->op = op;
	call->inner = callsite__grouped();
	call->site = call->inner ? callsite__group_site() : site;
	call->trace_first = -1;
	call->t0 = call->t1 = call->t2 = pvmmon_clock_now();
	call->v0 = vclock__virtual(hooks__clock(), call->t0);
}

static void test_group_call_is_one_statement(void)
{
	hooks_call g, c;
	pvmmon_log_stmt *st;
	uint64_t unmon = hooks__counts()->unmonitored_recv;
	char group[] = "g";

	fake_begin(ME, MONITOR);
	fake.unmonitored = SERVER;
	fake.send_size = 16;
	hooks__records_reset();
	hooks__guard = 1;
	start_call(&g, HOOKS_OP_pvm_barrier, group_site);
	hooks__pre_pvm_barrier(&g, group, -1);
	/* libgpvm3's own calls reach the wrappers, and belong to the group call. */
	CU_ASSERT_EQUAL(hooks__guard, 0);
	CU_ASSERT(callsite__grouped());
	/* It asks the group server (no piggyback: the server would never take it)... */
	start_call(&c, HOOKS_OP_pvm_send, inner_site);
	CU_ASSERT(c.inner);
	hooks__post_pvm_send(&c, 0, SERVER, 7);
	CU_ASSERT_EQUAL(fake.npbs, 0);
	/* ...which answers with 4 bytes, not an unmonitored sender's message... */
	fake.buf_id = 3;
	fake.buf_bytes = 4;
	fake.buf_tag = 7;
	fake.buf_src = SERVER;
	start_call(&c, HOOKS_OP_pvm_recv, inner_site);
	hooks__post_pvm_recv(&c, 3, SERVER, 7);
	CU_ASSERT_EQUAL(hooks__counts()->unmonitored_recv, unmon);
	/* ...and sends to a member, which gets its piggyback. */
	start_call(&c, HOOKS_OP_pvm_send, inner_site);
	hooks__post_pvm_send(&c, 0, PEER, 8);
	CU_ASSERT_EQUAL(fake.npbs, 1);
	hooks__post_pvm_barrier(&g, 0, group, -1);
	CU_ASSERT_EQUAL(hooks__guard, 1);
	CU_ASSERT(!callsite__grouped());
	/* One statement, the barrier's: one call, every byte, both partners. */
	CU_ASSERT_EQUAL(hooks__records_stmt_id(inner_site), -1);
	st = hooks__stmt(group_site, HOOKS_OP_pvm_barrier);
	CU_ASSERT_STRING_EQUAL(st->op, "pvm_barrier");
	CU_ASSERT_EQUAL(st->count, 1);
	CU_ASSERT_EQUAL(st->bytes, 16 + 4 + 16);
	CU_ASSERT_EQUAL(st->unmonitored, 0);
	CU_ASSERT_EQUAL_FATAL(st->ncom, 2);
	CU_ASSERT_EQUAL(st->com[0].partner_tid, SERVER);
	CU_ASSERT_EQUAL(st->com[0].count, 2);
	CU_ASSERT_EQUAL(st->com[1].partner_tid, PEER);
	hooks__guard = 0;
	hooks__records_reset();
	fake_end();
}

static void test_nested_group_calls(void)
{
	/* A group call libgpvm3 makes inside another belongs to the outer one. */
	callsite__group_enter(group_site);
	callsite__group_enter(inner_site);
	CU_ASSERT_PTR_EQUAL(callsite__group_site(), group_site);
	callsite__group_leave();
	CU_ASSERT(callsite__grouped());
	callsite__group_leave();
	CU_ASSERT(!callsite__grouped());
	callsite__group_leave();
	CU_ASSERT(!callsite__grouped());
}

/* Keeps r in a register through an empty asm: the call before it is then no tail call
 * (the frames stay as a wrapper's, the binding's and its caller's are). */
#define KEEP(r) __asm__ volatile("" : "+r"(r))

/* The wrapper's return address of the last call of wrapper_like. */
static void *last_ret;

/* A stand-in for a wrapper: where its call's statement is. */
__attribute__((noinline)) static void *wrapper_like(void)
{
	void *r;

	last_ret = __builtin_return_address(0);
	r = callsite__user(last_ret);
	KEEP(r);
	return r;
}

/* Named as gfortran names a routine of PVM's Fortran binding (pvmfsend_): a function
 * of this program, found in its symbol table. */
__attribute__((noinline)) void *pvmftest_(void);
__attribute__((noinline)) void *pvmftest_(void)
{
	void *r = wrapper_like();

	KEEP(r);
	return r;
}

__attribute__((noinline)) static void *fortran_caller(void)
{
	void *r = pvmftest_();

	KEEP(r);
	return r;
}

/* Another caller of the binding, one frame deeper. */
__attribute__((noinline)) static void *other_caller(void)
{
	void *r = pvmftest_();

	KEEP(r);
	return r;
}

__attribute__((noinline)) static void *deeper(void)
{
	void *r = other_caller();

	KEEP(r);
	return r;
}

__attribute__((noinline)) static void *c_caller(void)
{
	void *r = wrapper_like();

	KEEP(r);
	return r;
}

static void test_fortran_binding_skipped(void)
{
	void *site = fortran_caller(), *ret = last_ret, *plain;

	/* The wrapper was called from the binding (no tail call hid its frame)... */
	CU_ASSERT(callsite__in_binding(ret));
	CU_ASSERT((char *)ret > (char *)pvmftest_ && (char *)ret < (char *)pvmftest_ + 256);
	/* ...but the statement is the call in the binding's caller. */
	CU_ASSERT(!callsite__in_binding(site));
	CU_ASSERT((char *)site > (char *)fortran_caller &&
		  (char *)site < (char *)fortran_caller + 256);
	/* The program's own code is not the binding's, and any other call is its own
	 * return address. */
	CU_ASSERT(!callsite__in_binding((char *)fortran_caller + 1));
	plain = c_caller();
	CU_ASSERT_PTR_EQUAL(plain, last_ret);
	CU_ASSERT((char *)plain > (char *)c_caller && (char *)plain < (char *)c_caller + 256);
	/* Later calls read the caller from the stack slot the first unwind found: the
	 * same caller again, another caller (unwound, then read too), and again. */
	for (int i = 0; i < 3; i++) {
		void *again = fortran_caller(), *other = deeper();

		CU_ASSERT_PTR_EQUAL(again, site);
		CU_ASSERT((char *)other > (char *)other_caller &&
			  (char *)other < (char *)other_caller + 256);
	}
}

CU_TestInfo test_groups_tests[] = {
    {"a group call is one statement with the messages inside it", test_group_call_is_one_statement},
    {"group calls made inside another belong to it", test_nested_group_calls},
    {"a call through the Fortran binding belongs to the binding's caller",
     test_fortran_binding_skipped},
    CU_TEST_INFO_NULL,
};
