# instrument/: pvmmon-cc, the source instrumenter (libclang) and compiler wrapper.
CLANG_PREFIX := $(lastword $(sort $(wildcard /usr/lib/llvm-*)))
CLANG_CFLAGS := -I$(CLANG_PREFIX)/include
CLANG_LIBS   := -L$(CLANG_PREFIX)/lib -Wl,-rpath,$(CLANG_PREFIX)/lib -lclang

INSTR_SRCS := $(wildcard instrument/*.c)
INSTR_OBJS := $(INSTR_SRCS:%.c=$(BUILD)/%.o)
INSTR_CORE := $(LIB)/libpvmmon-instrument.a

$(BUILD)/instrument/%.o: CPPFLAGS += $(CLANG_CFLAGS)

$(INSTR_CORE): $(BUILD)/instrument/rewrite.o $(BUILD)/instrument/split.o \
		$(BUILD)/instrument/plain.o
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(BIN)/pvmmon-cc: $(BUILD)/instrument/pvmmon-cc.o $(INSTR_CORE) $(COMMON_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(CLANG_LIBS)

ALL_TARGETS += $(BIN)/pvmmon-cc $(INSTR_CORE)
UNIT_LINK_LIBS += $(INSTR_CORE)
UNIT_EXTRA_LIBS += $(CLANG_LIBS)
INSTALL_BIN += $(BIN)/pvmmon-cc
