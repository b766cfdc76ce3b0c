# pvmhooks/: libpvmhooks.so, the in-task runtime (preloaded, or linked before -lpvm3).
HOOKS_SRCS := $(wildcard pvmhooks/*.c)
HOOKS_OBJS := $(HOOKS_SRCS:%.c=$(BUILD)/%.o)
HOOKS_SO   := $(LIB)/libpvmhooks.so
# The same objects as an archive, so unit tests link only the pieces they exercise.
HOOKS_CORE := $(LIB)/libpvmhooks-core.a

# --exclude-libs: the archives' public functions (errors, log model) stay internal; the
# library exports only the PVM wrappers and the probe API.
$(HOOKS_SO): $(HOOKS_OBJS) $(REPLAY_LIB) $(COMMON_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(PVMMON_LDFLAGS) $(LDFLAGS) -shared -Wl,-soname,libpvmhooks.so -Wl,-z,defs -Wl,--exclude-libs,ALL -o $@ \
	    $(HOOKS_OBJS) $(COMMON_LINK) $(PVM_LIBS) -ldl

$(HOOKS_CORE): $(HOOKS_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

ALL_TARGETS += $(HOOKS_SO) $(HOOKS_CORE)
INSTALL_LIB += $(HOOKS_SO)
UNIT_LINK_LIBS += $(HOOKS_CORE)
# Its modules call only down (packages: pvmhooks/packages), as its picture shows.
CYCLE_DIRS += pvmhooks
LAYER_DIRS += pvmhooks
