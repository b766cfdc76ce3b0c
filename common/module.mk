# common/: code shared by the hooks library, the monitor and the CLI.
COMMON_SRCS := $(wildcard common/*.c)
COMMON_OBJS := $(COMMON_SRCS:%.c=$(BUILD)/%.o) $(BUILD)/common/schema.o
COMMON_LIB  := $(LIB)/libpvmmon-common.a

# The log schema is built into the library so validation needs no installed file.
$(BUILD)/common/schema.o: common/schema.S doc/pvmmon-log.rng
	@mkdir -p $(dir $@)
	$(CC) -c -o $@ common/schema.S

$(COMMON_LIB): $(COMMON_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

ALL_TARGETS += $(COMMON_LIB)
