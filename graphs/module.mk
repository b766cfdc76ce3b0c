# graphs/: turning logs into reports (text summary now; Graphviz renderings later).
GRAPHS_SRCS := $(wildcard graphs/*.c)
GRAPHS_OBJS := $(GRAPHS_SRCS:%.c=$(BUILD)/%.o)
GRAPHS_LIB  := $(LIB)/libpvmmon-graphs.a

$(GRAPHS_LIB): $(GRAPHS_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

ALL_TARGETS += $(GRAPHS_LIB)
UNIT_LINK_LIBS += $(GRAPHS_LIB)
