# include/: the public headers, and libpvmmon.so, the library that implements the ones
# about logs and reports (log.h, errors.h, report.h, callgraph.h, cpath.h, export.h, diff.h), with its
# pkg-config file. probe.h is implemented by libpvmhooks.so.
LIBPVMMON_SONAME := libpvmmon.so.0
LIBPVMMON_SO     := $(LIB)/$(LIBPVMMON_SONAME)
LIBPVMMON_LINK   := $(LIB)/libpvmmon.so
# The objects behind the headers are linked whole, so that their PVMMON_EXTERN
# functions are exported; what else they use comes from the archives and stays hidden.
LIBPVMMON_OBJS   := $(addprefix $(BUILD)/common/,errors.o log_model.o log_read.o log_write.o \
                      schema.o) $(REPLAY_OBJS) $(GRAPHS_OBJS)

$(LIBPVMMON_SO): $(LIBPVMMON_OBJS) $(REPLAY_LIB) $(COMMON_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(PVMMON_LDFLAGS) $(LDFLAGS) -shared -Wl,-soname,$(LIBPVMMON_SONAME) -Wl,-z,defs \
	    -Wl,--exclude-libs,ALL -o $@ $(LIBPVMMON_OBJS) $(COMMON_LINK) $(XML_LIBS) $(GVC_LIBS) \
	    $(DW_LIBS) -lm

$(LIBPVMMON_LINK): $(LIBPVMMON_SO)
	ln -sf $(LIBPVMMON_SONAME) $@

ALL_TARGETS += $(LIBPVMMON_SO) $(LIBPVMMON_LINK)

# Installs the library beside its headers' folder's siblings: PREFIX/lib, with the
# development link and pvmmon.pc (its prefix written in at install time).
install-libpvmmon: $(LIBPVMMON_SO)
	install -d $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 755 $(LIBPVMMON_SO) $(DESTDIR)$(PREFIX)/lib/
	ln -sf $(LIBPVMMON_SONAME) $(DESTDIR)$(PREFIX)/lib/libpvmmon.so
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' include/pvmmon.pc.in \
	    > $(DESTDIR)$(PREFIX)/lib/pkgconfig/pvmmon.pc

.PHONY: install-libpvmmon
