# cli/: the pvmmon command.
CLI_SRCS := $(wildcard cli/*.c)
CLI_OBJS := $(CLI_SRCS:%.c=$(BUILD)/%.o)
CLI_BIN  := $(BIN)/pvmmon

$(CLI_BIN): $(CLI_OBJS) $(EXPORT_LIB) $(GRAPHS_LIB) $(REPLAY_LIB) $(COMMON_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(PVMMON_LDFLAGS) $(LDFLAGS) -o $@ $(CLI_OBJS) $(EXPORT_LIB) $(GRAPHS_LIB) $(COMMON_LINK) $(XML_LIBS) $(DW_LIBS) \
	    $(GVC_LIBS) $(OTF2_LIBS) $(PVM_LIBS)

ALL_TARGETS += $(CLI_BIN)
INSTALL_BIN += $(CLI_BIN)

# The command's modules but its main as an archive, so that the unit tests link them
# without the rest of the command (the fuzz target builds its own option reader). They
# call into graphs/ and export/, which the unit tests link after them.
CLI_CORE := $(LIB)/libpvmmon-cli-core.a

$(CLI_CORE): $(filter-out $(BUILD)/cli/pvmmon.o,$(CLI_OBJS))
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

ALL_TARGETS += $(CLI_CORE)
UNIT_LINK_LIBS += $(CLI_CORE) $(EXPORT_LIB) $(GRAPHS_LIB)
UNIT_EXTRA_LIBS += $(OTF2_LIBS)
