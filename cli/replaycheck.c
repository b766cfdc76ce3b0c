/* What `pvmmon replay` says about the sources of nondeterminism a program imports that
 * a replay does not replay (random bytes other than getrandom's, CPU time, threads): read from the
 * program's dynamic symbol table before it starts. */
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "pvmmon/errors.h"
#include "pvmmon/log.h"

/* The C library functions whose results a replay does not reproduce, and what they are. */
static const struct {
	const char *name, *what;
} unreplayed[] = {
    {"getrandom", "random bytes"}, {"getentropy", "random bytes"}, {"arc4random", "random bytes"},
    {"clock", "CPU time"},         {"times", "CPU time"},          {"getrusage", "CPU time"},
    {"pthread_create", "threads"},
};

/* Whether symbol table section scn of elf imports name (an undefined function). */
static int imports(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh, const char *name)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;
	GElf_Sym sym;

	for (size_t i = 0; data && i < n; i++) {
		const char *s;

		if (!gelf_getsym(data, (int)i, &sym) || sym.st_shndx != SHN_UNDEF)
			continue;
		s = elf_strptr(elf, sh->sh_link, sym.st_name);
		if (s && !strcmp(s, name))
			return 1;
	}
	return 0;
}

void cli__note_unreplayed(const char *program)
{
	int fd = open(program, O_RDONLY | O_CLOEXEC);
	Elf *elf = NULL;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	/* A note, never an error: a program pvmmon cannot read still replays. */
	if (fd < 0 || elf_version(EV_CURRENT) == EV_NONE ||
	    !(elf = elf_begin(fd, ELF_C_READ, NULL)))
		goto out;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNSYM)
			continue;
		for (size_t k = 0; k < sizeof(unreplayed) / sizeof(unreplayed[0]); k++)
			if (imports(elf, scn, &sh, unreplayed[k].name))
				fprintf(
				    stderr,
				    "pvmmon: replay: note: %s calls %s (%s), which a replay does "
				    "not replay; what the program does with it may differ\n",
				    program, unreplayed[k].name, unreplayed[k].what);
	}
out:
	if (elf)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
}

/* Checks that log can be replayed with program before anything starts; 0, or a
 * negative code after saying why not. */
int cli__check_replay(const char *log_path, const char *program)
{
	pvmmon_log *log = NULL;
	const char *a, *b;
	int rc = PVMMON_EINVAL;

	rc = pvmmon_log_read(&log, log_path);
	if (rc < 0) {
		cli__error("replay: %s", pvmmon_error_last());
		return rc;
	}
	rc = PVMMON_EINVAL;
	a = log->program ? strrchr(log->program, '/') : NULL;
	a = a ? a + 1 : log->program;
	b = strrchr(program, '/');
	b = b ? b + 1 : program;
	if (!log->replayable)
		cli__error(
		    "replay: %s: the run kept no replay record (it was run with --no-record, "
		    "or it is a replay itself)",
		    log_path);
	else if (!a || strcmp(a, b))
		cli__error("replay: %s: the record is of %s, not of %s", log_path, a ? a : "?", b);
	else
		rc = 0;
	pvmmon_log_free(log);
	if (rc == 0) /* even with -q: it says why a replay may diverge */
		cli__note_unreplayed(program);
	return rc;
}
