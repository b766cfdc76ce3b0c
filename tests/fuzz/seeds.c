/* Writes small valid encodings of every kind the fuzz targets read, as their seed corpora. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pvmmon/errors.h"
#include "pvmmon/log.h"
#include "../../cli/runopts.h"
#include "../../common/resource.h"
#include "../../common/hostfile.h"
#include "../../replay/replay.h"
#include "../../common/wire.h"
#include "../unit/common/wire_samples.h"

/* Usage: seeds ROOT; the seeds go to ROOT/<target>/seed-<name>. */
static const char *root;

static void save(const char *target, const char *name, const void *data, size_t len)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, target);
	if (mkdir(path, 0777) < 0 && errno != EEXIST) {
		perror(path);
		exit(1);
	}
	snprintf(path, sizeof(path), "%s/%s/seed-%s", root, target, name);
	f = fopen(path, "wb");
	if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0) {
		perror(path);
		exit(1);
	}
}

/* A control seed is the selector byte of fuzz_control followed by the message. */
static void save_control(const char *name, uint8_t selector, const wire_buf *b)
{
	uint8_t *d = malloc(b->len + 1);

	if (!d)
		exit(1);
	d[0] = selector;
	memcpy(d + 1, b->data, b->len);
	save("fuzz_control", name, d, b->len + 1);
	free(d);
}

/* fuzz_wire: a valid message of every kind, after the byte that picks it. */
static void messages(void)
{
	wire_buf b;
	uint8_t *d;

	wire__buf_init(&b);
	for (int k = 0; k < WIRE_NKINDS; k++) {
		if (wire_sample_encode(&b, k) < 0)
			continue;
		d = malloc(b.len + 1);
		if (!d || b.failed)
			exit(1);
		d[0] = (uint8_t)k;
		memcpy(d + 1, b.data, b.len);
		save("fuzz_wire", wire__tag_name(wire__kind_tag(k)), d, b.len + 1);
		free(d);
	}
	wire__buf_free(&b);
}

static wire_cp tuple(uint32_t n)
{
	wire_cp cp;

	memset(&cp, 0, sizeof(cp));
	cp.on = 1;
	cp.gen = 2;
	cp.n = n;
	cp.longest = 123456789;
	for (uint32_t k = 0; k < n; k++) {
		cp.share[k] = 1000 * (k + 1);
		cp.zlong[k] = 120000000 - (int64_t)k;
		cp.zshare[k] = 500 * (k + 1);
	}
	return cp;
}

static void piggybacks(void)
{
	int32_t tids[3] = {0x40001, 0x40002, 0x80003};
	uint32_t seq[3] = {7, 0, 123456};
	uint8_t buf[WIRE_PB_HEADER + 3 * 8 + WIRE_PB_CP_MAX + WIRE_PB_SIG_BYTES +
	            WIRE_PB_BLAME_BYTES];
	wire_piggyback pb;

	memset(&pb, 0, sizeof(pb));
	pb.sender_index = 5;
	pb.sender_tid = 0x40009;
	pb.vt_send = 123456789012345LL;
	pb.rt_send = 987654321098765LL;
	pb.delay = 4242;
	pb.bytes = 1024;
	pb.ndests = 1;
	pb.dest_tid = tids;
	pb.seq = seq;
	save("fuzz_piggyback", "send", buf, wire__piggyback_encode(&pb, buf));
	pb.ndests = 3;
	save("fuzz_piggyback", "mcast", buf, wire__piggyback_encode(&pb, buf));
	pb.cp = tuple(3);
	save("fuzz_piggyback", "mcast-cp", buf, wire__piggyback_encode(&pb, buf));
	pb.sig_on = 1;
	pb.nsig = 2;
	pb.sig[0] = (wire_pksig){3, 3, 0x1234};
	pb.sig[1] = (wire_pksig){0, 1, UINT32_MAX};
	save("fuzz_piggyback", "mcast-cp-sig", buf, wire__piggyback_encode(&pb, buf));
	pb.nblame = 3;
	pb.blame_prog = 0xabcdef01u;
	pb.blame[0] = (wire_pbblame){0, 0x40009, 4, 0x1230, 7000000};
	pb.blame[1] = (wire_pbblame){0, 0x40009, 1, 0x1100, 1000000};
	pb.blame[2] = (wire_pbblame){1, 0x40001, 2, UINT32_MAX, 6000000};
	save("fuzz_piggyback", "mcast-cp-sig-blame", buf, wire__piggyback_encode(&pb, buf));
	pb.nblame = 0;
	pb.sig_on = 0;
	pb.ndests = 0;
	pb.cp.on = 0;
	save("fuzz_piggyback", "none", buf, wire__piggyback_encode(&pb, buf));
}

/* A task with one record of every kind, the shape of a real flush. */
static void sample_task(pvmmon_log_task *t)
{
	static pvmmon_log_com com[2] = {
	    {0x40002, NULL, 3, 24, 1500, 900},
	    {0x40003, NULL, 1, 8, 700, 0},
	};
	static pvmmon_log_stmt stmt[2];
	static pvmmon_log_proc proc[2];
	static pvmmon_log_loop loop[1];
	static pvmmon_log_static stat[3];

	memset(t, 0, sizeof(*t));
	t->tid = 0x40001;
	t->virtual_ns = 5000000;
	t->intrusion_ns = 12000;
	t->end_ns = 6000000;
	t->msgs_sent = 4;
	t->msgs_recv = 4;
	t->bytes_sent = 32;
	t->bytes_recv = 32;
	stmt[0] =
	    (pvmmon_log_stmt){0,    "pvm_recv", "/bin/app", 0x12f6, NULL,   0, NULL, 4, 90000, 900,
	                      2200, 32,         0,          1,      150000, 2, com,  0, 1,     600};
	stmt[1] = (pvmmon_log_stmt){1, "pvm_send", "/bin/app", 0x1300, NULL, 0, NULL, 4, 3000, 0,
	                            0, 32,         0,          0,      0,    0, NULL, 1, 0,    0};
	proc[0] = (pvmmon_log_proc){.name = "main", .file = "app.c", .line = 10, .count = 1,
				    .incl_ns = 5000000, .excl_ns = 100000, .raw_incl_ns = 5100000,
				    .raw_excl_ns = 110000, .local_incl_ns = 5050000,
				    .local_excl_ns = 105000};
	proc[1] = (pvmmon_log_proc){.name = "work", .file = "app.c", .line = 40, .caller = "main",
				    .call_line = 22, .count = 4, .incl_ns = 4000000,
				    .excl_ns = 4000000, .disabled = 1};
	loop[0] = (pvmmon_log_loop){.name = "for@20:3", .file = "app.c", .line = 20,
				    .proc = "main", .count = 1, .time_ns = 4500000, .disabled = 1,
				    .raw_ns = 4600000, .local_ns = 4550000};
	stat[0] = (pvmmon_log_static){PVMMON_STATIC_PROC, "main", "app.c", 10, -1};
	stat[1] = (pvmmon_log_static){PVMMON_STATIC_LOOP, "for@20:3", "app.c", 20, 0};
	stat[2] = (pvmmon_log_static){PVMMON_STATIC_COM, "pvm_recv", "app.c", 21, 1};
	t->nstmts = 2;
	t->stmts = stmt;
	t->nprocs = 2;
	t->procs = proc;
	t->nloops = 1;
	t->loops = loop;
	t->nstatics = 3;
	t->statics = stat;
}

static void records(void)
{
	pvmmon_log_task t;
	wire_buf b;

	wire__buf_init(&b);
	sample_task(&t);
	wire__records_encode(&b, &t, 0);
	save("fuzz_records", "task", b.data, b.len);
	wire__buf_reset(&b);
	wire__records_encode(&b, &t, 1);
	save("fuzz_records", "final", b.data, b.len);
	wire__buf_reset(&b);
	if (t.nprocs > 0 && t.nloops > 0) {
		/* A delta: the last proc and the first loop changed. */
		uint32_t pi = (uint32_t)t.nprocs - 1, li = 0;
		wire_records_delta d = {.npidx = 1, .nlidx = 1, .pidx = &pi, .lidx = &li};

		wire__records_encode_delta(&b, &t, 0, &d);
		save("fuzz_records", "delta", b.data, b.len);
		wire__buf_reset(&b);
	}
	memset(&t, 0, sizeof(t));
	t.tid = 0x40002;
	wire__records_encode(&b, &t, 1);
	save("fuzz_records", "empty", b.data, b.len);
	wire__buf_reset(&b);
	{
		/* Call-path samples (log 1.13): main > hot in a binary, under libc. */
		char *mods[] = {"/opt/app/hot", "/lib/x86_64-linux-gnu/libc.so.6"};
		pvmmon_log_snode nodes[] = {{-1, 1, 0x27305, {0, 0, 0}},
		                            {0, 0, 0x1118, {10, 4, 1}},
		                            {1, 0, 0x12d5, {100, 0, 0}}};
		pvmmon_log_samples sm = {997, 120, 2, 5000, 2, mods, 3, nodes};
		/* The online wait analysis's table (log 1.14), after samples and alone. */
		pvmmon_log_blame bl[] = {{0x40001, 2, 150000, 0, 3}, {0x40003, 0, 900, 42000, 1}};

		t.samples = &sm;
		wire__records_encode(&b, &t, 1);
		save("fuzz_records", "samples", b.data, b.len);
		wire__buf_reset(&b);
		t.nblames = 2;
		t.blames = bl;
		wire__records_encode(&b, &t, 1);
		save("fuzz_records", "samples-blames", b.data, b.len);
		wire__buf_reset(&b);
		t.samples = NULL;
		wire__records_encode(&b, &t, 0);
		save("fuzz_records", "blames", b.data, b.len);
		t.nblames = 0;
		t.blames = NULL;
	}
	wire__buf_free(&b);
}

static void sample_events(pvmmon_log_event ev[3])
{
	memset(ev, 0, 3 * sizeof(*ev));
	ev[0] = (pvmmon_log_event){PVMMON_EV_SEND, 0x40002, 7, 8, 0, 1, {10, 11, 12, 13}, 5, 6,
				   0, 0, 0, 0, 0};
	ev[1] = (pvmmon_log_event){PVMMON_EV_RECV, 0x40002, 8, 8, 0, 0, {20, 21, 29, 30}, 15, 22,
				   5, 2, 1, -1, 8};
	ev[2] = (pvmmon_log_event){PVMMON_EV_ENTER, 0, 1, 0, -1, 0, {40, 40, 40, 40}, 31, 31, 0, 0, 0, 0, 0};
}

static void controls(void)
{
	wire_register r = {0x40001, 0x40000, 4242, 0x40000, "/bin/app", 1700000000000000000ULL,
			   0x1122334455667788ULL, 0x40009, "/usr/bin/app"};
	wire_ctl c = {WIRE_CTL_CP_START, 3, 1, "main,work", 0x1122334455667788ULL};
	wire_mailbox m = {0x40000, 0x1234, 1000, 1 << 20, 0x1122334455667788ULL};
	pvmmon_log_event ev[3];
	wire_cp cp;
	wire_buf b;

	wire__buf_init(&b);
	wire__register_encode(&b, &r);
	save_control("register", 0, &b);
	wire__buf_reset(&b);
	sample_events(ev);
	wire__trace_encode(&b, 0x40001, ev, 3);
	save_control("trace", 1, &b);
	wire__buf_reset(&b);
	wire__ctl_encode(&b, &c);
	save_control("ctl-start", 2, &b);
	wire__buf_reset(&b);
	c.cmd = WIRE_CTL_SNAPSHOT;
	c.procs = NULL;
	wire__ctl_encode(&b, &c);
	save_control("ctl-snapshot", 2, &b);
	wire__buf_reset(&b);
	/* pvmmon ctl sample 997 (the rate in gen). */
	c.cmd = WIRE_CTL_SAMPLE;
	c.gen = 997;
	wire__ctl_encode(&b, &c);
	save_control("ctl-sample", 2, &b);
	wire__buf_reset(&b);
	wire__mailbox_encode(&b, &m);
	save_control("mailbox", 3, &b);
	wire__buf_reset(&b);
	cp = tuple(2);
	wire__cp_put(&b, &cp);
	cp.on = 0;
	wire__cp_put(&b, &cp);
	cp = tuple(WIRE_CP_MAX);
	wire__cp_put(&b, &cp);
	save_control("tuples", 4, &b);
	wire__buf_reset(&b);
	{
		wire_pcount sent[2] = {{0x40003, 7, 2400000}, {0x40004, 1, INT64_MIN}},
		            seen[1] = {{0x40003, 5, INT64_MIN}};
		wire_pcand cand[2] = {{0x40003, 5, 3000000, 2900000, 4}, {0x40005, -1, 3100000, 3000000, 0}};
		wire_pwait w = {3, WIRE_PW_RECV, -1, 5, 2500000, INT64_MAX, "/bin/prog", 0x1234,
				2, 1, 2, sent, seen, cand, 30000, 2, 1, 0};

		wire__pwait_encode(&b, &w);
		save_control("pwait", 5, &b);
	}
	wire__buf_reset(&b);
	{
		wire_clock est = {0x40001, -1234567890123LL, 4500, 9000, 98765432100LL, 5};
		wire_clockset set = {-1234567890123LL, 4500, 98765432100LL, -40000000, 1};

		wire__clock_encode(&b, &est);
		save_control("clock", 6, &b);
		wire__buf_reset(&b);
		wire__clockset_encode(&b, &set);
		save_control("clockset", 7, &b);
	}
	wire__buf_free(&b);
}

/* A stream with every item kind: definitions, references, deltas, repeats, spawns,
 * handler deliveries, notify messages, clock and pid reads and group answers. */
static void replay_stream(wire_buf *out, uint64_t *n)
{
	replay_entry v[] = {
	    {PVMMON_EV_SPAWN, REPLAY_SPAWN, 0, 0, 0, 4, 0, NULL},
	    {PVMMON_EV_RECV, REPLAY_MSG, 1, 5, 0, 0, 0, NULL},
	    {PVMMON_EV_RECV, REPLAY_MSG, 2, 5, 0, 0, 0, NULL},
	    {PVMMON_EV_RECV, REPLAY_MSG, 1, 5, 3, 0, 0, NULL},
	    {PVMMON_EV_NRECV, REPLAY_NONE, 0, 0, 0, 0, 0, NULL},
	    {PVMMON_EV_TRECV, REPLAY_TIMEOUT, 0, 0, 0, 0, 0, NULL},
	    {PVMMON_EV_PROBE, REPLAY_MSG, 0, -1, -2, 0, 0, NULL},
	    {PVMMON_EV_SEND, REPLAY_HANDLED, 2, 7, 0, 40, 0, NULL},
	    {PVMMON_EV_RECV, REPLAY_NOTIFY, 3, 5, 0, 2, 0, NULL},
	    {REPLAY_SRC_GETTIMEOFDAY, REPLAY_SOURCE, 0, 0, 0, 0, 1763990000123456, NULL},
	    {REPLAY_SRC_GETPID, REPLAY_SOURCE, 0, 0, 0, 0, 4242, NULL},
	    {REPLAY_SRC_GETTIMEOFDAY, REPLAY_SOURCE, 0, 0, 0, 0, 1763990000123556, NULL},
	    {REPLAY_GRP_JOIN, REPLAY_GROUP, -1, 0, 0, 3, 0, "workers"},
	    {REPLAY_GRP_GSIZE, REPLAY_GROUP, -1, 0, 0, 5, 0, "workers"},
	    {REPLAY_GRP_GETTID, REPLAY_GROUP, 2, 0, 0, 0, 0, "workers"},
	    {REPLAY_GRP_GETINST, REPLAY_GROUP, 1, 0, 0, 4, 0, "all"},
	    {REPLAY_GRP_LEAVE, REPLAY_GROUP, -1, 0, 0, 0, 0, "all"},
	};
	replay_enc e;

	*n = 0;
	replay__enc_init(&e);
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		/* Runs of each entry, one of them long enough for a counted repeat. */
		for (int k = 0; k < (i == 4 ? 100 : i == 2 ? 3 : 1); k++, (*n)++)
			replay__enc_add(&e, &v[i]);
		if (i == 3)
			replay__enc_take(&e, out); /* a chunk boundary, as a task sends them */
	}
	replay__enc_take(&e, out);
	replay__enc_free(&e);
}

static void replays(void)
{
	wire_buf b;
	uint64_t n;
	char *text;

	wire__buf_init(&b);
	replay_stream(&b, &n);
	save("fuzz_replay", "stream", b.data, b.len);
	text = replay__b64_encode(b.data, b.len);
	if (!text)
		exit(1);
	save("fuzz_replay", "base64", text, strlen(text));
	free(text);
	wire__buf_free(&b);
}

/* A log with what the fixtures lack: a replay record, statics, a critical path, and
 * time histograms as pvmmon writes them (le64-base64, every bucket; the fixture's are
 * decimal). */
static void logs(void)
{
	static int64_t hv[3] = {4000000, -1, INT64_MAX};
	static pvmmon_log_hist th[2] = {{.metric = PVMMON_HIST_COMPUTE,
	                                 .focus = PVMMON_FOCUS_TASK,
	                                 .width_ns = 2000000,
	                                 .doublings = 1,
	                                 .to_ns = -1,
	                                 .nbuckets = 3,
	                                 .values = hv},
	                                {.metric = PVMMON_HIST_TIME,
	                                 .focus = PVMMON_FOCUS_STMT,
	                                 .width_ns = 2000000,
	                                 .doublings = 1,
	                                 .from_ns = 1000000,
	                                 .to_ns = -1,
	                                 .requested = "ctl",
	                                 .nbuckets = 2,
	                                 .values = hv}};
	static pvmmon_log_hist rh[1] = {{.metric = PVMMON_HIST_WAIT,
	                                 .focus = PVMMON_FOCUS_PROGRAM,
	                                 .width_ns = 2000000,
	                                 .doublings = 1,
	                                 .to_ns = -1,
	                                 .nbuckets = 1,
	                                 .values = hv}};
	/* The fourth is pvmd, the sender of the stream's notify message. */
	static char *senders[4] = {"0", "0.1", "t40007", "t80000000"};
	static char *args[1] = {"-n"};
	static pvmmon_log_cp_proc cpp[1] = {{"work", 4000000, 3000000}};
	pvmmon_log_event ev[3];
	pvmmon_log_task t;
	pvmmon_log log;
	pvmmon_log *back = NULL;
	wire_buf b;
	char *xml;
	size_t len;

	memset(&log, 0, sizeof(log));
	log.version_major = PVMMON_LOG_VERSION_MAJOR;
	log.version_minor = PVMMON_LOG_VERSION_MINOR;
	log.tool_version = "0.1.0";
	log.program = "/bin/app";
	log.nargs = 1;
	log.args = args;
	log.mode = "order";
	log.started = "2026-01-01T00:00:00Z";
	log.wall_ns = 7000000;
	log.exit_code = 0;
	log.replayable = 1;
	log.cp.enabled = 1;
	log.cp.length_ns = 4500000;
	log.cp.end_tid = 0x40001;
	log.cp.samples = 2;
	log.cp.generation = 1;
	log.cp.to_ns = -1;
	log.cp.nprocs = 1;
	log.cp.procs = cpp;
	log.trace.enabled = 1;
	log.trace.limit_bytes = 1 << 20;
	log.trace.kept = 3;
	log.hist.enabled = 1;
	log.hist.buckets = 4;
	log.hist.initial_width_ns = 1000000;
	log.hist.hottest = 2;
	log.nhists = 1;
	log.hists = rh;
	sample_task(&t);
	t.lid = "0";
	t.host = "vm";
	t.program = "app";
	t.status = PVMMON_TASK_EXITED;
	sample_events(ev);
	t.nevents = 3;
	t.events = ev;
	wire__buf_init(&b);
	replay_stream(&b, &t.record_entries);
	t.record = b.data;
	t.record_len = b.len;
	t.record_senders = senders;
	t.record_nsenders = 4;
	t.nhists = 2;
	t.hists = th;
	log.ntasks = 1;
	log.tasks = &t;
	log.nfindings = 1;
	log.findings = &(pvmmon_log_finding){"unpack", "0",
	                                     "task 0 unpacked a string at a.c:3 from a message "
	                                     "packed as 1 int at a.c:9 by task 0.1 (tag 1)",
	                                     2};
	if (pvmmon_log_format(&xml, &len, &log) < 0) {
		fprintf(stderr, "seeds: %s\n", pvmmon_error_last());
		exit(1);
	}
	/* A seed the reader refuses would only teach the fuzzer the error paths. */
	if (pvmmon_log_parse(&back, xml, len, "seed") < 0) {
		fprintf(stderr, "seeds: the generated log does not read back: %s\n",
			pvmmon_error_last());
		exit(1);
	}
	pvmmon_log_free(back);
	save("fuzz_log", "record", xml, len);
	free(xml);
	wire__buf_free(&b);
}

/* Hostfiles as users write them: the user guide's, every option and mark, the
 * integration tests' addresses, CR LF line ends and no final newline. */
static void hostfiles(void)
{
	static const struct {
		const char *name, *text;
	} v[] = {
	    {"guide", "# hosts: this machine first, by the name the others reach it under\n"
		      "node0.cluster\nnode1.cluster\nnode2.cluster  ep=/opt/solver/bin\n"},
	    {"options", "# every option\n* lo=bob so=pw\n\nnode0\n"
			"  node1\tep=/opt/a:$HOME/bin wd=/tmp sp=2000\n"
			"&node2 dx=/usr/lib/pvm3/lib/pvmd bx=dbg ip=node2-eth1 id=run7\n"
			"$node_3 so=ms\n&$spare lo=alice\n*\n"},
	    {"addresses", "# the master first, on its end of the veth pair\n10.77.1.1\n10.77.1.2\n"
			  "10.77.1.3\n"},
	    {"crlf", "localhost\r\nother sp=10\r\n"},
	    {"no-newline", "# last line unended\nlocalhost ep=/usr/bin:/bin wd=/home/u"},
	};
	/* As many host lines as pvmd takes, and a comment of the longest line: libFuzzer
	 * makes inputs no longer than its longest seed, which then reach both limits. */
	static char many[HOSTFILE_MAX_ENTRIES * 12 + 64], longest[HOSTFILE_MAX_LINE + 16];
	size_t len = 0;
	hostfile_list *l;

	len += (size_t)snprintf(many, sizeof(many), "# as many hosts as pvmd takes\n");
	for (int i = 0; i < HOSTFILE_MAX_ENTRIES; i++)
		len += (size_t)snprintf(many + len, sizeof(many) - len, "node%d\n", i);
	memset(longest, 'x', HOSTFILE_MAX_LINE);
	longest[0] = '#';
	snprintf(longest + HOSTFILE_MAX_LINE, sizeof(longest) - HOSTFILE_MAX_LINE, "\nnode\n");
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]) + 2; i++) {
		const char *name = i < sizeof(v) / sizeof(v[0]) ? v[i].name : i % 2 ? "longest" : "many";
		const char *text = i < sizeof(v) / sizeof(v[0]) ? v[i].text : i % 2 ? longest : many;

		/* A seed the reader refuses would only teach the fuzzer the error paths. */
		if (hostfile__parse(&l, name, text, strlen(text)) < 0) {
			fprintf(stderr, "seeds: hostfile %s does not read: %s\n", name,
				pvmmon_error_last());
			exit(1);
		}
		hostfile__free(l);
		save("fuzz_hostfile", name, text, strlen(text));
	}
}

/* Command lines of pvmmon run and replay, the words after "pvmmon" separated by NULs
 * as fuzz_cli reads them (it puts "run" first unless they start with "replay"). */
static void cmdlines(void)
{
	static const char *const v[][16] = {
	    {"trace-cp", "--trace=64K", "--cp=a,b+c", "prog", "x", NULL},
	    {"output", "-q", "-o", "out.xml", "--hostfile", "hosts", "--flush-ms", "250", "--",
	     "prog", "-n", "240", NULL},
	    {"preserve", "--mode=preserve", "--on-deadlock=abort", "--no-record", "prog", NULL},
	    {"cp-top", "--cp-top=4", "--cp-phase-ms=500", "--cp-exclusive", "--linger-ms=5000",
	     "prog", NULL},
	    {"raw", "--attach", "--raw", "--trace", "prog", "--trace", NULL},
	    {"replay", "replay", "rec.xml", "--on-divergence=continue-recording", "--stop-at",
	     "0.1:3", "-o", "again.xml", "prog", NULL},
	};
	char buf[512], *argv[17];

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		const char *replay = NULL;
		size_t len = 0;
		int n = 1, skip = 0, rc;
		cli_run_opts o;

		argv[0] = "run";
		for (int k = 1; v[i][k]; k++) {
			size_t w = strlen(v[i][k]) + 1;

			memcpy(buf + len, v[i][k], w);
			argv[n++] = buf + len;
			len += w;
		}
		argv[n] = NULL;
		if (n >= 3 && !strcmp(argv[1], "replay")) {
			replay = argv[2];
			skip = 2;
		}
		rc = cli__run_parse(n - skip, argv + skip, replay, &o);
		if (rc < 0) {
			fprintf(stderr, "seeds: command line %s does not read\n", v[i][0]);
			exit(1);
		}
		/* The seed ends without a NUL after its last word. */
		save("fuzz_cli", v[i][0], buf, len - 1);
	}
}

/* Resources of dynamic instrumentation, each checked to read. */
static void resources(void)
{
	static const char *const v[] = {
	    "all", "proc=solve", "task=0.1,file=kernel.c", "loop=mc.c:42", "kind=loop",
	    "stmt=solver.c:120", "task=0,kind=proc,proc=mix,line=34", "kind=stmt,file=a/b.c",
	};

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		char name[16];
		resource r;

		if (resource__parse(&r, v[i]) < 0) {
			fprintf(stderr, "seeds: resource %s does not read\n", v[i]);
			exit(1);
		}
		resource__clear(&r);
		snprintf(name, sizeof(name), "r%zu", i);
		save("fuzz_resource", name, v[i], strlen(v[i]));
	}
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: seeds CORPUS-ROOT\n");
		return 2;
	}
	root = argv[1];
	if (mkdir(root, 0777) < 0 && errno != EEXIST) {
		perror(root);
		return 1;
	}
	piggybacks();
	records();
	controls();
	messages();
	replays();
	logs();
	hostfiles();
	cmdlines();
	resources();
	return 0;
}
