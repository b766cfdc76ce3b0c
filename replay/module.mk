# replay/: the replay record's codec (encoder, decoder), sender ids mapped to logical
# ids and a record checked against a log (stream.c): the library under the replay
# clients pvmhooks/rr.c and monitor/rrmon.c and the log reader and writer.
REPLAY_SRCS := $(wildcard replay/*.c)
REPLAY_OBJS := $(REPLAY_SRCS:%.c=$(BUILD)/%.o)
REPLAY_LIB  := $(LIB)/libpvmmon-replay.a

$(REPLAY_LIB): $(REPLAY_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

ALL_TARGETS += $(REPLAY_LIB)
