# monitor/: pvmmon-monitor, the PVM task that collects records and writes the log.
MONITOR_SRCS := $(wildcard monitor/*.c)
MONITOR_OBJS := $(MONITOR_SRCS:%.c=$(BUILD)/%.o)
MONITOR_BIN  := $(BIN)/pvmmon-monitor

$(MONITOR_BIN): $(MONITOR_OBJS) $(REPLAY_LIB) $(COMMON_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(PVMMON_LDFLAGS) $(LDFLAGS) -o $@ $(MONITOR_OBJS) $(COMMON_LINK) $(XML_LIBS) $(DW_LIBS) $(PVM_LIBS)

ALL_TARGETS += $(MONITOR_BIN)
INSTALL_BIN += $(MONITOR_BIN)

# The monitor's objects but main as an archive, so unit tests link the pieces they
# exercise (the decision rule of preserve mode).
MONITOR_CORE := $(LIB)/libpvmmon-monitor-core.a

$(MONITOR_CORE): $(filter-out $(BUILD)/monitor/main.o,$(MONITOR_OBJS))
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

ALL_TARGETS += $(MONITOR_CORE)
UNIT_LINK_LIBS += $(MONITOR_CORE)
