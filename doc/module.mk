# doc/: manual pages (installed by `make install`) and the log schema built into the library.
INSTALL_MAN += doc/pvmmon.1 doc/pvmmon-monitor.1 doc/pvmmon-cc.1
