# bench/: benchmarks, monitored against raw PVM and instrumented against plain builds;
# results go to doc/benchmarks.md.
BENCH_BIN := $(BUILD)/bench

$(BENCH_BIN)/probecost: bench/probecost.c $(HOOKS_SO)
	@mkdir -p $(dir $@)
	$(CC) -O2 -Iinclude -o $@ $< -L$(LIB) -Wl,-rpath,'$$ORIGIN/../lib' -lpvmhooks -lpvm3

# What finding a call's statement costs, past the Fortran binding and not.
$(BENCH_BIN)/callsite: bench/callsite.c $(HOOKS_CORE) $(REPLAY_LIB) $(COMMON_LIB)
	@mkdir -p $(dir $@)
	$(CC) -O2 -D_GNU_SOURCE -o $@ $< $(HOOKS_CORE) -Wl,--start-group $(REPLAY_LIB) $(COMMON_LIB) \
	    -Wl,--end-group -lpvm3 -ldl -lxml2 -lelf -ldw

# What the time histograms cost per wrapped call (bench section 19).
$(BENCH_BIN)/histcall: bench/histcall.c $(HOOKS_CORE) $(REPLAY_LIB) $(COMMON_LIB)
	@mkdir -p $(dir $@)
	$(CC) -O2 -D_GNU_SOURCE -Iinclude -o $@ $< $(HOOKS_CORE) -Wl,--start-group $(REPLAY_LIB) $(COMMON_LIB) \
	    -Wl,--end-group -lpvm3 -ldl -lxml2 -lelf -ldw

# What a flush of call-path samples costs (bench section 28).
$(BENCH_BIN)/sampleflush: bench/sampleflush.c $(HOOKS_CORE) $(REPLAY_LIB) $(COMMON_LIB)
	@mkdir -p $(dir $@)
	$(CC) -O2 -D_GNU_SOURCE -Iinclude -o $@ $< $(HOOKS_CORE) -Wl,--start-group $(REPLAY_LIB) $(COMMON_LIB) \
	    -Wl,--end-group -lpvm3 -ldl -lxml2 -lelf -ldw

# The cost of an empty poll (pvm_nrecv, pvm_probe), run raw and monitored.
$(BENCH_BIN)/pollcost: bench/pollcost.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -o $@ $< -lpvm3

# The call-heavy program four ways: plain, gprof, empty -finstrument-functions hooks,
# and pvmmon-cc.
$(BENCH_BIN)/calls-plain: bench/calls.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -o $@ $<
$(BENCH_BIN)/calls-gprof: bench/calls.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -pg -o $@ $<
$(BENCH_BIN)/calls-cyg: bench/calls.c bench/cyg_hooks.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -finstrument-functions -o $@ bench/calls.c bench/cyg_hooks.c
$(BENCH_BIN)/calls-pvmmon: bench/calls.c $(BIN)/pvmmon-cc $(HOOKS_SO)
	@mkdir -p $(dir $@)
	$(BIN)/pvmmon-cc -O2 -o $@ bench/calls.c

# The cost budget's subject, built with pvmmon-cc (its plain build is build/bin/callheavy).
$(BENCH_BIN)/callheavy-cc: apps/callheavy.c $(BIN)/pvmmon-cc $(HOOKS_SO)
	@mkdir -p $(dir $@)
	$(BIN)/pvmmon-cc -O2 -o $@ apps/callheavy.c -lpvm3

# A synthetic log of a large run (64 tasks, 500 statements) for the report benchmark.
$(BENCH_BIN)/biglog: bench/biglog.c $(REPLAY_LIB) $(COMMON_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(PVMMON_CPPFLAGS) $(CPPFLAGS) $(PVMMON_CFLAGS) $(CFLAGS) $(PVMMON_LDFLAGS) $(LDFLAGS) -o $@ $< $(COMMON_LINK) $(XML_LIBS) $(DW_LIBS) $(PVM_LIBS)

# The critical-path overhead load, built with pvmmon-cc so its procedure has a probe.
$(BENCH_BIN)/cprate: bench/cprate.c apps/apputil.h $(BIN)/pvmmon-cc $(HOOKS_SO)
	@mkdir -p $(dir $@)
	$(BIN)/pvmmon-cc -O2 -o $@ bench/cprate.c -lpvm3

# Clock reads, plain and interposed (record and replay of clock reads).
$(BENCH_BIN)/clockread: bench/clockread.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -o $@ $< $(PVM_LIBS)

BENCH_PROGS := $(BENCH_BIN)/clockread $(BENCH_BIN)/cprate $(BENCH_BIN)/biglog $(BENCH_BIN)/probecost $(BENCH_BIN)/pollcost $(BENCH_BIN)/calls-plain $(BENCH_BIN)/calls-gprof \
               $(BENCH_BIN)/calls-cyg $(BENCH_BIN)/calls-pvmmon $(BENCH_BIN)/callheavy-cc \
               $(BENCH_BIN)/callsite $(BENCH_BIN)/histcall \
               $(BENCH_BIN)/sampleflush

bench: all $(BENCH_PROGS)
	PVMMON_BUILD=$(BUILD) bench/run.sh $(BENCH_REPEATS)
