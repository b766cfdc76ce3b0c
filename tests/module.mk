# tests/: the CUnit unit-test runner (no pvmd) and the integration runner (private VMs).
UNIT_SRCS := tests/unit/main.c $(wildcard tests/unit/*/*.c)
UNIT_OBJS := $(UNIT_SRCS:%.c=$(BUILD)/%.o)
UNIT_BIN  := $(BUILD)/tests/unit-tests

$(UNIT_BIN): $(UNIT_OBJS) $(UNIT_LINK_LIBS) $(REPLAY_LIB) $(COMMON_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(PVMMON_LDFLAGS) $(LDFLAGS) -o $@ $(UNIT_OBJS) $(UNIT_LINK_LIBS) $(COMMON_LINK) \
	    -lcunit $(XML_LIBS) $(DW_LIBS) $(PVM_LIBS) $(UNIT_EXTRA_LIBS) -ldl -lm

INTEG_SRCS := $(wildcard tests/integration/*.c)
INTEG_OBJS := $(INTEG_SRCS:%.c=$(BUILD)/%.o)
INTEG_BIN  := $(BUILD)/tests/integration-tests

$(INTEG_BIN): $(INTEG_OBJS) $(GRAPHS_LIB) $(REPLAY_LIB) $(COMMON_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(PVMMON_LDFLAGS) $(LDFLAGS) -o $@ $(INTEG_OBJS) $(GRAPHS_LIB) $(COMMON_LINK) -lcunit $(XML_LIBS) $(DW_LIBS) $(GVC_LIBS) $(PVM_LIBS) -lm

check-unit: $(UNIT_BIN)
	$(UNIT_BIN)

# The tests run make themselves (pvm-examples, a small project built with pvmmon-cc):
# that make must not inherit this one's flags, whose jobserver (make -j) it cannot reach.
TEST_ENV := env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL

# Integration tests need every program built; each test starts and halts its own VM.
check-integration: all $(INTEG_BIN)
	$(TEST_ENV) PVMMON_BUILD=$(BUILD) $(INTEG_BIN)

# make install into a fresh prefix, then a program built against it with pkg-config
# alone, and the shared libraries' exports (tests/install/check.sh).
check-install: all
	@d=$$(mktemp -d) && $(MAKE) --no-print-directory install PREFIX=$$d >/dev/null && \
	tests/install/check.sh $$d; status=$$?; rm -rf $$d; exit $$status

# No cycle between the modules of the folders of CYCLE_DIRS (scripts/check-cycles.sh
# reads the objects' symbols and the sources' includes), and the layer pictures of
# LAYER_DIRS' folders are their code's (from the objects: after all).
CYCLE_DIRS += common cli instrument export monitor graphs replay
check-cycles: all
	BUILD=$(BUILD) scripts/check-cycles.sh $(CYCLE_DIRS)
	@for d in $(LAYER_DIRS); do scripts/layers-dot.sh --check $$d || exit 1; done

check: check-cycles check-unit check-integration check-install

# make check-asan: the unit and the integration tests built with ASan and UBSan
# (SANITIZE=1, into build-asan/), the integration tests running the sanitized pvmmon,
# monitor, hooks library and apps. Every process of a run (pvmmon, the monitor, the
# program, its spawned tasks, uninstrumented programs with the hooks preloaded) writes
# its sanitizer reports into SAN_REPORTS, which must be empty at the end: a report
# fails the target even where the process's exit status is not looked at (spawned
# tasks, whose output goes to the pvmd's log). libpvm3's own leaks are suppressed
# (tests/lsan.supp).
SAN_REPORTS := $(CURDIR)/build-asan/sanitizer-reports
SAN_ENV := ASAN_OPTIONS=log_path=$(SAN_REPORTS)/asan:detect_leaks=1:halt_on_error=1 \
           UBSAN_OPTIONS=log_path=$(SAN_REPORTS)/ubsan:halt_on_error=1:print_stacktrace=1 \
           LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0

check-asan:
	$(MAKE) SANITIZE=1 all build-asan/tests/unit-tests build-asan/tests/integration-tests
	@rm -rf $(SAN_REPORTS) && mkdir -p $(SAN_REPORTS)
	@status=0; \
	$(SAN_ENV) build-asan/tests/unit-tests || status=1; \
	$(TEST_ENV) $(SAN_ENV) PVMMON_BUILD=build-asan build-asan/tests/integration-tests || status=1; \
	if [ -n "$$(ls -A $(SAN_REPORTS))" ]; then \
		echo "check-asan: sanitizer reports in $(SAN_REPORTS):"; \
		head -n 60 $(SAN_REPORTS)/*; \
		status=1; \
	fi; \
	[ $$status -eq 0 ] && echo "check-asan: unit and integration tests clean under ASan and UBSan"; \
	exit $$status

asan: check-asan

# make check-valgrind: the unit tests under valgrind's memcheck, then the integration
# suites that run the monitor (run, console, cc, examples, trace, cp, replay, faults,
# preserve, hosts) with every monitor that `pvmmon run` starts under memcheck too
# (PVMMON_MONITOR_WRAPPER; the console test's monitor is spawned by PVM and runs
# plain). Left out: vm, cli and report, which start no monitor, and load, whose tests
# bound the monitor's peak RSS (under valgrind, valgrind's). That takes some 10 minutes
# on two CPUs, within the 20 this target may take. An error or a definite
# leak makes the monitor exit 97, which fails its test, and every monitor's report
# stays in VG_REPORTS, which is checked at the end as well (a monitor killed on
# purpose has no exit status to look at). PVM tasks are not run under valgrind: its
# own preloads would reach their spawned children through PVM_EXPORT; make check-asan
# covers them.
VG_FLAGS := --leak-check=full --errors-for-leak-kinds=definite \
            --suppressions=$(CURDIR)/tests/valgrind.supp
VG_REPORTS := $(CURDIR)/$(BUILD)/valgrind-reports
VG_SUITES := run console cc examples trace cp replay faults preserve hosts

check-valgrind: all $(UNIT_BIN) $(INTEG_BIN)
	valgrind --error-exitcode=1 $(VG_FLAGS) $(UNIT_BIN)
	@rm -rf $(VG_REPORTS) && mkdir -p $(VG_REPORTS)
	@status=0; \
	$(TEST_ENV) PVMMON_MONITOR_WRAPPER="valgrind --error-exitcode=97 $(VG_FLAGS) \
	    --log-file=$(VG_REPORTS)/monitor.%p" \
	    PVMMON_BUILD=$(BUILD) $(INTEG_BIN) $(VG_SUITES) || status=1; \
	bad=$$(grep -l 'ERROR SUMMARY: [1-9]' $(VG_REPORTS)/* 2>/dev/null); \
	if [ -n "$$bad" ]; then \
		echo "check-valgrind: memcheck found errors in monitors:"; \
		for f in $$bad; do grep -v '^==[0-9]*== *$$' $$f | head -n 60; done; \
		status=1; \
	fi; \
	[ $$status -eq 0 ] && echo "check-valgrind: unit tests and monitors clean under memcheck"; \
	exit $$status

valgrind: check-valgrind

ALL_TARGETS += $(UNIT_BIN)
