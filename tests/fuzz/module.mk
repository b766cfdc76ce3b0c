# tests/fuzz/: libFuzzer targets for every reader of untrusted bytes (make fuzz).
#
# Everything is built with clang into build-fuzz/, apart from the gcc build in $(BUILD):
# the common/ and replay/ sources are compiled again with the fuzzer's coverage and the sanitizers,
# because a finding in an uninstrumented library would go unseen.
FUZZ_CC      ?= clang
FUZZ_DIR     := build-fuzz
FUZZ_SECONDS ?= 20
FUZZ_TARGETS := fuzz_log fuzz_piggyback fuzz_records fuzz_control fuzz_replay fuzz_hostfile \
                fuzz_cli fuzz_resource fuzz_wire
FUZZ_SAN     := -fsanitize=fuzzer,address,undefined
FUZZ_CFLAGS  := $(FUZZ_SAN) -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g -O1 \
                -std=gnu11 -Wall -Wextra
FUZZ_CPPFLAGS := -Iinclude $(shell pkg-config --cflags libxml-2.0) \
                 -DPVMMON_VERSION='"$(VERSION)"' -D_GNU_SOURCE
# vm.c and symbols.c need PVM and libdw; an archive links only what a target uses. It
# holds replay/ too, whose record the log reader checks (one archive, no link group).
FUZZ_COMMON_OBJS := $(COMMON_SRCS:%.c=$(FUZZ_DIR)/%.o) $(REPLAY_SRCS:%.c=$(FUZZ_DIR)/%.o) \
                    $(FUZZ_DIR)/common/schema.o
FUZZ_COMMON_LIB  := $(FUZZ_DIR)/lib/libpvmmon-common.a
# The option reader of pvmmon run and the error line it prints with, for fuzz_cli and
# the seed generator (which checks that its command lines read).
FUZZ_CLI_OBJS := $(FUZZ_DIR)/cli/runopts.o $(FUZZ_DIR)/cli/error.o
# A valid message of every kind, shared with the unit tests, for fuzz_wire's seeds.
FUZZ_SAMPLE_OBJS := $(FUZZ_DIR)/tests/unit/common/wire_samples.o
FUZZ_BINS    := $(FUZZ_TARGETS:%=$(FUZZ_DIR)/bin/%)
FUZZ_SEEDS   := $(FUZZ_DIR)/bin/seeds
FUZZ_CORPUS  := $(FUZZ_DIR)/corpus
FUZZ_RUN_FLAGS ?= -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=2048 -timeout=10 \
                  -print_final_stats=1

$(FUZZ_DIR)/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CPPFLAGS) $(FUZZ_CFLAGS) -MMD -MP -c -o $@ $<

$(FUZZ_DIR)/common/schema.o: common/schema.S doc/pvmmon-log.rng
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -c -o $@ common/schema.S

$(FUZZ_COMMON_LIB): $(FUZZ_COMMON_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(FUZZ_DIR)/bin/fuzz_%: $(FUZZ_DIR)/tests/fuzz/fuzz_%.o $(FUZZ_COMMON_LIB)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_SAN) -o $@ $< $(FUZZ_COMMON_LIB) $(XML_LIBS) -lm

$(FUZZ_DIR)/bin/fuzz_cli: $(FUZZ_DIR)/tests/fuzz/fuzz_cli.o $(FUZZ_CLI_OBJS) $(FUZZ_COMMON_LIB)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_SAN) -o $@ $< $(FUZZ_CLI_OBJS) $(FUZZ_COMMON_LIB) $(XML_LIBS) -lm

# The seed generator has its own main, so it links without libFuzzer's; the coverage
# hooks of the instrumented objects then fall back to the sanitizer runtime's.
$(FUZZ_SEEDS): $(FUZZ_DIR)/tests/fuzz/seeds.o $(FUZZ_CLI_OBJS) $(FUZZ_SAMPLE_OBJS) \
               $(FUZZ_COMMON_LIB)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -fsanitize=address,undefined -o $@ $< $(FUZZ_CLI_OBJS) $(FUZZ_SAMPLE_OBJS) \
	    $(FUZZ_COMMON_LIB) $(XML_LIBS) -lm

# The seed corpora: the fixture logs, and small valid encodings of every message kind,
# hostfiles and command lines.
# libFuzzer adds what it finds to the same folders, so a later run starts from there.
$(FUZZ_CORPUS)/.seeded: $(FUZZ_SEEDS) $(wildcard tests/fixtures/*.xml)
	@mkdir -p $(FUZZ_TARGETS:%=$(FUZZ_CORPUS)/%)
	cp tests/fixtures/*.xml $(FUZZ_CORPUS)/fuzz_log/
	$(FUZZ_SEEDS) $(FUZZ_CORPUS)
	touch $@

fuzz-build: $(FUZZ_BINS) $(FUZZ_CORPUS)/.seeded

# Runs every target for FUZZ_SECONDS, all of them even when one crashes, and fails if
# any did; a crash, leak, timeout or memory blow-up leaves its input in
# build-fuzz/crashes/<target>/.
fuzz: fuzz-build
	@failed=""; \
	for t in $(FUZZ_TARGETS); do \
		mkdir -p $(FUZZ_DIR)/crashes/$$t; \
		dict=""; [ -f tests/fuzz/$${t#fuzz_}.dict ] && dict="-dict=tests/fuzz/$${t#fuzz_}.dict"; \
		echo "fuzz: $$t for $(FUZZ_SECONDS)s"; \
		$(FUZZ_DIR)/bin/$$t $(FUZZ_RUN_FLAGS) $$dict \
		    -artifact_prefix=$(FUZZ_DIR)/crashes/$$t/ $(FUZZ_CORPUS)/$$t \
		    >$(FUZZ_DIR)/$$t.log 2>&1 || failed="$$failed $$t"; \
		tail -n 12 $(FUZZ_DIR)/$$t.log | grep -E 'stat::|ERROR|SUMMARY|Done' || true; \
	done; \
	if [ -n "$$failed" ]; then \
		echo "fuzz: FAILED:$$failed (inputs in $(FUZZ_DIR)/crashes/, logs in $(FUZZ_DIR)/*.log)"; \
		exit 1; \
	fi; \
	echo "fuzz: all targets ran clean"

.PHONY: fuzz-build
# The targets' objects are kept, so that a relink does not recompile them.
.SECONDARY: $(FUZZ_TARGETS:%=$(FUZZ_DIR)/tests/fuzz/%.o) $(FUZZ_DIR)/tests/fuzz/seeds.o
CLEAN_EXTRA += $(FUZZ_DIR)

-include $(shell find $(FUZZ_DIR) -name '*.d' 2>/dev/null)
