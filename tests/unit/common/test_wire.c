/* Unit tests for common/wire.c: piggyback, registration and record encodings. */
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "pvmmon/errors.h"
#include "../../../common/wire.h"

static void test_piggyback_round_trip(void)
{
	int32_t tids[3] = {0x40001, 0x40002, 0x80003};
	uint32_t seq[3] = {7, 0, 123456};
	wire_piggyback pb = {0}, out;
	uint8_t buf[WIRE_PB_HEADER + 3 * 8];

	pb.sender_index = 5;
	pb.sender_tid = 0x40009;
	pb.vt_send = 123456789012345LL;
	pb.rt_send = 987654321098765LL;
	pb.delay = 4242;
	pb.bytes = 1048576;
	pb.ndests = 3;
	pb.dest_tid = tids;
	pb.seq = seq;
	CU_ASSERT_EQUAL(wire__piggyback_encode(&pb, buf), sizeof(buf));
	CU_ASSERT_EQUAL(wire__piggyback_decode(&out, buf, sizeof(buf), 0x80003), 0);
	CU_ASSERT_EQUAL(out.sender_index, 5);
	CU_ASSERT_EQUAL(out.sender_tid, 0x40009);
	CU_ASSERT_EQUAL(out.vt_send, 123456789012345LL);
	CU_ASSERT_EQUAL(out.rt_send, 987654321098765LL);
	CU_ASSERT_EQUAL(out.delay, 4242);
	CU_ASSERT_EQUAL(out.bytes, 1048576);
	CU_ASSERT_EQUAL(out.ndests, 3);
	CU_ASSERT_EQUAL(out.my_seq, 123456);
	CU_ASSERT_EQUAL(out.quiet + out.notify + out.watch, 0);
	/* A receiver not in the list finds no sequence number. */
	CU_ASSERT_EQUAL(wire__piggyback_decode(&out, buf, sizeof(buf), 0x12345), 0);
	CU_ASSERT_EQUAL(out.my_seq, -1);
	/* Preserve mode's flags, each on its own. */
	pb.notify = 1;
	pb.watch = 1;
	wire__piggyback_encode(&pb, buf);
	CU_ASSERT_EQUAL(wire__piggyback_decode(&out, buf, sizeof(buf), 0x80003), 0);
	CU_ASSERT(out.notify == 1 && out.watch == 1 && out.quiet == 0 && out.sig_on == 0);
	pb.notify = 0;
	pb.quiet = 1;
	wire__piggyback_encode(&pb, buf);
	CU_ASSERT_EQUAL(wire__piggyback_decode(&out, buf, sizeof(buf), 0x80003), 0);
	CU_ASSERT(out.notify == 0 && out.watch == 1 && out.quiet == 1);
}

/* A piggyback with a critical-path tuple, and the tuple alone in a control message. */
static void test_piggyback_cp_tuple(void)
{
	int32_t tid = 0x40002;
	uint32_t seq = 9;
	wire_piggyback pb, out;
	uint8_t buf[WIRE_PB_HEADER + 8 + WIRE_PB_CP_MAX];
	size_t len;
	wire_buf b;
	wire_in in;
	wire_cp c;

	memset(&pb, 0, sizeof(pb));
	pb.ndests = 1;
	pb.dest_tid = &tid;
	pb.seq = &seq;
	pb.cp.on = 1;
	pb.cp.gen = 7;
	pb.cp.n = 3;
	pb.cp.longest = 5000000;
	for (int k = 0; k < 3; k++) {
		pb.cp.share[k] = 1000 * (k + 1);
		pb.cp.zlong[k] = 4000000 + k;
		pb.cp.zshare[k] = 10 * k;
	}
	len = wire__piggyback_encode(&pb, buf);
	CU_ASSERT_EQUAL(len, wire__piggyback_size(1, (uint32_t)wire__cp_size(&pb.cp)));
	CU_ASSERT_EQUAL_FATAL(wire__piggyback_decode(&out, buf, len, tid), 0);
	CU_ASSERT_EQUAL(out.my_seq, 9);
	CU_ASSERT(out.cp.on && out.cp.n == 3 && out.cp.longest == 5000000 && out.cp.gen == 7);
	CU_ASSERT_EQUAL(out.cp.share[2], 3000);
	CU_ASSERT_EQUAL(out.cp.zlong[1], 4000001);
	CU_ASSERT_EQUAL(out.cp.zshare[2], 20);
	/* Too many procedures in the tuple is damage, not an overrun. */
	buf[len - wire__cp_size(&pb.cp) + 5] = 200;
	CU_ASSERT_EQUAL(wire__piggyback_decode(&out, buf, len, tid), PVMMON_EPARSE);
	CU_ASSERT_EQUAL(out.cp.on, 0);
	/* Without a tuple the piggyback is as before and decodes as off. */
	pb.cp.on = 0;
	len = wire__piggyback_encode(&pb, buf);
	CU_ASSERT_EQUAL(len, wire__piggyback_size(1, 0));
	CU_ASSERT_EQUAL(wire__piggyback_decode(&out, buf, len, tid), 0);
	CU_ASSERT_EQUAL(out.cp.on, 0);
	/* In a control message. */
	pb.cp.on = 1;
	wire__buf_init(&b);
	wire__cp_put(&b, &pb.cp);
	wire__in_init(&in, b.data, b.len);
	wire__cp_get(&in, &c);
	CU_ASSERT(!in.failed && in.left == 0 && c.on && c.n == 3 && c.share[0] == 1000);
	wire__in_init(&in, b.data, b.len - 1);
	wire__cp_get(&in, &c);
	CU_ASSERT(in.failed && !c.on);
	wire__buf_free(&b);
}

static void test_ctl_round_trip(void)
{
	wire_ctl c = {WIRE_CTL_CP_START, 3, 1, "create_seq,do_rank", 0x1122334455667788ull}, out;
	wire_buf b;

	wire__buf_init(&b);
	wire__ctl_encode(&b, &c);
	CU_ASSERT_EQUAL_FATAL(wire__ctl_decode(&out, b.data, b.len), 0);
	CU_ASSERT(out.cmd == WIRE_CTL_CP_START && out.gen == 3 && out.exclusive == 1);
	CU_ASSERT(out.token == 0x1122334455667788ull);
	CU_ASSERT_STRING_EQUAL(out.procs, "create_seq,do_rank");
	free(out.procs);
	CU_ASSERT_EQUAL(wire__ctl_decode(&out, b.data, b.len - 1), PVMMON_EPARSE);
	b.data[4] = 99; /* an unknown command */
	CU_ASSERT_EQUAL(wire__ctl_decode(&out, b.data, b.len), PVMMON_EPARSE);
	CU_ASSERT_PTR_NULL(out.procs);
	/* The replay's commands come last; the one after them is unknown. */
	b.data[4] = WIRE_CTL_HOLD;
	CU_ASSERT_EQUAL(wire__ctl_decode(&out, b.data, b.len), 0);
	CU_ASSERT_EQUAL(out.cmd, WIRE_CTL_HOLD);
	free(out.procs);
	b.data[4] = WIRE_CTL_RELEASE;
	CU_ASSERT_EQUAL(wire__ctl_decode(&out, b.data, b.len), 0);
	CU_ASSERT_EQUAL(out.cmd, WIRE_CTL_RELEASE);
	free(out.procs);
	/* A replay's verdict that a forced wait's message cannot come is the last. */
	b.data[4] = WIRE_CTL_CANNOT_COME;
	CU_ASSERT_EQUAL(wire__ctl_decode(&out, b.data, b.len), 0);
	CU_ASSERT_EQUAL(out.cmd, WIRE_CTL_CANNOT_COME);
	CU_ASSERT_EQUAL(out.gen, 3);
	free(out.procs);
	/* Time histograms switched on and off (pvmmon ctl histogram). */
	b.data[4] = WIRE_CTL_HIST_ON;
	CU_ASSERT_EQUAL(wire__ctl_decode(&out, b.data, b.len), 0);
	CU_ASSERT_EQUAL(out.cmd, WIRE_CTL_HIST_ON);
	free(out.procs);
	b.data[4] = WIRE_CTL_HIST_OFF;
	CU_ASSERT_EQUAL(wire__ctl_decode(&out, b.data, b.len), 0);
	CU_ASSERT_EQUAL(out.cmd, WIRE_CTL_HIST_OFF);
	free(out.procs);
	wire__buf_free(&b);
	/* Call-path sampling (pvmmon ctl sample) is the last: a rate up to the most, or
	 * 0 for off. */
	for (uint32_t hz = 0; hz <= WIRE_SAMPLE_MAX_HZ + 1; hz += WIRE_SAMPLE_MAX_HZ / 2 + 1) {
		wire_ctl s = {WIRE_CTL_SAMPLE, hz, 0, NULL, 7};

		wire__buf_init(&b);
		wire__ctl_encode(&b, &s);
		if (hz <= WIRE_SAMPLE_MAX_HZ) {
			CU_ASSERT_EQUAL(wire__ctl_decode(&out, b.data, b.len), 0);
			CU_ASSERT(out.cmd == WIRE_CTL_SAMPLE && out.gen == hz && out.token == 7);
			free(out.procs);
		} else {
			CU_ASSERT_EQUAL(wire__ctl_decode(&out, b.data, b.len), PVMMON_EPARSE);
		}
		b.data[4] = WIRE_CTL_SAMPLE + 1;
		CU_ASSERT_EQUAL(wire__ctl_decode(&out, b.data, b.len), PVMMON_EPARSE);
		wire__buf_free(&b);
	}
}

static void test_piggyback_rejects_damage(void)
{
	int32_t tid = 1;
	uint32_t seq = 1;
	wire_piggyback pb = {0}, out;
	uint8_t buf[WIRE_PB_HEADER + 8];

	pb.ndests = 1;
	pb.dest_tid = &tid;
	pb.seq = &seq;
	wire__piggyback_encode(&pb, buf);
	CU_ASSERT_EQUAL(wire__piggyback_decode(&out, buf, sizeof(buf) - 1, 1), PVMMON_EPARSE);
	CU_ASSERT_EQUAL(wire__piggyback_decode(&out, buf, 10, 1), PVMMON_EPARSE);
	buf[2] = WIRE_VERSION + 1;
	CU_ASSERT_EQUAL(wire__piggyback_decode(&out, buf, sizeof(buf), 1), PVMMON_EVERSION);
	buf[2] = WIRE_VERSION;
	buf[0] ^= 0xff;
	CU_ASSERT_EQUAL(wire__piggyback_decode(&out, buf, sizeof(buf), 1), PVMMON_EPARSE);
	buf[0] ^= 0xff;
	/* A destination count that does not match the size is damage. */
	buf[44] = 2;
	CU_ASSERT_EQUAL(wire__piggyback_decode(&out, buf, sizeof(buf), 1), PVMMON_EPARSE);
}

/* A piggyback's pack signature (the unpack check's) comes back as sent, with and
 * without destinations and tuple; a signature count past the limit is damage. */
static void test_piggyback_signature(void)
{
	int32_t tid = 0x40002;
	uint32_t seq = 5;
	uint8_t buf[WIRE_PB_HEADER + 8 + WIRE_PB_SIG_BYTES + WIRE_PB_CP_MAX];
	wire_piggyback pb, out;
	size_t len;

	memset(&pb, 0, sizeof(pb));
	pb.ndests = 1;
	pb.dest_tid = &tid;
	pb.seq = &seq;
	pb.sig_on = 1;
	pb.nsig = 2;
	pb.sig_more = 1;
	pb.send_site = 0x1234;
	pb.sig[0] = (wire_pksig){3, 10, 0x1000};
	pb.sig[1] = (wire_pksig){0, 2, UINT32_MAX};
	len = wire__piggyback_encode(&pb, buf);
	CU_ASSERT_EQUAL(len, wire__piggyback_size(1, 0) + 5 + 2 * 9);
	CU_ASSERT_EQUAL(wire__piggyback_decode(&out, buf, len, tid), 0);
	CU_ASSERT_EQUAL(out.my_seq, 5);
	CU_ASSERT(out.sig_on && out.nsig == 2 && out.sig_more && out.send_site == 0x1234);
	CU_ASSERT(out.sig[0].type == 3 && out.sig[0].count == 10 && out.sig[0].site == 0x1000);
	CU_ASSERT(out.sig[1].type == 0 && out.sig[1].count == 2 && out.sig[1].site == UINT32_MAX);
	/* Without a signature nothing is added. */
	pb.sig_on = 0;
	CU_ASSERT_EQUAL(wire__piggyback_encode(&pb, buf), wire__piggyback_size(1, 0));
	CU_ASSERT_EQUAL(wire__piggyback_decode(&out, buf, wire__piggyback_size(1, 0), tid), 0);
	CU_ASSERT_FALSE(out.sig_on);
	pb.sig_on = 1;
	len = wire__piggyback_encode(&pb, buf);
	buf[WIRE_PB_HEADER + 8] = WIRE_PB_SIG_MAX + 1;
	CU_ASSERT_EQUAL(wire__piggyback_decode(&out, buf, len, tid), PVMMON_EPARSE);
	CU_ASSERT_EQUAL(out.nsig, 0);
	/* A length that disagrees with the count is damage too. */
	len = wire__piggyback_encode(&pb, buf);
	CU_ASSERT_EQUAL(wire__piggyback_decode(&out, buf, len - 1, tid), PVMMON_EPARSE);
}

/* FINDING round trip; a kind out of range, a zero count and truncations fail. */
static void test_finding_round_trip(void)
{
	wire_finding f = {WIRE_CHECK_UNPACK, 3, 7, "/bin/node", 0x4242, 1, 0x73, 0, 3, 1, 1, 1,
	                  "pvm_upkstr"},
	             out;
	wire_buf b;

	wire__buf_init(&b);
	wire__finding_encode(&b, &f);
	CU_ASSERT_FALSE(b.failed);
	CU_ASSERT_EQUAL(wire__finding_decode(&out, b.data, b.len), 0);
	CU_ASSERT(out.kind == WIRE_CHECK_UNPACK && out.count == 3 && out.tag == 7);
	CU_ASSERT_STRING_EQUAL(out.module, "/bin/node");
	CU_ASSERT(out.offset == 0x4242 && out.other_index == 1 && out.other_offset == 0x73);
	CU_ASSERT(out.a_type == 0 && out.b_type == 3 && out.a_count == 1 && out.b_count == 1);
	CU_ASSERT_EQUAL(out.past_end, 1);
	CU_ASSERT_STRING_EQUAL(out.call, "pvm_upkstr");
	wire__finding_clear(&out);
	for (size_t n = 0; n < b.len; n++)
		CU_ASSERT_NOT_EQUAL(wire__finding_decode(&out, b.data, n), 0);
	wire__buf_free(&b);
	f.kind = 9;
	wire__buf_init(&b);
	wire__finding_encode(&b, &f);
	CU_ASSERT_EQUAL(wire__finding_decode(&out, b.data, b.len), PVMMON_EPARSE);
	wire__buf_free(&b);
	f.kind = WIRE_CHECK_QUEUED;
	f.count = 0;
	wire__buf_init(&b);
	wire__finding_encode(&b, &f);
	CU_ASSERT_EQUAL(wire__finding_decode(&out, b.data, b.len), PVMMON_EPARSE);
	wire__buf_free(&b);
}

static void test_register_round_trip(void)
{
	wire_register r = {0x40001, 0x40000, 1234, 0x40000, "matmul", 99, 0xfeedull, 0x40007,
	                   "/bin/matmul"},
	              out;
	wire_buf b;

	wire__buf_init(&b);
	wire__register_encode(&b, &r);
	CU_ASSERT_FALSE(b.failed);
	CU_ASSERT_EQUAL(wire__register_decode(&out, b.data, b.len), 0);
	CU_ASSERT_EQUAL(out.tid, 0x40001);
	CU_ASSERT_EQUAL(out.pid, 1234);
	CU_ASSERT_EQUAL(out.rt_start, 99);
	CU_ASSERT(out.token == 0xfeedull);
	CU_ASSERT_EQUAL(out.earlier_tid, 0x40007);
	CU_ASSERT_STRING_EQUAL(out.program, "matmul");
	CU_ASSERT_STRING_EQUAL(out.exe, "/bin/matmul");
	wire__register_clear(&out);
	/* Every truncation fails cleanly. */
	for (size_t n = 0; n < b.len; n++)
		CU_ASSERT_NOT_EQUAL(wire__register_decode(&out, b.data, n), 0);
	wire__buf_free(&b);
}

static void test_records_round_trip(void)
{
	pvmmon_log_com com[2] = {{0x40002, NULL, 10, 800, 5000, 700},
				 {0x40003, NULL, 3, 24, 300, 0}};
	pvmmon_log_stmt st = {0};
	pvmmon_log_proc proc = {.name = "solve", .file = "a.c", .line = 12, .caller = "main",
				.call_line = 31, .count = 4, .incl_ns = 1000, .excl_ns = 600,
				.raw_incl_ns = 1900, .raw_excl_ns = 1100, .local_incl_ns = 1300,
				.local_excl_ns = 700, .counted = 1, .disabled = 1,
				.throttled_at_ns = 7000, .throttle_call_ns = 9,
				.throttle_pair_ns = 70};
	pvmmon_log_loop loop = {.name = "rows", .file = "a.c", .line = 20, .proc = "solve",
				.count = 2, .time_ns = 500, .raw_ns = 800, .local_ns = 650,
				.disabled = 1, .throttled_at_ns = 8000, .throttle_call_ns = 11,
				.throttle_pair_ns = 60};
	pvmmon_log_task t = {0}, out;
	wire_buf b;
	int final = 0;

	st.id = 3;
	st.op = "pvm_recv";
	st.module = "/usr/bin/app";
	st.offset = 0x1234;
	st.count = 13;
	st.time_ns = 9000;
	st.sync_ns = 700;
	st.trans_ns = 5300;
	st.bytes = 824;
	st.indirect = 4;
	st.indirect_ns = 450;
	st.ncom = 2;
	st.com = com;
	t.tid = 0x40001;
	t.virtual_ns = 1000000;
	t.intrusion_ns = 3000;
	t.raw_ns = 1004000;
	t.local_ns = 1002000;
	t.uncertainty_ns = 3000;
	t.clamped_ns = 400;
	t.msgs_recv = 13;
	t.nstmts = 1;
	t.stmts = &st;
	t.nprocs = 1;
	t.procs = &proc;
	t.nloops = 1;
	t.loops = &loop;
	t.cost = (pvmmon_log_cost){1,      60,     55,     120,  9000, 7000, 42,
	                           123456, 100000, 140500, 1650, 0,    2,    50, 71, 262147};
	t.clock = "tsc";
	wire__buf_init(&b);
	wire__records_encode(&b, &t, 1);
	CU_ASSERT_EQUAL_FATAL(wire__records_decode(&out, &final, b.data, b.len), 0);
	CU_ASSERT_EQUAL(final, 1);
	/* The clock the task read travels with its records. */
	CU_ASSERT_PTR_NOT_NULL_FATAL(out.clock);
	CU_ASSERT_STRING_EQUAL(out.clock, "tsc");
	CU_ASSERT_EQUAL(out.tid, 0x40001);
	CU_ASSERT_EQUAL(out.virtual_ns, 1000000);
	/* Raw and local times travel too, and say so. */
	CU_ASSERT_EQUAL(out.raw_ns, 1004000);
	CU_ASSERT_EQUAL(out.local_ns, 1002000);
	CU_ASSERT_EQUAL(out.uncertainty_ns, 3000);
	CU_ASSERT_EQUAL(out.clamped_ns, 400);
	CU_ASSERT_EQUAL(out.has_raw, 1);
	CU_ASSERT_EQUAL(out.msgs_recv, 13);
	CU_ASSERT_EQUAL_FATAL(out.nstmts, 1);
	CU_ASSERT_STRING_EQUAL(out.stmts[0].op, "pvm_recv");
	CU_ASSERT_STRING_EQUAL(out.stmts[0].module, "/usr/bin/app");
	CU_ASSERT_PTR_NULL(out.stmts[0].file);
	CU_ASSERT_EQUAL(out.stmts[0].offset, 0x1234);
	CU_ASSERT_EQUAL(out.stmts[0].sync_ns, 700);
	CU_ASSERT_EQUAL(out.stmts[0].indirect, 4);
	CU_ASSERT_EQUAL(out.stmts[0].indirect_ns, 450);
	CU_ASSERT_EQUAL_FATAL(out.stmts[0].ncom, 2);
	CU_ASSERT_EQUAL(out.stmts[0].com[1].partner_tid, 0x40003);
	CU_ASSERT_EQUAL(out.stmts[0].com[0].trans_ns, 5000);
	CU_ASSERT_EQUAL_FATAL(out.nprocs, 1);
	CU_ASSERT_STRING_EQUAL(out.procs[0].name, "solve");
	CU_ASSERT_STRING_EQUAL(out.procs[0].caller, "main");
	CU_ASSERT_EQUAL(out.procs[0].call_line, 31);
	CU_ASSERT_EQUAL(out.procs[0].excl_ns, 600);
	CU_ASSERT_EQUAL(out.procs[0].raw_incl_ns, 1900);
	CU_ASSERT_EQUAL(out.procs[0].raw_excl_ns, 1100);
	CU_ASSERT_EQUAL(out.procs[0].local_incl_ns, 1300);
	CU_ASSERT_EQUAL(out.procs[0].throttled_at_ns, 7000);
	CU_ASSERT_EQUAL(out.procs[0].throttle_call_ns, 9);
	CU_ASSERT_EQUAL(out.procs[0].throttle_pair_ns, 70);
	CU_ASSERT_EQUAL(out.procs[0].local_excl_ns, 700);
	CU_ASSERT_EQUAL(out.procs[0].counted, 1);
	CU_ASSERT_EQUAL(out.procs[0].disabled, 1);
	CU_ASSERT_EQUAL(out.cost.known, 1);
	CU_ASSERT_EQUAL(out.cost.loop_pair_ns, 55);
	CU_ASSERT_EQUAL(out.cost.pb_recv_ns, 7000);
	CU_ASSERT_EQUAL(out.cost.wrapped_calls, 42);
	CU_ASSERT_EQUAL(out.cost.observed_ns, 123456);
	CU_ASSERT_EQUAL(out.cost.site_on_ps, 140500);
	CU_ASSERT_EQUAL(out.cost.site_off_ps, 1650);
	CU_ASSERT_EQUAL(out.cost.rechecks, 2);
	CU_ASSERT_EQUAL(out.cost.recheck_min_ns, 50);
	CU_ASSERT_EQUAL(out.cost.recheck_max_ns, 71);
	CU_ASSERT_EQUAL(out.cost.calibrated_by, 262147);
	CU_ASSERT_EQUAL_FATAL(out.nloops, 1);
	CU_ASSERT_EQUAL(out.loops[0].disabled, 1);
	CU_ASSERT_STRING_EQUAL(out.loops[0].proc, "solve");
	CU_ASSERT_EQUAL(out.loops[0].time_ns, 500);
	CU_ASSERT_EQUAL(out.loops[0].raw_ns, 800);
	CU_ASSERT_EQUAL(out.loops[0].local_ns, 650);
	CU_ASSERT_EQUAL(out.loops[0].throttled_at_ns, 8000);
	CU_ASSERT_EQUAL(out.loops[0].throttle_pair_ns, 60);
	wire__task_clear(&out);
	/* Truncated or extended records are refused, never half-used. */
	CU_ASSERT_EQUAL(wire__records_decode(&out, &final, b.data, b.len - 1), PVMMON_EPARSE);
	CU_ASSERT_EQUAL(out.nstmts, 0);
	wire__put_u8(&b, 0);
	CU_ASSERT_EQUAL(wire__records_decode(&out, &final, b.data, b.len), PVMMON_EPARSE);
	wire__buf_free(&b);
}

/* A flush's time histograms travel whole; one of an unknown metric is damage. */
/* A delta carries the changed records with their indices and the task's counts; a
 * decoder of whole records refuses it; indices out of order or beyond the counts are
 * damage. */
static void test_records_delta(void)
{
	pvmmon_log_proc procs[3] = {
	    {.name = "a", .count = 1}, {.name = "b", .count = 2}, {.name = "c", .count = 3}};
	pvmmon_log_loop loops[2] = {{.name = "for@3:1", .count = 5},
	                            {.name = "for@9:1", .count = 6}};
	pvmmon_log_task t = {
	    .tid = 0x40001, .nprocs = 3, .procs = procs, .nloops = 2, .loops = loops};
	uint32_t pi[2] = {0, 2}, li[1] = {1};
	wire_records_delta d = {.npidx = 2, .nlidx = 1, .pidx = pi, .lidx = li}, got;
	pvmmon_log_task out;
	wire_buf b;
	int final = 0;

	wire__buf_init(&b);
	wire__records_encode_delta(&b, &t, 1, &d);
	CU_ASSERT_EQUAL_FATAL(wire__records_decode_delta(&out, &final, &got, b.data, b.len), 0);
	CU_ASSERT_EQUAL(final, 1);
	CU_ASSERT_EQUAL(got.delta, 1);
	CU_ASSERT_EQUAL(got.nprocs, 3);
	CU_ASSERT_EQUAL(got.nloops, 2);
	CU_ASSERT_EQUAL_FATAL(out.nprocs, 2);
	CU_ASSERT_EQUAL_FATAL(got.npidx, 2);
	CU_ASSERT_EQUAL(got.pidx[0], 0);
	CU_ASSERT_EQUAL(got.pidx[1], 2);
	CU_ASSERT_STRING_EQUAL(out.procs[1].name, "c");
	CU_ASSERT_EQUAL(out.procs[1].count, 3);
	CU_ASSERT_EQUAL_FATAL(out.nloops, 1);
	CU_ASSERT_EQUAL(got.lidx[0], 1);
	CU_ASSERT_STRING_EQUAL(out.loops[0].name, "for@9:1");
	wire__records_delta_clear(&got);
	wire__task_clear(&out);
	CU_ASSERT_NOT_EQUAL(wire__records_decode(&out, &final, b.data, b.len), 0);
	/* Out of order, then beyond the count: damage. */
	pi[0] = 2;
	pi[1] = 0;
	wire__buf_reset(&b);
	wire__records_encode_delta(&b, &t, 0, &d);
	CU_ASSERT_NOT_EQUAL(wire__records_decode_delta(&out, &final, &got, b.data, b.len), 0);
	CU_ASSERT_PTR_NULL(got.pidx);
	t.nprocs = 2;
	pi[0] = 0;
	pi[1] = 2;
	wire__buf_reset(&b);
	wire__records_encode_delta(&b, &t, 0, &d);
	CU_ASSERT_NOT_EQUAL(wire__records_decode_delta(&out, &final, &got, b.data, b.len), 0);
	wire__buf_free(&b);
}

static void test_records_histograms(void)
{
	int64_t vals[3] = {10000000, 0, 5};
	pvmmon_log_hist h[2] = {{.metric = PVMMON_HIST_COMPUTE, .focus = PVMMON_FOCUS_TASK,
	                         .width_ns = 20000000, .doublings = 1, .to_ns = -1,
	                         .nbuckets = 3, .values = vals},
	                        {.metric = PVMMON_HIST_TIME, .focus = PVMMON_FOCUS_PROC,
	                         .name = "solve", .width_ns = 10, .from_ns = 7, .to_ns = 9,
	                         .requested = "ctl"}};
	pvmmon_log_task t = {.tid = 0x40001, .nhists = 2, .hists = h}, out;
	wire_buf b;
	int final = 0;

	wire__buf_init(&b);
	wire__records_encode(&b, &t, 0);
	CU_ASSERT_EQUAL_FATAL(wire__records_decode(&out, &final, b.data, b.len), 0);
	CU_ASSERT_EQUAL_FATAL(out.nhists, 2);
	CU_ASSERT_EQUAL(out.hists[0].metric, PVMMON_HIST_COMPUTE);
	CU_ASSERT_EQUAL(out.hists[0].width_ns, 20000000);
	CU_ASSERT_EQUAL(out.hists[0].doublings, 1);
	CU_ASSERT_EQUAL(out.hists[0].to_ns, -1);
	CU_ASSERT_EQUAL_FATAL(out.hists[0].nbuckets, 3);
	CU_ASSERT_EQUAL(out.hists[0].values[2], 5);
	CU_ASSERT_PTR_NULL(out.hists[0].name);
	CU_ASSERT_STRING_EQUAL(out.hists[1].name, "solve");
	CU_ASSERT_STRING_EQUAL(out.hists[1].requested, "ctl");
	CU_ASSERT_EQUAL(out.hists[1].focus, PVMMON_FOCUS_PROC);
	CU_ASSERT_EQUAL(out.hists[1].nbuckets, 0);
	CU_ASSERT_EQUAL(out.hists[1].from_ns, 7);
	wire__task_clear(&out);
	h[1].metric = (pvmmon_hist_metric)99;
	wire__buf_reset(&b);
	wire__records_encode(&b, &t, 1);
	CU_ASSERT_EQUAL(wire__records_decode(&out, &final, b.data, b.len), PVMMON_EPARSE);
	CU_ASSERT_EQUAL(out.nhists, 0);
	wire__buf_free(&b);
}

/* Decodes len bytes of records, freeing what decoded: the decoder's result. */
static int records_rc(const uint8_t *data, size_t len)
{
	pvmmon_log_task out;
	int final, rc = wire__records_decode(&out, &final, data, len);

	if (rc == 0)
		wire__task_clear(&out);
	return rc;
}

/* The online wait analysis's table travels after everything else (after the samples
 * when both are there): a flush without it is the same bytes as before; damage in it
 * (a cut, a count past the bytes or over the bound, a negative share, an empty or
 * unknown section, sections out of order) refuses the whole flush. */
static void test_records_blames(void)
{
	pvmmon_log_blame bl[2] = {{0x40002, 3, 120000, 0, 4}, {0x40001, 1, 700, 35000, 2}};
	pvmmon_log_snode node = {-1, 0, 0x1118, {3, 0, 0}};
	char *mod = "/opt/app";
	pvmmon_log_samples sm = {199, 3, 0, 10, 1, &mod, 1, &node};
	pvmmon_log_task t = {.tid = 0x40003}, out;
	wire_buf b, plain;
	size_t head, base;
	int final = 0;

	wire__buf_init(&b);
	wire__buf_init(&plain);
	wire__records_encode(&plain, &t, 0);
	t.nblames = 2;
	t.blames = bl;
	wire__records_encode(&b, &t, 0);
	CU_ASSERT_EQUAL_FATAL(b.len, plain.len + 1 + 4 + 2 * WIRE_BLAME_SIZE);
	CU_ASSERT_EQUAL(memcmp(b.data, plain.data, plain.len), 0);
	CU_ASSERT_EQUAL_FATAL(wire__records_decode(&out, &final, b.data, b.len), 0);
	CU_ASSERT_PTR_NULL(out.samples);
	CU_ASSERT_EQUAL_FATAL(out.nblames, 2);
	CU_ASSERT_EQUAL(out.blames[0].tid, 0x40002);
	CU_ASSERT_EQUAL(out.blames[0].stmt, 3);
	CU_ASSERT_EQUAL(out.blames[0].short_ns, 120000);
	CU_ASSERT_EQUAL(out.blames[1].long_ns, 35000);
	CU_ASSERT_EQUAL(out.blames[1].waits, 2);
	wire__task_clear(&out);
	for (size_t n = plain.len + 1; n < b.len; n++)
		CU_ASSERT_EQUAL(records_rc(b.data, n), PVMMON_EPARSE);
	/* A negative share: the top byte of the last entry's long-ns (its waits follow). */
	b.data[b.len - 9] = 0x80;
	CU_ASSERT_EQUAL(records_rc(b.data, b.len), PVMMON_EPARSE);
	/* A count past the bytes, or none at all. */
	b.data[plain.len + 1] = 3;
	CU_ASSERT_EQUAL(records_rc(b.data, b.len), PVMMON_EPARSE);
	b.data[plain.len + 1] = 0;
	CU_ASSERT_EQUAL(records_rc(b.data, plain.len + 5), PVMMON_EPARSE);
	/* An unknown section. */
	b.data[plain.len] = 7;
	CU_ASSERT_EQUAL(records_rc(b.data, b.len), PVMMON_EPARSE);
	/* With samples: they come first, and both read back. */
	wire__buf_reset(&b);
	t.samples = &sm;
	wire__records_encode(&b, &t, 0);
	CU_ASSERT_EQUAL_FATAL(wire__records_decode(&out, &final, b.data, b.len), 0);
	CU_ASSERT_PTR_NOT_NULL(out.samples);
	CU_ASSERT_EQUAL(out.nblames, 2);
	wire__task_clear(&out);
	/* The same sections the other way round: out of order. */
	head = b.len - (1 + 4 + 2 * WIRE_BLAME_SIZE);
	base = plain.len;
	wire__buf_append(&plain, b.data + head, b.len - head);
	wire__buf_append(&plain, b.data + base, head - base);
	CU_ASSERT_EQUAL(records_rc(plain.data, plain.len), PVMMON_EPARSE);
	wire__buf_free(&plain);
	wire__buf_free(&b);
}

/* More entries than the bound are damage even when the bytes are there. */
static void test_records_blames_bound(void)
{
	pvmmon_log_blame *bl = calloc(WIRE_BLAMES_MAX + 1, sizeof(*bl));
	pvmmon_log_task t = {.tid = 0x40003, .nblames = WIRE_BLAMES_MAX + 1, .blames = bl};
	wire_buf b;

	CU_ASSERT_PTR_NOT_NULL_FATAL(bl);
	for (size_t i = 0; i <= WIRE_BLAMES_MAX; i++)
		bl[i] = (pvmmon_log_blame){0x40001, (uint32_t)i, 1, 0, 1};
	wire__buf_init(&b);
	wire__records_encode(&b, &t, 0);
	CU_ASSERT_FALSE_FATAL(b.failed);
	CU_ASSERT_EQUAL(records_rc(b.data, b.len), PVMMON_EPARSE);
	t.nblames = WIRE_BLAMES_MAX;
	wire__buf_reset(&b);
	wire__records_encode(&b, &t, 0);
	CU_ASSERT_EQUAL(records_rc(b.data, b.len), 0);
	wire__buf_free(&b);
	free(bl);
}

static void test_huge_counts_are_refused(void)
{
	wire_buf b;
	pvmmon_log_task out;
	int final;

	wire__buf_init(&b);
	wire__put_u32(&b, WIRE_VERSION);
	wire__put_u8(&b, 0);
	for (int i = 0; i < 9; i++)
		wire__put_u64(&b, 0);
	wire__put_u32(&b, 0xffffffffu); /* statements */
	CU_ASSERT_EQUAL(wire__records_decode(&out, &final, b.data, b.len), PVMMON_EPARSE);
	wire__buf_free(&b);
}

static void test_mailbox_round_trip(void)
{
	wire_mailbox m = {0x40005, 77, 250, 12345, 0xabcdef0123ull}, out;
	wire_buf b;

	wire__buf_init(&b);
	wire__mailbox_encode(&b, &m);
	CU_ASSERT_EQUAL(wire__mailbox_decode(&out, b.data, b.len), 0);
	CU_ASSERT_EQUAL(out.monitor_tid, 0x40005);
	CU_ASSERT_EQUAL(out.ctx, 77);
	CU_ASSERT_EQUAL(out.flush_ms, 250);
	CU_ASSERT_EQUAL(out.trace_events, 12345);
	CU_ASSERT(out.token == 0xabcdef0123ull);
	CU_ASSERT_NOT_EQUAL(wire__mailbox_decode(&out, b.data, b.len - 1), 0);
	wire__buf_free(&b);
}

/* A task's clock estimate and the monitor's answer: round trips, every truncation and a
 * trailing byte refused, and negative spreads refused. */
static void test_clock_round_trip(void)
{
	wire_clock c = {0x40007, -123456789012LL, 4500, 9000, 777000111222LL, 5}, cout;
	wire_clockset s = {-98765, 4500, 123456789, -250000000, 1}, sout;
	wire_buf b;

	wire__buf_init(&b);
	wire__clock_encode(&b, &c);
	CU_ASSERT_EQUAL(wire__clock_decode(&cout, b.data, b.len), 0);
	CU_ASSERT_EQUAL(cout.tid, 0x40007);
	CU_ASSERT_EQUAL(cout.offset, -123456789012LL);
	CU_ASSERT_EQUAL(cout.uncertainty, 4500);
	CU_ASSERT_EQUAL(cout.rtt, 9000);
	CU_ASSERT_EQUAL(cout.at, 777000111222LL);
	CU_ASSERT_EQUAL(cout.samples, 5);
	for (size_t n = 0; n < b.len; n++)
		CU_ASSERT_NOT_EQUAL(wire__clock_decode(&cout, b.data, n), 0);
	wire__put_u8(&b, 0);
	CU_ASSERT_EQUAL(wire__clock_decode(&cout, b.data, b.len), PVMMON_EPARSE);
	wire__buf_reset(&b);
	c.uncertainty = -1;
	wire__clock_encode(&b, &c);
	CU_ASSERT_EQUAL(wire__clock_decode(&cout, b.data, b.len), PVMMON_EPARSE);
	wire__buf_reset(&b);
	c.uncertainty = 0;
	c.rtt = -5;
	wire__clock_encode(&b, &c);
	CU_ASSERT_EQUAL(wire__clock_decode(&cout, b.data, b.len), PVMMON_EPARSE);
	/* The version comes first: another build's estimate is refused as such. */
	b.data[0] ^= 0xff;
	CU_ASSERT_EQUAL(wire__clock_decode(&cout, b.data, b.len), PVMMON_EVERSION);

	wire__buf_reset(&b);
	wire__clockset_encode(&b, &s);
	CU_ASSERT_EQUAL(wire__clockset_decode(&sout, b.data, b.len), 0);
	CU_ASSERT_EQUAL(sout.offset, -98765);
	CU_ASSERT_EQUAL(sout.uncertainty, 4500);
	CU_ASSERT_EQUAL(sout.tref, 123456789);
	CU_ASSERT_EQUAL(sout.rate_ppt, -250000000);
	CU_ASSERT_EQUAL(sout.keeper, 1);
	for (size_t n = 0; n < b.len; n++)
		CU_ASSERT_NOT_EQUAL(wire__clockset_decode(&sout, b.data, n), 0);
	wire__put_u8(&b, 0);
	CU_ASSERT_NOT_EQUAL(wire__clockset_decode(&sout, b.data, b.len), 0);
	wire__buf_reset(&b);
	s.uncertainty = -1;
	wire__clockset_encode(&b, &s);
	CU_ASSERT_NOT_EQUAL(wire__clockset_decode(&sout, b.data, b.len), 0);
	/* A drift beyond a thousandth, or a keeper flag other than 0 or 1, is damage. */
	s.uncertainty = 0;
	s.rate_ppt = 1000000001;
	wire__buf_reset(&b);
	wire__clockset_encode(&b, &s);
	CU_ASSERT_EQUAL(wire__clockset_decode(&sout, b.data, b.len), PVMMON_EPARSE);
	s.rate_ppt = 0;
	s.keeper = 2;
	wire__buf_reset(&b);
	wire__clockset_encode(&b, &s);
	CU_ASSERT_EQUAL(wire__clockset_decode(&sout, b.data, b.len), PVMMON_EPARSE);
	wire__buf_free(&b);
}

/* Events compared field by field: struct padding is not part of the value. */
static int same_event(const pvmmon_log_event *a, const pvmmon_log_event *b)
{
	return a->op == b->op && a->peer == b->peer && a->tag == b->tag && a->bytes == b->bytes &&
	       a->seq == b->seq && a->stmt == b->stmt && !memcmp(a->rt, b->rt, sizeof(a->rt)) &&
	       a->vt0 == b->vt0 && a->vt1 == b->vt1 && a->sync == b->sync && a->trans == b->trans &&
	       a->nd == b->nd && a->want_peer == b->want_peer && a->want_tag == b->want_tag;
}

static void test_trace_round_trip(void)
{
	pvmmon_log_event ev[3] = {
	    {PVMMON_EV_SEND, 0x40002, 7, 800, 3, 1, {10, 11, 12, 13}, 9, 10, 0, 0, 0, 0, 0},
	    {PVMMON_EV_RECV, 0x40003, 8, 16, -1, 2, {20, 21, 40, 41}, 19, 35, 14, 6, 1, -1, 8},
	    {PVMMON_EV_ENTER, 0, 2, 0, -1, 0, {50, 50, 50, 50}, 45, 45, 0, 0, 0, 0, 0},
	};
	pvmmon_log_event *out = NULL;
	int32_t tid = 0;
	size_t n = 0;
	wire_buf b;

	wire__buf_init(&b);
	wire__trace_encode(&b, 0x40001, ev, 3);
	CU_ASSERT_EQUAL(b.len, WIRE_TRACE_HEADER + 3 * WIRE_TRACE_EVENT_SIZE);
	CU_ASSERT_EQUAL_FATAL(wire__trace_decode(&tid, &out, &n, b.data, b.len), 0);
	CU_ASSERT_EQUAL(tid, 0x40001);
	CU_ASSERT_EQUAL_FATAL(n, 3);
	for (size_t i = 0; i < 3; i++)
		CU_ASSERT(same_event(&out[i], &ev[i]));
	free(out);
	/* A count that does not match the bytes, a cut chunk and an unknown op fail. */
	CU_ASSERT_EQUAL(wire__trace_decode(&tid, &out, &n, b.data, b.len - 1), PVMMON_EPARSE);
	CU_ASSERT_PTR_NULL(out);
	b.data[8] = 4;
	CU_ASSERT_EQUAL(wire__trace_decode(&tid, &out, &n, b.data, b.len), PVMMON_EPARSE);
	b.data[8] = 3;
	b.data[WIRE_TRACE_HEADER] = 99;
	CU_ASSERT_EQUAL(wire__trace_decode(&tid, &out, &n, b.data, b.len), PVMMON_EPARSE);
	CU_ASSERT_EQUAL(n, 0);
	wire__buf_free(&b);
}

CU_TestInfo test_wire_tests[] = {
    {"trace chunk round trip and damage", test_trace_round_trip},
    {"piggyback round trip", test_piggyback_round_trip},
    {"piggyback rejects damage", test_piggyback_rejects_damage},
    {"piggyback with a critical-path tuple", test_piggyback_cp_tuple},
    {"commands round trip and damage", test_ctl_round_trip},
    {"piggyback pack signature", test_piggyback_signature},
    {"finding round trip and damage", test_finding_round_trip},
    {"register round trip and truncations", test_register_round_trip},
    {"records round trip", test_records_round_trip},
    {"a delta of records: indices and counts, checked", test_records_delta},
    {"records carry histograms", test_records_histograms},
    {"records carry the online wait table, checked", test_records_blames},
    {"records' wait table is bounded", test_records_blames_bound},
    {"huge counts are refused", test_huge_counts_are_refused},
    {"mailbox round trip", test_mailbox_round_trip},
    {"clock estimate and answer round trip and damage", test_clock_round_trip},
    CU_TEST_INFO_NULL,
};
