/*
 * pvmmon-cc: a drop-in C compiler wrapper that instruments the user's sources with
 * procedure and loop probes (rewrite.c), compiles them with the real compiler and
 * links libpvmhooks before -lpvm3. All other compiler flags pass through unchanged.
 */
#include <errno.h>
#include <ftw.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pvmmon/errors.h"
#include "rewrite.h"

static const char *real_cc(void)
{
	const char *cc = getenv("PVMMON_CC");

	return cc && *cc ? cc : "gcc";
}

static void usage(FILE *f)
{
	fprintf(f,
	        "usage: pvmmon-cc [compiler options] FILES...\n"
	        "Compiles C sources like gcc, with pvmmon's procedure and loop probes inserted,\n"
	        "and links libpvmhooks before -lpvm3, so the program is monitored under\n"
	        "`pvmmon run` or when spawned from the PVM console. Use it as CC=pvmmon-cc.\n"
	        "The real compiler is $PVMMON_CC (default gcc). Line numbers in diagnostics and\n"
	        "debug information are those of your sources.\n"
	        "`pvmmon-cc --show FILE.c [FLAGS]` prints the instrumented source.\n");
}

/* Finds a file relative to this program (build tree or installation). */
static char *beside_me(const char *const *rel)
{
	char self[PATH_MAX], *dir, path[PATH_MAX + 64];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n <= 0)
		return NULL;
	self[n] = '\0';
	dir = dirname(self);
	for (; *rel; rel++) {
		char real[PATH_MAX];

		snprintf(path, sizeof(path), "%s/%s", dir, *rel);
		if (realpath(path, real))
			return strdup(real);
	}
	return NULL;
}

static int is_source(const char *a)
{
	size_t l = strlen(a);

	return a[0] != '-' && l > 2 && !strcmp(a + l - 2, ".c");
}

/* Options whose value is the next argument (so it is neither a file nor a flag). */
static int takes_value(const char *a)
{
	static const char *const opts[] = {
	    "-o", "-MF", "-MT", "-MQ", "-include", "-imacros", "-isystem", "-iquote", "-idirafter",
	    "-x", "-I",  "-D",  "-U",  "-L",       "-l",       "-Xlinker", "-T",      NULL};

	for (const char *const *o = opts; *o; o++)
		if (!strcmp(a, *o))
			return 1;
	return 0;
}

/* Whether file (a file name, no folder) is library name's: lib<name>.so, a versioned
 * lib<name>.so.3 or the archive lib<name>.a. */
static int library_file(const char *file, const char *name)
{
	size_t l = strlen(name);

	if (strncmp(file, "lib", 3) || strncmp(file + 3, name, l))
		return 0;
	file += 3 + l;
	return !strcmp(file, ".a") || !strcmp(file, ".so") || !strncmp(file, ".so.", 4);
}

/*
 * Whether argument a (with next, the argument after it, for `-l NAME`) names one of
 * PVM's libraries: libpvm3, libgpvm3 (groups) or libfpvm3 (Fortran), as -lNAME,
 * `-l NAME`, -l:FILE or a path to the library's file. Returns the number of arguments
 * it takes (1 or 2), else 0.
 */
static int pvm_library(const char *a, const char *next)
{
	static const char *const names[] = {"pvm3", "gpvm3", "fpvm3", NULL};
	const char *slash = strrchr(a, '/');

	for (const char *const *n = names; *n; n++) {
		if (!strncmp(a, "-l", 2) && !strcmp(a + 2, *n))
			return 1;
		if (!strcmp(a, "-l") && next && !strcmp(next, *n))
			return 2;
		if (!strncmp(a, "-l:", 3) && library_file(a + 3, *n))
			return 1;
		if (a[0] != '-' && library_file(slash ? slash + 1 : a, *n))
			return 1;
	}
	return 0;
}

/* The flags libclang needs to see the source as the compiler will, and those asking
 * for pedantic warnings, which change what the rewrite may write (rewriter.h). */
static int parse_flag(const char *a)
{
	return !strncmp(a, "-I", 2) || !strncmp(a, "-D", 2) || !strncmp(a, "-U", 2) ||
	       !strncmp(a, "-std=", 5) || !strcmp(a, "-isystem") || !strcmp(a, "-iquote") ||
	       !strcmp(a, "-include") || !strcmp(a, "-idirafter") || !strcmp(a, "-ansi") ||
	       !strcmp(a, "-pedantic") || !strcmp(a, "-Wpedantic") ||
	       !strcmp(a, "-pedantic-errors");
}

static int rm_entry(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)flag;
	(void)f;
	return remove(p);
}

/* Replaces every occurrence of from by to in file path (a dependency file), in place. */
static void replace_in_file(const char *path, const char *from, const char *to)
{
	FILE *f = fopen(path, "r");
	char *text = NULL, *tmp;
	size_t len = 0, cap = 0, flen = strlen(from);
	char chunk[4096];
	size_t got;

	if (!f)
		return;
	while ((got = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		if (len + got + 1 > cap) {
			cap = (len + got + 1) * 2;
			tmp = realloc(text, cap);
			if (!tmp) {
				free(text);
				fclose(f);
				return;
			}
			text = tmp;
		}
		memcpy(text + len, chunk, got);
		len += got;
	}
	fclose(f);
	if (text)
		text[len] = '\0';
	if (!text || !strstr(text, from)) {
		free(text);
		return;
	}
	snprintf(chunk, sizeof(chunk), "%s.pvmmon-tmp", path);
	f = fopen(chunk, "w");
	if (f) {
		const char *p = text, *hit;

		while ((hit = strstr(p, from))) {
			fwrite(p, 1, (size_t)(hit - p), f);
			fputs(to, f);
			p = hit + flen;
		}
		fputs(p, f);
		if (fclose(f) == 0)
			rename(chunk, path);
		else
			remove(chunk);
	}
	free(text);
}

/* path with its suffix (after the last dot of its last component) replaced by ".d". */
static void with_d_suffix(char *buf, size_t len, const char *path, int strip_dir)
{
	const char *base = strrchr(path, '/');
	const char *start = strip_dir && base ? base + 1 : path;
	const char *dot = strrchr(base ? base + 1 : path, '.');
	size_t stem = dot ? (size_t)(dot - start) : strlen(start);

	snprintf(buf, len, "%.*s.d", (int)stem, start);
}

/*
 * With -MD or -MMD the compiler writes a dependency file that names the instrumented
 * copy as the source; make would then look for a file that no longer exists. The copy's
 * path is put back to the user's source in every place the dependency file can be
 * (-MF FILE, the -o name with .d, or the source's base name with .d).
 */
static void fix_depfiles(int argc, char **argv, const char *copy, const char *orig)
{
	const char *mf = NULL, *o = NULL;
	char cand[PATH_MAX];
	int deps = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-MD") || !strcmp(argv[i], "-MMD"))
			deps = 1;
		else if (!strcmp(argv[i], "-MF") && i + 1 < argc)
			mf = argv[i + 1];
		else if (!strcmp(argv[i], "-o") && i + 1 < argc)
			o = argv[i + 1];
	}
	if (!deps && !mf)
		return;
	if (mf)
		replace_in_file(mf, copy, orig);
	if (o) {
		with_d_suffix(cand, sizeof(cand), o, 0);
		replace_in_file(cand, copy, orig);
	}
	with_d_suffix(cand, sizeof(cand), orig, 1);
	replace_in_file(cand, copy, orig);
}

/* Runs argv; its exit status (128 + the signal that ended it), or PVMMON_ERROR, said on
 * stderr, when it cannot be started or waited for (pvmmon-cc then exits with 255). */
static int run(char **argv)
{
	pid_t pid = fork();
	int status;

	if (pid < 0) {
		fprintf(stderr, "pvmmon-cc: cannot run %s: %s\n", argv[0], strerror(errno));
		return PVMMON_ERROR;
	}
	if (pid == 0) {
		execvp(argv[0], argv);
		fprintf(stderr, "pvmmon-cc: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid) {
		fprintf(stderr, "pvmmon-cc: cannot wait for %s: %s\n", argv[0], strerror(errno));
		return PVMMON_ERROR;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* `pvmmon-cc --show FILE.c [FLAGS]`: prints what the compiler would be given for one
 * source; returns the exit status. */
static int show(int argc, char **argv, const char *const *inc_rel)
{
	char *inc = beside_me(inc_rel), **cargs = calloc((size_t)argc, sizeof(char *));
	char incflag[PATH_MAX + 4];
	int i, nc = 0, rc;

	snprintf(incflag, sizeof(incflag), "-I%s", inc ? inc : ".");
	for (i = 3; cargs && i < argc; i++)
		cargs[nc++] = argv[i];
	if (cargs)
		cargs[nc++] = incflag;
	rc = cargs ? instrument__rewrite(argv[2], (const char *const *)cargs, nc, stdout, NULL)
	           : PVMMON_ENOMEM;
	if (rc < 0)
		fprintf(stderr, "pvmmon-cc: %s\n", pvmmon_error_last());
	free(cargs);
	free(inc);
	return rc < 0 ? 1 : 0;
}

/* One compilation: the real compiler's command line as it is built, and the sources'
 * instrumented copies. */
typedef struct cc_job {
	char **out; /* the real compiler's command line */
	int n;
	char **cargs; /* the flags libclang parses the sources with */
	int nc;
	/* Instrumented copy -> user's source, and the source's folder (-iquote); the
	 * copies' and folders' names are freed at the end. */
	char **copies, **origs, **quotes;
	int ncopies;
	char tmpl[PATH_MAX - 64]; /* the temporary folder of the copies */
	char incflag[PATH_MAX + 4];
} cc_job;

/*
 * Instruments source a (argv[i]) into a copy in the temporary folder and puts the copy
 * on the command line. Returns 0, or a negative code when the compilation stops there
 * with exit status *rc: a source libclang cannot parse is left to the real compiler,
 * whose diagnostics (or success, said to be uninstrumented) are about the user's file.
 */
static int instrument_one(int *rc, cc_job *j, int argc, char **argv, int i)
{
	char dir[PATH_MAX], path[PATH_MAX + 300], *copy = strdup(argv[i]), *base, **orig;
	const char *a = argv[i];
	rewrite_stats st;
	FILE *f;
	int r;

	snprintf(dir, sizeof(dir), "%s/%d", j->tmpl, i);
	mkdir(dir, 0700);
	base = basename(copy);
	snprintf(path, sizeof(path), "%s/%s", dir, base);
	free(copy);
	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "pvmmon-cc: cannot write %s: %s\n", path, strerror(errno));
		return PVMMON_EIO;
	}
	r = instrument__rewrite(a, (const char *const *)j->cargs, j->nc, f, &st);
	if (fclose(f) != 0 && r == 0)
		r = PVMMON_EIO;
	if (r == PVMMON_EPARSE) {
		orig = calloc((size_t)argc + 1, sizeof(char *));
		if (!orig)
			return PVMMON_ENOMEM;
		orig[0] = (char *)real_cc();
		memcpy(orig + 1, argv + 1, (size_t)(argc - 1) * sizeof(char *));
		*rc = run(orig);
		free(orig);
		if (*rc == 0)
			fprintf(stderr,
			        "pvmmon-cc: %s: not instrumented (libclang could not "
			        "parse it)\n",
			        a);
		return r;
	}
	if (r < 0) {
		fprintf(stderr, "pvmmon-cc: %s\n", pvmmon_error_last());
		return r;
	}
	/* Quoted includes are looked up beside the original file. dirname() gives a part
	 * of its argument (or "."), which is freed at the end. */
	j->quotes[j->ncopies] = strdup(a);
	j->out[j->n++] = "-iquote";
	j->out[j->n++] = dirname(j->quotes[j->ncopies]);
	j->out[j->n++] = j->copies[j->ncopies] = strdup(path);
	j->origs[j->ncopies++] = (char *)a;
	return 0;
}

/* The flags libclang needs to parse the sources as the compiler would: the
 * preprocessor's and the language's, and pvmmon's include folder. */
static void parse_flags(cc_job *j, int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (parse_flag(argv[i])) {
			j->cargs[j->nc++] = argv[i];
			if ((!strcmp(argv[i], "-I") || !strcmp(argv[i], "-D") ||
			     !strcmp(argv[i], "-U") || !strcmp(argv[i], "-isystem") ||
			     !strcmp(argv[i], "-iquote") || !strcmp(argv[i], "-include") ||
			     !strcmp(argv[i], "-idirafter")) &&
			    i + 1 < argc)
				j->cargs[j->nc++] = argv[++i];
		}
	j->cargs[j->nc++] = j->incflag;
}

/* Counts the sources and says whether the command links; 1 when it only asked for the
 * help or the version (printed). */
static int scan_args(int argc, char **argv, int *nsrc, int *linking)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") && argc == 2) {
			usage(stdout);
			return 1;
		}
		if (!strcmp(argv[i], "--version") && argc == 2) {
			printf("pvmmon-cc %s\n", PVMMON_VERSION);
			return 1;
		}
		if (!strcmp(argv[i], "-c") || !strcmp(argv[i], "-S") || !strcmp(argv[i], "-E") ||
		    !strcmp(argv[i], "-M") || !strcmp(argv[i], "-MM"))
			*linking = 0;
		if (takes_value(argv[i]))
			i++;
		else if (is_source(argv[i]))
			(*nsrc)++;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const char *const inc_rel[] = {"../../include", "../include", NULL};
	static const char *const lib_rel[] = {"../lib/libpvmhooks.so",
	                                      "../lib/pvmmon/libpvmhooks.so", NULL};
	cc_job j = {0};
	char *inc = NULL, *hooks = NULL, *libdir = NULL;
	int i, linking = 1, nsrc = 0, rc = 1, put_hooks = 0;
	const char *t = getenv("TMPDIR");

	if (argc >= 3 && !strcmp(argv[1], "--show"))
		return show(argc, argv, inc_rel);
	if (scan_args(argc, argv, &nsrc, &linking))
		return 0;
	inc = beside_me(inc_rel);
	hooks = getenv("PVMMON_HOOKS") ? strdup(getenv("PVMMON_HOOKS")) : beside_me(lib_rel);
	if (!inc || !hooks) {
		fprintf(stderr, "pvmmon-cc: cannot find pvmmon's %s next to this program\n",
		        !inc ? "include folder" : "libpvmhooks.so");
		goto out;
	}
	libdir = strdup(hooks);
	libdir = dirname(libdir);
	snprintf(j.incflag, sizeof(j.incflag), "-I%s", inc);
	snprintf(j.tmpl, sizeof(j.tmpl), "%s/pvmmon-cc.XXXXXX", t && *t ? t : "/tmp");
	if (nsrc && !mkdtemp(j.tmpl)) {
		fprintf(stderr, "pvmmon-cc: cannot create a temporary folder: %s\n",
		        strerror(errno));
		goto out;
	}
	j.out = calloc((size_t)argc * 4 + 12, sizeof(char *));
	j.cargs = calloc((size_t)argc + 4, sizeof(char *));
	j.copies = calloc((size_t)argc, sizeof(char *));
	j.origs = calloc((size_t)argc, sizeof(char *));
	j.quotes = calloc((size_t)argc, sizeof(char *));
	if (!j.out || !j.cargs || !j.copies || !j.origs || !j.quotes)
		goto out;
	parse_flags(&j, argc, argv);
	j.out[j.n++] = (char *)real_cc();
	j.out[j.n++] = j.incflag;
#ifdef PVMMON_SANITIZER_RUNTIME
	/* The libpvmhooks.so of a sanitized build (make SANITIZE=1) needs the sanitizer
	 * runtime as the program's first library: the first input linked is the first,
	 * and it is kept although the program itself uses none of its symbols. */
	if (linking) {
		j.out[j.n++] = "-Wl,--push-state,--no-as-needed";
		j.out[j.n++] = PVMMON_SANITIZER_RUNTIME;
		j.out[j.n++] = "-Wl,--pop-state";
	}
#endif
	for (i = 1; i < argc; i++) {
		char *a = argv[i];
		int lib = linking ? pvm_library(a, i + 1 < argc ? argv[i + 1] : NULL) : 0;

		if (lib) {
			/* The hooks come before the first of PVM's libraries, so that their
			 * wrappers are what the program binds to. Each is linked whether or
			 * not the program itself uses one of its symbols: with --as-needed
			 * (Debian's default) the linker would drop libgpvm3 from a program
			 * whose every group call libpvmhooks defines, and the wrappers would
			 * find no pvm_joingroup to call. */
			j.out[j.n++] = "-Wl,--push-state,--no-as-needed";
			if (!put_hooks)
				j.out[j.n++] = "-lpvmhooks";
			put_hooks = 1;
			j.out[j.n++] = a;
			if (lib == 2)
				j.out[j.n++] = argv[++i];
			j.out[j.n++] = "-Wl,--pop-state";
			continue;
		}
		if (takes_value(a) && i + 1 < argc) {
			j.out[j.n++] = a;
			j.out[j.n++] = argv[++i];
			continue;
		}
		if (is_source(a)) {
			if (instrument_one(&rc, &j, argc, argv, i) < 0)
				goto out;
			continue;
		}
		j.out[j.n++] = a;
	}
	if (linking && !put_hooks && nsrc + argc > 1) {
		j.out[j.n++] = "-Wl,--push-state,--no-as-needed";
		j.out[j.n++] = "-lpvmhooks";
		j.out[j.n++] = "-Wl,--pop-state";
	}
	if (linking) {
		static char lflag[PATH_MAX + 8], rflag[PATH_MAX + 16];

		snprintf(lflag, sizeof(lflag), "-L%s", libdir);
		snprintf(rflag, sizeof(rflag), "-Wl,-rpath,%s", libdir);
		j.out[j.n++] = lflag;
		j.out[j.n++] = rflag;
	}
	j.out[j.n] = NULL;
	rc = run(j.out);
	for (i = 0; rc == 0 && i < j.ncopies; i++)
		if (j.copies[i])
			fix_depfiles(argc, argv, j.copies[i], j.origs[i]);
out:
	if (nsrc && j.tmpl[0])
		nftw(j.tmpl, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	for (i = 0; i < j.ncopies; i++) {
		free(j.copies[i]);
		free(j.quotes[i]);
	}
	free(j.out);
	free(j.cargs);
	free(j.copies);
	free(j.origs);
	free(j.quotes);
	free(inc);
	free(hooks);
	free(libdir);
	return rc;
}
