/*
 * Private to pvmmon (common/vm.c, its tests and fuzz target): reading and checking a
 * user's PVM 3.4 hostfile before any of it reaches a pvmd.
 */
#ifndef PVMMON_COMMON_HOSTFILE_H
#define PVMMON_COMMON_HOSTFILE_H

#include <stddef.h>

/* The largest hostfile read; a bigger file is refused rather than read in part. */
#define HOSTFILE_MAX_BYTES (1 << 20)
/* The longest line of the user's file, comments included. */
#define HOSTFILE_MAX_LINE 4095
/*
 * pvmd reads its hostfile with a 512-byte fgets buffer and would split a longer line
 * into two, the second read as a host of its own; a host or defaults line as pvmmon
 * writes it for pvmd (one space between words) must fit, newline included.
 */
#define HOSTFILE_PVMD_LINE_MAX 510
/* pvmd takes a host and at most nine options on a line (its acav() holds ten words). */
#define HOSTFILE_MAX_OPTS 9
/*
 * pvmd numbers hosts by their line and refuses lines past host number 4095; pvmmon's
 * own defaults line comes first, which leaves 4094 for the user's host and defaults
 * lines (comments and blank lines are not passed on).
 */
#define HOSTFILE_MAX_ENTRIES 4094
/* The longest host name (as DNS allows). */
#define HOSTFILE_MAX_NAME 255

typedef enum hostfile_kind {
	HOSTFILE_HOST = 1,     /* a host pvmd starts with the virtual machine */
	HOSTFILE_LATER = 2,    /* '&': options of a host added later (pvm_addhosts) */
	HOSTFILE_DEFAULTS = 3, /* '*': default options for the lines that follow */
} hostfile_kind;

typedef struct hostfile_entry {
	int line;           /* its line number in the user's file, from 1 */
	hostfile_kind kind;
	int overload;       /* '$': pvmd starts it even if it is this machine */
	char *name;         /* the host name; NULL for a defaults line */
	size_t nopts;       /* how many key=value options follow the name */
	char *text;         /* the line as written for pvmd: no comment, one space between
			     * words, no newline; at most HOSTFILE_PVMD_LINE_MAX bytes */
} hostfile_entry;

typedef struct hostfile_list {
	size_t n;
	hostfile_entry *v; /* host, later and defaults lines in file order */
} hostfile_list;

/*
 * Parses and checks the len bytes of text (a hostfile named name in messages; no NUL
 * terminator needed): blank lines and '#' comments; defaults lines "* OPTIONS";
 * host lines "[&][$]HOST OPTIONS" where HOST has letters, digits, '-', '.' and '_'
 * (not first '-' or '.') and every option is one PVM 3.4 knows (lo= so=pw|ms dx= ep=
 * wd= sp=1..1000000 bx= ip=HOST id=), given once, with a value of printable
 * characters. On success *out is the caller's, to free with hostfile__free(); a file
 * without host lines gives an empty list. Otherwise returns PVMMON_EPARSE (or
 * PVMMON_ENOMEM) with the message "NAME:LINE: what is wrong" and *out is NULL.
 */
int hostfile__parse(hostfile_list **out, const char *name, const char *text, size_t len);

/*
 * Reads the hostfile at path (at most HOSTFILE_MAX_BYTES) and parses it as above.
 * A file that cannot be read is PVMMON_EIO naming it; *out is NULL on failure.
 */
int hostfile__read(hostfile_list **out, const char *path);

void hostfile__free(hostfile_list *list);

#endif
