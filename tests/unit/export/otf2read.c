/* Reading an OTF2 archive back as text for the export unit tests (otf2read.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <otf2/otf2.h>

#include <CUnit/CUnit.h>

#include "../../../export/otf2.h"
#include "logbuild.h"
#include "otf2read.h"

/* What the archive held, its names as ids until the text is made. */
typedef struct def {
	char kind; /* n node, p process, l location, r region, g group, c comm, a attribute,
	            * m metric member */
	uint64_t id;
	uint32_t name, other; /* other: a class, file or unit string */
	uint64_t parent;      /* a parent node, node, process, group; UINT64_MAX: none */
	uint64_t n;           /* events, a line, an exponent */
	int role;
	char *members; /* a group's */
} def;

typedef struct event {
	uint64_t loc, time;
	char kind;        /* e enter, l leave, s send, r recv, m metric */
	uint64_t a, b, c; /* region; or rank, tag, bytes */
	int64_t v[3];
	int nv;
} event;

typedef struct archive {
	char **strings;
	size_t nstrings;
	def *defs;
	size_t ndefs;
	event *events;
	size_t nevents;
	uint64_t resolution, length;
	int failed;
} archive;

static def *new_def(archive *a, char kind, uint64_t id)
{
	def *d = realloc(a->defs, (a->ndefs + 1) * sizeof(*d));

	if (!d) {
		a->failed = 1;
		return NULL;
	}
	a->defs = d;
	d = &a->defs[a->ndefs++];
	memset(d, 0, sizeof(*d));
	d->kind = kind;
	d->id = id;
	d->parent = UINT64_MAX;
	return d;
}

static event *new_event(archive *a, uint64_t loc, uint64_t time, char kind)
{
	event *e = realloc(a->events, (a->nevents + 1) * sizeof(*e));

	if (!e) {
		a->failed = 1;
		return NULL;
	}
	a->events = e;
	e = &a->events[a->nevents++];
	memset(e, 0, sizeof(*e));
	e->loc = loc;
	e->time = time;
	e->kind = kind;
	return e;
}

static OTF2_CallbackCode on_string(void *ud, OTF2_StringRef self, const char *s)
{
	archive *a = ud;

	if (self >= a->nstrings) {
		char **grown = realloc(a->strings, (self + 1) * sizeof(*grown));

		if (!grown)
			return OTF2_CALLBACK_INTERRUPT;
		memset(grown + a->nstrings, 0, (self + 1 - a->nstrings) * sizeof(*grown));
		a->strings = grown;
		a->nstrings = self + 1;
	}
	free(a->strings[self]);
	a->strings[self] = strdup(s);
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_clock(void *ud, uint64_t resolution, uint64_t offset, uint64_t length,
                                  uint64_t realtime)
{
	archive *a = ud;

	(void)offset;
	(void)realtime;
	a->resolution = resolution;
	a->length = length;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_node(void *ud, OTF2_SystemTreeNodeRef self, OTF2_StringRef name,
                                 OTF2_StringRef cls, OTF2_SystemTreeNodeRef parent)
{
	def *d = new_def(ud, 'n', self);

	if (d) {
		d->name = name;
		d->other = cls;
		d->parent = parent == OTF2_UNDEFINED_SYSTEM_TREE_NODE ? UINT64_MAX : parent;
	}
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_process(void *ud, OTF2_LocationGroupRef self, OTF2_StringRef name,
                                    OTF2_LocationGroupType type, OTF2_SystemTreeNodeRef node,
                                    OTF2_LocationGroupRef creator)
{
	def *d = new_def(ud, 'p', self);

	(void)type;
	(void)creator;
	if (d) {
		d->name = name;
		d->parent = node;
	}
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_location(void *ud, OTF2_LocationRef self, OTF2_StringRef name,
                                     OTF2_LocationType type, uint64_t nevents,
                                     OTF2_LocationGroupRef group)
{
	def *d = new_def(ud, 'l', self);

	(void)type;
	if (d) {
		d->name = name;
		d->n = nevents;
		d->parent = group;
	}
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_region(void *ud, OTF2_RegionRef self, OTF2_StringRef name,
                                   OTF2_StringRef canonical, OTF2_StringRef description,
                                   OTF2_RegionRole role, OTF2_Paradigm paradigm,
                                   OTF2_RegionFlag flags, OTF2_StringRef file, uint32_t begin,
                                   uint32_t end)
{
	def *d = new_def(ud, 'r', self);

	(void)canonical;
	(void)description;
	(void)paradigm;
	(void)flags;
	(void)end;
	if (d) {
		d->name = name;
		d->other = file;
		d->n = begin;
		d->role = role;
	}
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_group(void *ud, OTF2_GroupRef self, OTF2_StringRef name,
                                  OTF2_GroupType type, OTF2_Paradigm paradigm, OTF2_GroupFlag flags,
                                  uint32_t n, const uint64_t *members)
{
	def *d = new_def(ud, 'g', self);
	size_t len = 0;
	FILE *f;

	(void)type;
	(void)paradigm;
	(void)flags;
	if (!d || !(f = open_memstream(&d->members, &len)))
		return OTF2_CALLBACK_INTERRUPT;
	d->name = name;
	for (uint32_t i = 0; i < n; i++)
		fprintf(f, "%s%" PRIu64, i ? "," : "", members[i]);
	fclose(f);
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_comm(void *ud, OTF2_CommRef self, OTF2_StringRef name,
                                 OTF2_GroupRef group, OTF2_CommRef parent, OTF2_CommFlag flags)
{
	def *d = new_def(ud, 'c', self);

	(void)parent;
	(void)flags;
	if (d) {
		d->name = name;
		d->parent = group;
	}
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_attribute(void *ud, OTF2_AttributeRef self, OTF2_StringRef name,
                                      OTF2_StringRef description, OTF2_Type type)
{
	def *d = new_def(ud, 'a', self);

	(void)description;
	(void)type;
	if (d)
		d->name = name;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_member(void *ud, OTF2_MetricMemberRef self, OTF2_StringRef name,
                                   OTF2_StringRef description, OTF2_MetricType type,
                                   OTF2_MetricMode mode, OTF2_Type value_type, OTF2_Base base,
                                   int64_t exponent, OTF2_StringRef unit)
{
	def *d = new_def(ud, 'm', self);

	(void)description;
	(void)type;
	(void)mode;
	(void)value_type;
	(void)base;
	if (d) {
		d->name = name;
		d->n = (uint64_t)exponent;
		d->other = unit;
	}
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_enter(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *ud,
                                  OTF2_AttributeList *al, OTF2_RegionRef region)
{
	event *e = new_event(ud, loc, t, 'e');

	(void)pos;
	(void)al;
	if (e)
		e->a = region;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_leave(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *ud,
                                  OTF2_AttributeList *al, OTF2_RegionRef region)
{
	event *e = new_event(ud, loc, t, 'l');

	(void)pos;
	(void)al;
	if (e)
		e->a = region;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_send(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *ud,
                                 OTF2_AttributeList *al, uint32_t to, OTF2_CommRef comm,
                                 uint32_t tag, uint64_t len)
{
	event *e = new_event(ud, loc, t, 's');

	(void)pos;
	(void)al;
	(void)comm;
	if (e) {
		e->a = to;
		e->b = tag;
		e->c = len;
	}
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_recv(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *ud,
                                 OTF2_AttributeList *al, uint32_t from, OTF2_CommRef comm,
                                 uint32_t tag, uint64_t len)
{
	event *e = new_event(ud, loc, t, 'r');

	(void)pos;
	(void)al;
	(void)comm;
	if (e) {
		e->a = from;
		e->b = tag;
		e->c = len;
	}
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_metric(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *ud,
                                   OTF2_AttributeList *al, OTF2_MetricRef metric, uint8_t n,
                                   const OTF2_Type *types, const OTF2_MetricValue *values)
{
	event *e = new_event(ud, loc, t, 'm');
	OTF2_RegionRef r = OTF2_UNDEFINED_REGION;

	(void)pos;
	(void)metric;
	if (!e)
		return OTF2_CALLBACK_SUCCESS;
	if (al)
		OTF2_AttributeList_GetRegionRef(al, 0, &r);
	e->a = r;
	e->nv = n < 3 ? n : 3;
	for (int i = 0; i < e->nv; i++)
		e->v[i] = types[i] == OTF2_TYPE_INT64 ? values[i].signed_int
		                                      : (int64_t)values[i].unsigned_int;
	return OTF2_CALLBACK_SUCCESS;
}

static const char *str(const archive *a, uint64_t id)
{
	return id < a->nstrings && a->strings[id] ? a->strings[id] : "?";
}

/* The name of region id. */
static const char *region_name(const archive *a, uint64_t id)
{
	for (size_t i = 0; i < a->ndefs; i++)
		if (a->defs[i].kind == 'r' && a->defs[i].id == id)
			return str(a, a->defs[i].name);
	return "?";
}

static void put_defs(FILE *f, const archive *a)
{
	fprintf(f, "clock %" PRIu64 " length %" PRIu64 "\n", a->resolution, a->length);
	for (size_t i = 0; i < a->ndefs; i++) {
		const def *d = &a->defs[i];

		switch (d->kind) {
		case 'n':
			fprintf(f, "node %" PRIu64 " \"%s\" class \"%s\" parent ", d->id,
			        str(a, d->name), str(a, d->other));
			if (d->parent == UINT64_MAX)
				fputs("-\n", f);
			else
				fprintf(f, "%" PRIu64 "\n", d->parent);
			break;
		case 'p':
			fprintf(f, "process %" PRIu64 " \"%s\" node %" PRIu64 "\n", d->id,
			        str(a, d->name), d->parent);
			break;
		case 'l':
			fprintf(f,
			        "location %" PRIu64 " \"%s\" events %" PRIu64 " process %" PRIu64
			        "\n",
			        d->id, str(a, d->name), d->n, d->parent);
			break;
		case 'r':
			fprintf(f, "region %" PRIu64 " \"%s\" %s file \"%s\" line %" PRIu64 "\n",
			        d->id, str(a, d->name),
			        d->role == OTF2_REGION_ROLE_POINT2POINT ? "point2point"
			        : d->role == OTF2_REGION_ROLE_FUNCTION  ? "function"
			                                                : "other",
			        str(a, d->other), d->n);
			break;
		case 'g':
			fprintf(f, "group %" PRIu64 " \"%s\" members %s\n", d->id, str(a, d->name),
			        d->members ? d->members : "");
			break;
		case 'c':
			fprintf(f, "comm %" PRIu64 " \"%s\" group %" PRIu64 "\n", d->id,
			        str(a, d->name), d->parent);
			break;
		case 'a':
			fprintf(f, "attribute %" PRIu64 " \"%s\"\n", d->id, str(a, d->name));
			break;
		case 'm':
			fprintf(f, "member %" PRIu64 " \"%s\" exponent %" PRId64 " unit \"%s\"\n",
			        d->id, str(a, d->name), (int64_t)d->n, str(a, d->other));
			break;
		}
	}
}

static void put_events(FILE *f, const archive *a)
{
	for (size_t i = 0; i < a->nevents; i++) {
		const event *e = &a->events[i];

		fprintf(f, "%" PRIu64 "@%" PRIu64 " ", e->loc, e->time);
		switch (e->kind) {
		case 'e':
		case 'l':
			fprintf(f, "%s \"%s\"\n", e->kind == 'e' ? "enter" : "leave",
			        region_name(a, e->a));
			break;
		case 's':
		case 'r':
			fprintf(f, "%s %" PRIu64 " tag %" PRIu64 " bytes %" PRIu64 "\n",
			        e->kind == 's' ? "send to" : "recv from", e->a, e->b, e->c);
			break;
		case 'm':
			fprintf(f, "metric \"%s\"", region_name(a, e->a));
			for (int k = 0; k < e->nv; k++)
				fprintf(f, " %" PRId64, e->v[k]);
			fputc('\n', f);
			break;
		}
	}
}

/* The global definitions into a. */
static int read_defs(OTF2_Reader *r, archive *a)
{
	OTF2_GlobalDefReader *g = OTF2_Reader_GetGlobalDefReader(r);
	OTF2_GlobalDefReaderCallbacks *cb = OTF2_GlobalDefReaderCallbacks_New();
	uint64_t n = 0;
	int rc = -1;

	if (!g || !cb)
		goto out;
	OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb, on_string);
	OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cb, on_clock);
	OTF2_GlobalDefReaderCallbacks_SetSystemTreeNodeCallback(cb, on_node);
	OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(cb, on_process);
	OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cb, on_location);
	OTF2_GlobalDefReaderCallbacks_SetRegionCallback(cb, on_region);
	OTF2_GlobalDefReaderCallbacks_SetGroupCallback(cb, on_group);
	OTF2_GlobalDefReaderCallbacks_SetCommCallback(cb, on_comm);
	OTF2_GlobalDefReaderCallbacks_SetAttributeCallback(cb, on_attribute);
	OTF2_GlobalDefReaderCallbacks_SetMetricMemberCallback(cb, on_member);
	if (OTF2_Reader_RegisterGlobalDefCallbacks(r, g, cb, a) == OTF2_SUCCESS &&
	    OTF2_Reader_ReadAllGlobalDefinitions(r, g, &n) == OTF2_SUCCESS)
		rc = 0;
out:
	if (cb)
		OTF2_GlobalDefReaderCallbacks_Delete(cb);
	if (g)
		OTF2_Reader_CloseGlobalDefReader(r, g);
	return rc;
}

/* Each location's events, in order, into a. */
static int read_events(OTF2_Reader *r, archive *a)
{
	OTF2_EvtReaderCallbacks *cb = OTF2_EvtReaderCallbacks_New();
	int rc = 0;

	if (!cb)
		return -1;
	OTF2_EvtReaderCallbacks_SetEnterCallback(cb, on_enter);
	OTF2_EvtReaderCallbacks_SetLeaveCallback(cb, on_leave);
	OTF2_EvtReaderCallbacks_SetMpiSendCallback(cb, on_send);
	OTF2_EvtReaderCallbacks_SetMpiRecvCallback(cb, on_recv);
	OTF2_EvtReaderCallbacks_SetMetricCallback(cb, on_metric);
	for (size_t i = 0; i < a->ndefs; i++)
		if (a->defs[i].kind == 'l')
			OTF2_Reader_SelectLocation(r, a->defs[i].id);
	if (OTF2_Reader_OpenEvtFiles(r) != OTF2_SUCCESS) {
		OTF2_EvtReaderCallbacks_Delete(cb);
		return -1;
	}
	for (size_t i = 0; i < a->ndefs && rc == 0; i++) {
		OTF2_EvtReader *e;
		uint64_t n = 0;

		if (a->defs[i].kind != 'l')
			continue;
		e = OTF2_Reader_GetEvtReader(r, a->defs[i].id);
		if (!e || OTF2_Reader_RegisterEvtCallbacks(r, e, cb, a) != OTF2_SUCCESS ||
		    OTF2_Reader_ReadAllLocalEvents(r, e, &n) != OTF2_SUCCESS)
			rc = -1;
		if (e)
			OTF2_Reader_CloseEvtReader(r, e);
	}
	OTF2_Reader_CloseEvtFiles(r);
	OTF2_EvtReaderCallbacks_Delete(cb);
	return rc;
}

static void archive_free(archive *a)
{
	for (size_t i = 0; i < a->nstrings; i++)
		free(a->strings[i]);
	for (size_t i = 0; i < a->ndefs; i++)
		free(a->defs[i].members);
	free(a->strings);
	free(a->defs);
	free(a->events);
}

char *otf2read_text(const char *dir)
{
	char anchor[4200], *text = NULL;
	size_t len = 0;
	archive a = {0};
	OTF2_Reader *r;
	FILE *f;

	snprintf(anchor, sizeof(anchor), "%s/traces.otf2", dir);
	r = OTF2_Reader_Open(anchor);
	if (!r)
		return NULL;
	if (OTF2_Reader_SetSerialCollectiveCallbacks(r) != OTF2_SUCCESS || read_defs(r, &a) < 0 ||
	    read_events(r, &a) < 0 || a.failed || !(f = open_memstream(&text, &len))) {
		OTF2_Reader_Close(r);
		archive_free(&a);
		return NULL;
	}
	put_defs(f, &a);
	put_events(f, &a);
	fclose(f);
	OTF2_Reader_Close(r);
	archive_free(&a);
	return text;
}

char *otf2read_export(const struct pvmmon_log *log, int real, struct pvmmon_otf2_counts *n,
                      char *dir)
{
	char *text;

	logbuild_tmpdir(dir);
	CU_ASSERT_EQUAL_FATAL(export__otf2(log, dir, real, n), 0);
	text = otf2read_text(dir);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	return text;
}

void otf2read_check_block(const char *text, const char *block)
{
	const char *p = text;
	int found = 0;

	/* At a line's start: the start of text or after a new line. */
	while (!found && (p = strstr(p, block)) != NULL) {
		found = p == text || p[-1] == '\n';
		p++;
	}
	if (!found)
		fprintf(stderr, "\nexpected the lines\n%s\nin\n%s\n", block, text);
	CU_ASSERT(found);
}
