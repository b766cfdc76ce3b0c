/* Unit tests for common/hostfile.c: what a PVM 3.4 hostfile may hold, and one error
 * naming the file and the line for everything else. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "pvmmon/errors.h"
#include "../../../common/hostfile.h"

/* Parses a NUL-terminated text. */
static int parse(hostfile_list **l, const char *text)
{
	return hostfile__parse(l, "hosts", text, strlen(text));
}

/* The text must be refused with a message that starts "hosts:LINE: " and holds what. */
static void expect_error(const char *text, size_t len, int line, const char *what)
{
	hostfile_list *l = (hostfile_list *)1;
	char prefix[32];
	const char *msg;

	CU_ASSERT_EQUAL(hostfile__parse(&l, "hosts", text, len), PVMMON_EPARSE);
	CU_ASSERT_PTR_NULL(l);
	msg = pvmmon_error_last();
	snprintf(prefix, sizeof(prefix), "hosts:%d: ", line);
	CU_ASSERT_EQUAL(strncmp(msg, prefix, strlen(prefix)), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(msg, what));
	if (strncmp(msg, prefix, strlen(prefix)) || !strstr(msg, what))
		fprintf(stderr, "\nwanted '%s...%s', got '%s'\n", prefix, what, msg);
}

static void expect_error_text(const char *text, int line, const char *what)
{
	expect_error(text, strlen(text), line, what);
}

static void test_valid_file(void)
{
	hostfile_list *l = NULL;

	CU_ASSERT_EQUAL_FATAL(parse(&l,
				    "# the cluster\n"
				    "\n"
				    "   # an indented comment\n"
				    "* lo=bob so=pw\n"
				    "node0.cluster\n"
				    "  node1   ep=/opt/a:$HOME/bin\twd=/tmp  sp=2000 \n"
				    "&node2 dx=/usr/lib/pvm3/lib/pvmd bx=dbg ip=node2-eth1 id=run7\n"
				    "$node_3 so=ms\n"
				    "&$10.77.1.2\n"
				    "*\n"),
			      0);
	CU_ASSERT_EQUAL_FATAL(l->n, 7);
	CU_ASSERT_EQUAL(l->v[0].kind, HOSTFILE_DEFAULTS);
	CU_ASSERT_PTR_NULL(l->v[0].name);
	CU_ASSERT_STRING_EQUAL(l->v[0].text, "* lo=bob so=pw");
	CU_ASSERT_EQUAL(l->v[0].line, 4);
	CU_ASSERT_EQUAL(l->v[1].kind, HOSTFILE_HOST);
	CU_ASSERT_STRING_EQUAL(l->v[1].name, "node0.cluster");
	CU_ASSERT_EQUAL(l->v[1].nopts, 0);
	/* Spaces and tabs between words become one space for pvmd. */
	CU_ASSERT_STRING_EQUAL(l->v[2].text, "node1 ep=/opt/a:$HOME/bin wd=/tmp sp=2000");
	CU_ASSERT_EQUAL(l->v[2].nopts, 3);
	CU_ASSERT_EQUAL(l->v[2].line, 6);
	CU_ASSERT_EQUAL(l->v[3].kind, HOSTFILE_LATER);
	CU_ASSERT_STRING_EQUAL(l->v[3].name, "node2");
	CU_ASSERT_EQUAL(l->v[3].nopts, 4);
	CU_ASSERT_EQUAL(l->v[4].kind, HOSTFILE_HOST);
	CU_ASSERT(l->v[4].overload);
	CU_ASSERT_STRING_EQUAL(l->v[4].text, "$node_3 so=ms");
	CU_ASSERT_EQUAL(l->v[5].kind, HOSTFILE_LATER);
	CU_ASSERT(l->v[5].overload);
	CU_ASSERT_STRING_EQUAL(l->v[5].name, "10.77.1.2");
	CU_ASSERT_STRING_EQUAL(l->v[5].text, "&$10.77.1.2");
	CU_ASSERT_EQUAL(l->v[6].kind, HOSTFILE_DEFAULTS);
	CU_ASSERT_STRING_EQUAL(l->v[6].text, "*");
	hostfile__free(l);
}

static void test_edges_accepted(void)
{
	hostfile_list *l = NULL;
	char name[300];

	/* No final newline, CR LF line ends, an empty file, only comments. */
	CU_ASSERT_EQUAL(parse(&l, "a\nb ep=/x"), 0);
	CU_ASSERT_EQUAL(l->n, 2);
	CU_ASSERT_STRING_EQUAL(l->v[1].text, "b ep=/x");
	hostfile__free(l);
	CU_ASSERT_EQUAL(parse(&l, "a\r\nb wd=/w\r\n"), 0);
	CU_ASSERT_EQUAL(l->n, 2);
	CU_ASSERT_STRING_EQUAL(l->v[1].text, "b wd=/w");
	hostfile__free(l);
	CU_ASSERT_EQUAL(hostfile__parse(&l, "hosts", "", 0), 0);
	CU_ASSERT_EQUAL(l->n, 0);
	hostfile__free(l);
	CU_ASSERT_EQUAL(parse(&l, "# nothing\n\n \t\n"), 0);
	CU_ASSERT_EQUAL(l->n, 0);
	hostfile__free(l);
	/* A name of exactly 255 characters and the nine options pvmd reads. */
	memset(name, 'h', 255);
	name[255] = '\0';
	CU_ASSERT_EQUAL(parse(&l, name), 0);
	hostfile__free(l);
	CU_ASSERT_EQUAL(parse(&l, "h lo=a so=pw dx=d ep=e wd=w sp=1 bx=b ip=i id=x\n"), 0);
	CU_ASSERT_EQUAL(l->v[0].nopts, 9);
	hostfile__free(l);
	CU_ASSERT_EQUAL(parse(&l, "h sp=1000000\n"), 0);
	hostfile__free(l);
	/* Comments may hold what host lines may not: they do not reach pvmd. */
	CU_ASSERT_EQUAL(parse(&l, "# user@host \x01 =\nh\n"), 0);
	CU_ASSERT_EQUAL(l->n, 1);
	hostfile__free(l);
}

static void test_bad_host_names(void)
{
	char name[300];

	expect_error_text("ok\nbob@node1\n", 2, "no user@host; write the host and lo=USER");
	expect_error_text("ok\n\nno/de\n", 3, "host name 'no/de' may hold only");
	expect_error_text("-oProxyCommand\n", 1, "cannot start with '-'");
	expect_error_text(".hidden\n", 1, "cannot start with '-' or '.'");
	expect_error_text("h\u00e9te\n", 1, "may hold only letters");
	expect_error_text("ep=/x\n", 1, "the line names no host first");
	expect_error_text("a\n&\n", 2, "'&' needs a host name");
	expect_error_text("$  \n", 1, "'$' needs a host name");
	/* pvmd takes the marks only right before the name. */
	expect_error_text("& $x\n", 1, "host name '$x' may hold only");
	expect_error_text("&* lo=x\n", 1, "a defaults line ('*') takes no '&' or '$'");
	memset(name, 'h', 256);
	name[256] = '\0';
	expect_error_text(name, 1, "longer than 255 characters");
}

static void test_bad_options(void)
{
	expect_error_text("# c\nh lo=a\nh2 xx=1\n", 3, "unknown option 'xx='");
	expect_error_text("h ms\n", 1, "'ms' is not an option (KEY=VALUE)");
	expect_error_text("h so=rsh\n", 1, "so= wants pw or ms, not 'rsh'");
	expect_error_text("h sp=0\n", 1, "sp= wants a speed from 1 to 1000000");
	expect_error_text("h sp=1000001\n", 1, "sp= wants a speed");
	expect_error_text("h sp=12x\n", 1, "not '12x'");
	expect_error_text("h sp=99999999999999999999999\n", 1, "sp= wants a speed");
	expect_error_text("h ep=\n", 1, "option ep= has no value");
	expect_error_text("h wd=/a wd=/b\n", 1, "option wd= given twice");
	expect_error_text("h ip=a@b\n", 1, "ip= wants a host name; 'a@b'");
	expect_error_text("h lo=-x\n", 1, "lo= cannot start with '-'");
	expect_error_text("h # trailing comment\n", 1, "a comment must start its line");
	expect_error_text("* lo=a LO=b\n", 1, "unknown option 'LO='");
	expect_error_text("h lo=a so=pw dx=d ep=e wd=w sp=1 bx=b ip=i id=x lo=y\n", 1,
			  "more than 9 options");
}

static void test_bad_bytes(void)
{
	static const char nul[] = "a\nb ep=/x\0y\n";
	char *big;

	expect_error(nul, sizeof(nul) - 1, 2, "NUL byte in column 8");
	/* A NUL in a comment line is refused too. */
	expect_error("#\0\n", 3, 1, "NUL byte");
	expect_error_text("a\nb wd=/a\x1b[0m\n", 2, "control character 0x1b in column 8");
	expect_error_text("b wd=/a\x7f\n", 1, "control character 0x7f");
	expect_error_text("b\rc\n", 1, "control character 0x0d in column 2");
	/* A line of 4096 bytes, even a comment, is one too many. */
	big = malloc(HOSTFILE_MAX_LINE + 10);
	CU_ASSERT_PTR_NOT_NULL_FATAL(big);
	memset(big, '#', HOSTFILE_MAX_LINE + 1);
	strcpy(big + HOSTFILE_MAX_LINE + 1, "\n");
	expect_error_text(big, 1, "line longer than 4095 bytes");
	/* 4095 bytes of comment are fine. */
	big[HOSTFILE_MAX_LINE] = '\n';
	big[HOSTFILE_MAX_LINE + 1] = '\0';
	{
		hostfile_list *l = NULL;

		CU_ASSERT_EQUAL(parse(&l, big), 0);
		hostfile__free(l);
	}
	free(big);
}

/* A host line pvmd would read in two pieces, and more lines than pvmd takes. */
static void test_pvmd_limits(void)
{
	size_t n = HOSTFILE_MAX_ENTRIES + 1, i;
	char *text = malloc(n * 3 + 600), *p;
	hostfile_list *l = NULL;

	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	/* "h ep=" and 506 more: 511 characters. */
	strcpy(text, "h ep=");
	memset(text + 5, 'x', 506);
	strcpy(text + 511, "\n");
	expect_error_text(text, 1, "line too long for pvmd: 511 characters");
	text[510] = '\n';
	text[511] = '\0';
	CU_ASSERT_EQUAL(parse(&l, text), 0);
	hostfile__free(l);
	for (i = 0, p = text; i < n; i++, p += 2)
		memcpy(p, "h\n", 2);
	*p = '\0';
	expect_error_text(text, (int)n, "more than 4094 host and defaults lines");
	/* As many as pvmd takes, with a comment among them, are fine. */
	memcpy(text, "#\n", 2);
	CU_ASSERT_EQUAL(parse(&l, text), 0);
	CU_ASSERT_EQUAL(l->n, HOSTFILE_MAX_ENTRIES);
	hostfile__free(l);
	free(text);
}

/* hostfile__read: a missing file is EIO naming it; a file over the size limit is
 * refused unread; what it reads it parses with the file's path in messages. */
static void test_read(void)
{
	const char *t = getenv("TMPDIR");
	char dir[256], path[300];
	hostfile_list *l = (hostfile_list *)1;
	FILE *f;

	CU_ASSERT_EQUAL(hostfile__read(&l, "/nonexistent/hostfile"), PVMMON_EIO);
	CU_ASSERT_PTR_NULL(l);
	CU_ASSERT_PTR_NOT_NULL(strstr(pvmmon_error_last(), "/nonexistent/hostfile"));
	snprintf(dir, sizeof(dir), "%s/pvmmon-unit-hf.XXXXXX", t && *t ? t : "/tmp");
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/hosts", dir);
	f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("a\nb so=xx\n", f);
	fclose(f);
	CU_ASSERT_EQUAL(hostfile__read(&l, path), PVMMON_EPARSE);
	{
		char want[340];

		snprintf(want, sizeof(want), "%s:2: so= wants pw or ms", path);
		CU_ASSERT_PTR_NOT_NULL(strstr(pvmmon_error_last(), want));
	}
	f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	for (int i = 0; i < HOSTFILE_MAX_BYTES / 16 + 1; i++)
		fputs("# 13 more bytes\n", f);
	fclose(f);
	CU_ASSERT_EQUAL(hostfile__read(&l, path), PVMMON_EPARSE);
	CU_ASSERT_PTR_NOT_NULL(strstr(pvmmon_error_last(), "larger than 1048576 bytes"));
	f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("a\n", f);
	fclose(f);
	CU_ASSERT_EQUAL(hostfile__read(&l, path), 0);
	CU_ASSERT(l && l->n == 1);
	hostfile__free(l);
	/* A folder is no hostfile. */
	CU_ASSERT_EQUAL(hostfile__read(&l, dir), PVMMON_EIO);
	unlink(path);
	rmdir(dir);
}

CU_TestInfo test_hostfile_tests[] = {
    {"comments, defaults, options, & and $ lines", test_valid_file},
    {"no final newline, CR LF, empty, limits just met", test_edges_accepted},
    {"bad host names name their line", test_bad_host_names},
    {"unknown, repeated, empty and bad options", test_bad_options},
    {"NUL bytes, control characters, overlong lines", test_bad_bytes},
    {"lines pvmd would split, more lines than pvmd takes", test_pvmd_limits},
    {"reading: missing, too big, a folder, errors name the path", test_read},
    CU_TEST_INFO_NULL,
};
