# cli/: the pvmmon command.
CLI_SRCS := $(wildcard cli/*.c)
CLI_OBJS := $(CLI_SRCS:%.c=$(BUILD)/%.o)
CLI_BIN  := $(BIN)/pvmmon

$(CLI_BIN): $(CLI_OBJS) $(GRAPHS_LIB) $(COMMON_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $(CLI_OBJS) $(GRAPHS_LIB) $(COMMON_LIB) $(XML_LIBS) $(DW_LIBS) \
	    $(GVC_LIBS) $(PVM_LIBS)

ALL_TARGETS += $(CLI_BIN)
INSTALL_BIN += $(CLI_BIN)
