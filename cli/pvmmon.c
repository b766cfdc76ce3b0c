/* The pvmmon command: dispatches to run, replay, explore, validate, report, export, diff, top, cp and ctl. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static void usage(FILE *f)
{
	fprintf(f,
	        "usage: pvmmon <command> [options]\n"
	        "\n"
	        "Commands:\n"
	        "  run [-o LOG] [--hostfile F | --attach] [--] PROGRAM [ARGS]\n"
	        "                 run a PVM program under monitoring and write its XML log\n"
	        "  replay LOG [--] PROGRAM [ARGS]\n"
	        "                 run a recorded program again with the same outcomes\n"
	        "  explore [--runs N] [-o DIR] [--] PROGRAM [ARGS]\n"
	        "                 run a program under other legal message orders, keep those that break it\n"
	        "  validate LOG...\n"
	        "                 check logs against the log schema\n"
	        "  report LOG [--text | -o DIR]\n"
	        "                 print a top-down summary of a log, or write an HTML report\n"
	        "  export LOG [--csv DIR] [--json FILE]\n"
	        "                 write a log's tables as CSV files or one JSON document\n"
	        "  efficiency [--network=ideal|L,B] [--curve[=TASK]] LOG [LOG...]\n"
	        "                 efficiency of traced runs; predicted runs on another network or\n"
	        "                 with their wait causes faster\n"
	        "  diff A B [--top N]\n"
	        "                 compare two runs of a program, largest changes first\n"
	        "  top [--once] [LOG]\n"
	        "                 watch a running program (tasks, hot statements, critical path)\n"
	        "  cp start PROC,... | cp stop [LOG]\n"
	        "                 start or stop critical-path profiling in a running program\n"
	        "  ctl enable|disable RESOURCE [LOG]\n"
	        "  ctl histogram [--off] METRIC:FOCUS[,...] [LOG]\n"
	        "                 switch probe sites of a running program on or off\n"
	        "\n"
	        "`pvmmon <command> --help` describes a command. `pvmmon --version` prints the "
	        "version.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("pvmmon %s\n", PVMMON_VERSION);
		return 0;
	}
	if (!strcmp(argv[1], "run"))
		return cli__run(argc - 1, argv + 1);
	if (!strcmp(argv[1], "validate"))
		return cli__validate(argc - 1, argv + 1);
	if (!strcmp(argv[1], "report"))
		return cli__report(argc - 1, argv + 1);
	if (!strcmp(argv[1], "replay"))
		return cli__replay(argc - 1, argv + 1);
	if (!strcmp(argv[1], "top"))
		return cli__top(argc - 1, argv + 1);
	if (!strcmp(argv[1], "cp"))
		return cli__cp(argc - 1, argv + 1);
	if (!strcmp(argv[1], "export"))
		return cli__export(argc - 1, argv + 1);
	if (!strcmp(argv[1], "diff"))
		return cli__diff(argc - 1, argv + 1);
	if (!strcmp(argv[1], "efficiency"))
		return cli__efficiency(argc - 1, argv + 1);
	if (!strcmp(argv[1], "explore"))
		return cli__explore(argc - 1, argv + 1);
	if (!strcmp(argv[1], "ctl"))
		return cli__ctl(argc - 1, argv + 1);
	cli__error("'%s' is not a pvmmon command (see pvmmon --help)", argv[1]);
	return 2;
}
