# graphs/: turning logs into reports: text summary, Graphviz graphs, the HTML report.
GRAPHS_SRCS := $(wildcard graphs/*.c)
GRAPHS_OBJS := $(GRAPHS_SRCS:%.c=$(BUILD)/%.o)
GRAPHS_LIB  := $(LIB)/libpvmmon-graphs.a

$(GRAPHS_LIB): $(GRAPHS_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(GRAPHS_OBJS): PVMMON_CPPFLAGS += $(GVC_CFLAGS)

ALL_TARGETS += $(GRAPHS_LIB)
UNIT_EXTRA_LIBS += $(GVC_LIBS)
UNIT_LINK_LIBS += $(GRAPHS_LIB)
