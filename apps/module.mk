# apps/: demo PVM programs (plain PVM 3.4, no pvmmon headers) used by the demo, the tests
# and the benchmarks. matmul-linked is matmul with libpvmhooks linked before -lpvm3.
APPS_PROGS := slowstage worder matmul matmul-worker mcpi mcpi-worker pingpong pingpong-echo crash crash-worker pbcheck race \
              pipeline pipeline-stage ring ring-node issort issort-worker order fig4 flood flood-worker \
              callheavy mhf notify dies dies-worker rhang vmcount sendall fidelity interp seeded \
              phases lifecycle allwait upkcheck gorace tpoll notifymw prace tagrace hotspots \
              tidfile endwait awaywait
APPS_BINS  := $(APPS_PROGS:%=$(BIN)/%) $(BIN)/matmul-linked

$(BIN)/%: $(BUILD)/apps/%.o
	@mkdir -p $(dir $@)
	$(CC) $(PVMMON_LDFLAGS) $(LDFLAGS) -o $@ $< $(PVM_LIBS)

# The hooks library comes before -lpvm3 so its wrappers are the definitions the program
# binds to; the rpath finds it beside the program in the build tree.
$(BIN)/matmul-linked: $(BUILD)/apps/matmul.o $(HOOKS_SO)
	@mkdir -p $(dir $@)
	$(CC) $(PVMMON_LDFLAGS) $(LDFLAGS) -o $@ $< -L$(LIB) -Wl,-rpath,'$$ORIGIN/../lib' -lpvmhooks $(PVM_LIBS)

ALL_TARGETS += $(APPS_BINS)
# The demo programs are not installed: their short names would clash with system tools.

# groups uses dynamic groups: libgpvm3 (and, at run time, the group server pvmgs).
$(BIN)/groups: $(BUILD)/apps/groups.o
	@mkdir -p $(dir $@)
	$(CC) $(PVMMON_LDFLAGS) $(LDFLAGS) -o $@ $< -lgpvm3 $(PVM_LIBS)

# joinonly calls only group membership calls and pvm_exit.
$(BIN)/joinonly: $(BUILD)/apps/joinonly.o
	@mkdir -p $(dir $@)
	$(CC) $(PVMMON_LDFLAGS) $(LDFLAGS) -o $@ $< -lgpvm3 $(PVM_LIBS)

ALL_TARGETS += $(BIN)/groups $(BIN)/joinonly

# gjoin's course follows its group answers (instances, tids, sizes): libgpvm3 too.
$(BIN)/gjoin: $(BUILD)/apps/gjoin.o
	@mkdir -p $(dir $@)
	$(CC) $(PVMMON_LDFLAGS) $(LDFLAGS) -o $@ $< -lgpvm3 $(PVM_LIBS)

ALL_TARGETS += $(BIN)/gjoin

# latebar's members meet at libgpvm3's pvm_barrier.
$(BIN)/latebar: $(BUILD)/apps/latebar.o
	@mkdir -p $(dir $@)
	$(CC) $(PVMMON_LDFLAGS) $(LDFLAGS) -o $@ $< -lgpvm3 $(PVM_LIBS)

ALL_TARGETS += $(BIN)/latebar

# hang's barrier mode uses libgpvm3's pvm_barrier.
$(BIN)/hang: $(BUILD)/apps/hang.o
	@mkdir -p $(dir $@)
	$(CC) $(PVMMON_LDFLAGS) $(LDFLAGS) -o $@ $< -lgpvm3 $(PVM_LIBS)

# hang-linked is hang with libpvmhooks linked before -lpvm3, for the console.
$(BIN)/hang-linked: $(BUILD)/apps/hang.o $(HOOKS_SO)
	@mkdir -p $(dir $@)
	$(CC) $(PVMMON_LDFLAGS) $(LDFLAGS) -o $@ $< -L$(LIB) -Wl,-rpath,'$$ORIGIN/../lib' -lpvmhooks \
	    -lgpvm3 $(PVM_LIBS)

ALL_TARGETS += $(BIN)/hang $(BIN)/hang-linked
