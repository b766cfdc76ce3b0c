# bench/: benchmarks, monitored against raw PVM; results go to doc/benchmarks.md.
bench: all
	PVMMON_BUILD=$(BUILD) bench/run.sh $(BENCH_REPEATS)
