# tests/: the CUnit unit-test runner (no pvmd) and the integration runner (private VMs).
UNIT_SRCS := tests/unit/main.c $(wildcard tests/unit/*/*.c)
UNIT_OBJS := $(UNIT_SRCS:%.c=$(BUILD)/%.o)
UNIT_BIN  := $(BUILD)/tests/unit-tests

$(UNIT_BIN): $(UNIT_OBJS) $(UNIT_LINK_LIBS) $(COMMON_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $(UNIT_OBJS) $(UNIT_LINK_LIBS) $(COMMON_LIB) \
	    -lcunit $(XML_LIBS) $(DW_LIBS) $(PVM_LIBS) $(UNIT_EXTRA_LIBS) -ldl -lm

INTEG_SRCS := $(wildcard tests/integration/*.c)
INTEG_OBJS := $(INTEG_SRCS:%.c=$(BUILD)/%.o)
INTEG_BIN  := $(BUILD)/tests/integration-tests

$(INTEG_BIN): $(INTEG_OBJS) $(GRAPHS_LIB) $(COMMON_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $(INTEG_OBJS) $(GRAPHS_LIB) $(COMMON_LIB) -lcunit $(XML_LIBS) $(DW_LIBS) $(GVC_LIBS) $(PVM_LIBS) -lm

check-unit: $(UNIT_BIN)
	$(UNIT_BIN)

# Integration tests need every program built; each test starts and halts its own VM.
check-integration: all $(INTEG_BIN)
	PVMMON_BUILD=$(BUILD) $(INTEG_BIN)

check: check-unit check-integration

valgrind: $(UNIT_BIN)
	valgrind --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite \
	    --suppressions=tests/valgrind.supp $(UNIT_BIN)

ALL_TARGETS += $(UNIT_BIN)
