/*
 * A call-heavy workload on real code nobody here wrote (bench section 29, issue 41): the
 * SQLite amalgamation's C API on an in-memory database, built with gcc and with
 * pvmmon-cc, its result printed as a checksum so that the builds can be compared.
 *
 * usage: sqlite_work [-p] [ROWS]   (default 20000 rows; -p: a PVM task, enrolled with
 * pvm_mytid and leaving with pvm_exit, as `pvmmon run` runs it)
 *
 * The work, deterministic (its own generator, no clock, no randomness of SQLite's):
 * ROWS rows into an indexed table and 3 * ROWS into a second, 500 rows a transaction,
 * through prepared statements; an update through the index; an indexed join with a
 * GROUP BY; an ORDER BY over text that no index serves (a sort); a recursive CTE of
 * 8 * ROWS steps, and one that walks a tree of the first table's rows. Every result
 * row's text goes into an FNV-1a hash, printed at the end.
 */
#include <pvm3.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct {
	sqlite3 *db;
	unsigned long long hash; /* FNV-1a over every result's text */
	unsigned long long rows; /* result rows read */
	unsigned int seed;	 /* the generator's state */
} st = {NULL, 1469598103934665603ULL, 0, 12345};

static unsigned int next_rand(void)
{
	st.seed = st.seed * 1103515245u + 12345u;
	return st.seed >> 8;
}

static void fail(const char *what)
{
	fprintf(stderr, "sqlite_work: %s: %s\n", what, st.db ? sqlite3_errmsg(st.db) : "no database");
	exit(1);
}

static void exec(const char *sql)
{
	if (sqlite3_exec(st.db, sql, NULL, NULL, NULL) != SQLITE_OK)
		fail(sql);
}

static sqlite3_stmt *prepare(const char *sql)
{
	sqlite3_stmt *s = NULL;

	if (sqlite3_prepare_v2(st.db, sql, -1, &s, NULL) != SQLITE_OK)
		fail(sql);
	return s;
}

static void hash_text(const unsigned char *t)
{
	if (!t)
		t = (const unsigned char *)"(null)";
	for (; *t; t++)
		st.hash = (st.hash ^ *t) * 1099511628211ULL;
	st.hash = (st.hash ^ '|') * 1099511628211ULL;
}

/* Runs a query and hashes every column of every row it returns. */
static void query(const char *sql)
{
	sqlite3_stmt *s = prepare(sql);
	int rc;

	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		for (int i = 0; i < sqlite3_column_count(s); i++)
			hash_text(sqlite3_column_text(s, i));
		st.rows++;
	}
	if (rc != SQLITE_DONE)
		fail(sql);
	sqlite3_finalize(s);
}

/* A short name from the generator: the sort's keys. */
static void make_name(char *buf, size_t len)
{
	static const char syl[][4] = {"ka", "lo", "mi", "nu", "re", "sa", "to", "vi", "xe", "zu"};
	size_t n = 2 + next_rand() % 4, o = 0;

	for (size_t i = 0; i < n && o + 3 < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s", syl[next_rand() % 10]);
}

static void fill(long rows)
{
	sqlite3_stmt *a = prepare("INSERT INTO a(id, k, parent, name, v) VALUES (?, ?, ?, ?, ?)");
	sqlite3_stmt *b = prepare("INSERT INTO b(ak, w, note) VALUES (?, ?, ?)");
	char name[32];

	exec("BEGIN");
	for (long i = 1; i <= rows; i++) {
		make_name(name, sizeof name);
		sqlite3_bind_int64(a, 1, i);
		sqlite3_bind_int64(a, 2, next_rand() % (unsigned)(rows / 4 + 1));
		sqlite3_bind_int64(a, 3, i > 1 ? 1 + (long)(next_rand() % (unsigned)(i - 1)) : 0);
		sqlite3_bind_text(a, 4, name, -1, SQLITE_TRANSIENT);
		sqlite3_bind_double(a, 5, (double)(next_rand() % 100000) / 8.0);
		if (sqlite3_step(a) != SQLITE_DONE)
			fail("insert into a");
		sqlite3_reset(a);
		for (int j = 0; j < 3; j++) {
			make_name(name, sizeof name);
			sqlite3_bind_int64(b, 1, next_rand() % (unsigned)(rows / 4 + 1));
			sqlite3_bind_int64(b, 2, next_rand() % 1000);
			sqlite3_bind_text(b, 3, name, -1, SQLITE_TRANSIENT);
			if (sqlite3_step(b) != SQLITE_DONE)
				fail("insert into b");
			sqlite3_reset(b);
		}
		if (i % 500 == 0) {
			exec("COMMIT");
			exec("BEGIN");
		}
	}
	exec("COMMIT");
	sqlite3_finalize(a);
	sqlite3_finalize(b);
}

int main(int argc, char **argv)
{
	int as_task = argc > 1 && strcmp(argv[1], "-p") == 0;
	long rows = argc > 1 + as_task ? strtol(argv[1 + as_task], NULL, 10) : 20000;
	char sql[512];

	if (rows < 10 || rows > 10000000) {
		fprintf(stderr, "usage: sqlite_work [-p] [ROWS]   (10 to 10^7 rows)\n");
		return 2;
	}
	if (as_task && pvm_mytid() < 0) {
		fprintf(stderr, "sqlite_work: -p: not a PVM task (pvm_mytid failed)\n");
		return 1;
	}
	if (sqlite3_open(":memory:", &st.db) != SQLITE_OK)
		fail("open");
	exec("CREATE TABLE a(id INTEGER PRIMARY KEY, k INTEGER, parent INTEGER, name TEXT, v REAL);"
	     "CREATE TABLE b(id INTEGER PRIMARY KEY, ak INTEGER, w INTEGER, note TEXT);"
	     "CREATE INDEX a_k ON a(k); CREATE INDEX b_ak ON b(ak); CREATE INDEX a_parent ON a(parent)");
	fill(rows);
	exec("UPDATE b SET w = w + 1 WHERE ak % 7 = 3");
	/* The indexed join: each key of a against b's rows of that key, by b_ak. */
	query("SELECT a.k, count(*), sum(b.w), max(b.note) FROM a JOIN b ON b.ak = a.k "
	      "WHERE a.id % 3 = 0 GROUP BY a.k ORDER BY a.k");
	/* A sort nothing serves: text, then a real. */
	query("SELECT name, v, id FROM a ORDER BY name, v DESC, id");
	/* A recursive CTE: a sequence of 8 * ROWS steps, folded into one sum. */
	snprintf(sql, sizeof sql,
		 "WITH RECURSIVE c(x, y) AS (SELECT 1, 1 UNION ALL "
		 "SELECT x + 1, (y * 31 + x) %% 1000003 FROM c WHERE x < %ld) "
		 "SELECT count(*), sum(y), max(y) FROM c",
		 rows * 8);
	query(sql);
	/* And one that walks a's tree from its root through the parent index. */
	query("WITH RECURSIVE t(id, depth) AS (SELECT 1, 0 UNION ALL "
	      "SELECT a.id, t.depth + 1 FROM a JOIN t ON a.parent = t.id) "
	      "SELECT depth, count(*), sum(id % 97) FROM t GROUP BY depth ORDER BY depth");
	sqlite3_close(st.db);
	printf("sqlite_work: %ld rows, %llu result rows, checksum %016llx\n", rows, st.rows, st.hash);
	if (as_task)
		pvm_exit();
	return 0;
}
