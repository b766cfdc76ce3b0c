# export/: writers of trace formats other programs read (OTF2, with libotf2), linked by
# the pvmmon command only, so that libpvmmon.so does not depend on them.
EXPORT_SRCS := $(wildcard export/*.c)
EXPORT_OBJS := $(EXPORT_SRCS:%.c=$(BUILD)/%.o)
EXPORT_LIB  := $(LIB)/libpvmmon-export.a
OTF2_LIBS   := $(shell pkg-config --libs otf2)

$(EXPORT_LIB): $(EXPORT_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(EXPORT_OBJS): PVMMON_CPPFLAGS += $(shell pkg-config --cflags otf2)
$(BUILD)/tests/unit/export/%.o: PVMMON_CPPFLAGS += $(shell pkg-config --cflags otf2)

ALL_TARGETS += $(EXPORT_LIB)
