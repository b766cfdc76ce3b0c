# instrument/: pvmmon-cc, the source instrumenter (libclang) and compiler wrapper.
# libclang: the newest /usr/lib/llvm-N that has its headers and library (sort -V orders
# by version: llvm-14 after llvm-9), unless CLANG_PREFIX is given.
ifndef CLANG_PREFIX
CLANG_PREFIX := $(shell for d in /usr/lib/llvm-*; do \
                    [ -e $$d/include/clang-c/Index.h ] && [ -e $$d/lib/libclang.so ] && echo $$d; \
                done | sort -V | tail -n 1)
endif
ifeq ($(CLANG_PREFIX),)
ifneq ($(filter-out clean format,$(or $(MAKECMDGOALS),all)),)
$(error no libclang found: pvmmon-cc needs /usr/lib/llvm-N/include/clang-c/Index.h and \
        lib/libclang.so (Debian: apt-get install libclang-dev), or CLANG_PREFIX=DIR)
endif
endif
CLANG_CFLAGS := -I$(CLANG_PREFIX)/include
CLANG_LIBS   := -L$(CLANG_PREFIX)/lib -Wl,-rpath,$(CLANG_PREFIX)/lib -lclang

INSTR_CORE := $(LIB)/libpvmmon-instrument.a

$(BUILD)/instrument/%.o: CPPFLAGS += $(CLANG_CFLAGS)
$(BUILD)/tests/unit/instrument/%.o: CPPFLAGS += $(CLANG_CFLAGS)

$(INSTR_CORE): $(BUILD)/instrument/rewrite.o $(BUILD)/instrument/rewriter.o \
		$(BUILD)/instrument/split.o $(BUILD)/instrument/plain.o $(BUILD)/instrument/counted.o
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(BIN)/pvmmon-cc: $(BUILD)/instrument/pvmmon-cc.o $(INSTR_CORE) $(COMMON_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(PVMMON_LDFLAGS) $(LDFLAGS) -o $@ $^ $(CLANG_LIBS)

ALL_TARGETS += $(BIN)/pvmmon-cc $(INSTR_CORE)
UNIT_LINK_LIBS += $(INSTR_CORE)
UNIT_EXTRA_LIBS += $(CLANG_LIBS)
INSTALL_BIN += $(BIN)/pvmmon-cc
