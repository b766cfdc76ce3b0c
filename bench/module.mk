# bench/: benchmarks, monitored against raw PVM; results go to doc/benchmarks.md.
bench: all
	bench/run.sh $(BENCH_REPEATS)
