/* A fixture log with time histograms loaded for the report tests, before and after the reader reads
 * them. */
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "histfix.h"
#include "pvmmon/errors.h"

static int64_t num(xmlNode *n, const char *name, int64_t dflt)
{
	xmlChar *v = xmlGetProp(n, (const xmlChar *)name);
	int64_t r = v ? strtoll((const char *)v, NULL, 10) : dflt;

	xmlFree(v);
	return r;
}

/* One <histogram> element as the model has it, into h. */
static int parse_hist(xmlNode *n, pvmmon_log_hist *h)
{
	xmlChar *v;
	char *p, *end;
	size_t cap = 16;

	memset(h, 0, sizeof(*h));
	v = xmlGetProp(n, (const xmlChar *)"metric");
	h->metric = pvmmon_hist_metric_parse((const char *)v);
	xmlFree(v);
	v = xmlGetProp(n, (const xmlChar *)"focus");
	h->focus = pvmmon_hist_focus_parse((const char *)v);
	xmlFree(v);
	v = xmlGetProp(n, (const xmlChar *)"axis");
	h->axis = v && !strcmp((const char *)v, "real") ? PVMMON_AXIS_REAL : PVMMON_AXIS_VIRTUAL;
	xmlFree(v);
	if (!h->metric || !h->focus)
		return PVMMON_EPARSE;
	v = xmlGetProp(n, (const xmlChar *)"name");
	h->name = v ? strdup((const char *)v) : NULL;
	xmlFree(v);
	v = xmlGetProp(n, (const xmlChar *)"requested");
	h->requested = v ? strdup((const char *)v) : NULL;
	xmlFree(v);
	h->stmt = (uint32_t)num(n, "stmt", 0);
	h->start_ns = num(n, "start-ns", 0);
	h->width_ns = num(n, "width-ns", 0);
	h->doublings = (uint32_t)num(n, "doublings", 0);
	h->from_ns = num(n, "from-ns", 0);
	h->to_ns = num(n, "to-ns", -1);
	h->values = malloc(cap * sizeof(*h->values));
	v = xmlNodeGetContent(n);
	for (p = (char *)v; h->values && p && *p;) {
		int64_t x = strtoll(p, &end, 10);

		if (end == p)
			break;
		if (h->nbuckets == cap)
			h->values = realloc(h->values, (cap *= 2) * sizeof(*h->values));
		if (h->values)
			h->values[h->nbuckets++] = x;
		p = end;
	}
	xmlFree(v);
	return h->values ? 0 : PVMMON_ENOMEM;
}

/* The <histogram> children of parent, taken out of the document into (*hs, *n). */
static int take_hists(xmlNode *parent, pvmmon_log_hist **hs, size_t *n)
{
	xmlNode *c, *next;
	int rc = 0;

	for (c = parent->children; c && rc == 0; c = next) {
		next = c->next;
		if (c->type != XML_ELEMENT_NODE || strcmp((const char *)c->name, "histogram"))
			continue;
		*hs = realloc(*hs, (*n + 1) * sizeof(**hs));
		if (!*hs)
			return PVMMON_ENOMEM;
		rc = parse_hist(c, &(*hs)[*n]);
		(*n)++;
		xmlUnlinkNode(c);
		xmlFreeNode(c);
	}
	return rc;
}

int histfix_reader_has_histograms(const char *path)
{
	pvmmon_log *log = NULL;
	int ok = pvmmon_log_read(&log, path) == 0 && (log->nhists || log->hist.enabled);

	pvmmon_log_free(log);
	return ok;
}

int histfix_load(pvmmon_log **out, const char *path)
{
	pvmmon_log_hist **th = NULL, *lh = NULL;
	pvmmon_log_histcfg cfg = {0, 0, 0, 0};
	size_t *tn = NULL, nt = 0, ln = 0;
	xmlChar *buf = NULL;
	xmlDoc *doc;
	xmlNode *c, *next;
	int len = 0, rc = 0;

	if (histfix_reader_has_histograms(path))
		return pvmmon_log_read(out, path);
	doc = xmlReadFile(path, NULL, XML_PARSE_NONET);
	if (!doc)
		return PVMMON_EPARSE;
	for (c = xmlDocGetRootElement(doc)->children; c && rc == 0; c = next) {
		next = c->next;
		if (c->type != XML_ELEMENT_NODE)
			continue;
		if (!strcmp((const char *)c->name, "tasks")) {
			for (xmlNode *t = c->children; t && rc == 0; t = t->next) {
				if (t->type != XML_ELEMENT_NODE)
					continue;
				th = realloc(th, (nt + 1) * sizeof(*th));
				tn = realloc(tn, (nt + 1) * sizeof(*tn));
				if (!th || !tn)
					return PVMMON_ENOMEM;
				th[nt] = NULL, tn[nt] = 0;
				rc = take_hists(t, &th[nt], &tn[nt]);
				nt++;
			}
		} else if (!strcmp((const char *)c->name, "histograms")) {
			cfg.enabled = 1;
			cfg.buckets = (uint32_t)num(c, "buckets", 128);
			cfg.initial_width_ns = num(c, "initial-width-ns", 10000000);
			cfg.hottest = (uint32_t)num(c, "hottest", 8);
			rc = take_hists(c, &lh, &ln);
			xmlUnlinkNode(c);
			xmlFreeNode(c);
		}
	}
	if (rc == 0) {
		xmlDocDumpMemory(doc, &buf, &len);
		rc = buf ? pvmmon_log_parse(out, (const char *)buf, (size_t)len, path)
		         : PVMMON_ENOMEM;
	}
	if (rc == 0 && (*out)->ntasks != nt)
		rc = PVMMON_EPARSE;
	for (size_t i = 0; i < nt; i++) {
		if (rc == 0) {
			(*out)->tasks[i].hists = th[i], (*out)->tasks[i].nhists = tn[i];
			continue;
		}
		for (size_t j = 0; j < tn[i]; j++)
			pvmmon_log_hist_clear(&th[i][j]);
		free(th[i]);
	}
	if (rc == 0) {
		(*out)->hist = cfg;
		(*out)->hists = lh, (*out)->nhists = ln;
	} else {
		for (size_t j = 0; j < ln; j++)
			pvmmon_log_hist_clear(&lh[j]);
		free(lh);
	}
	free(th);
	free(tn);
	xmlFree(buf);
	xmlFreeDoc(doc);
	return rc;
}
