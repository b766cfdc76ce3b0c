/* Laying out and rendering DOT text with Graphviz's library (libgvc). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include "pvmmon/errors.h"
#include "render.h"

/*
 * One Graphviz context for the process, made on first use and kept: Graphviz's text
 * layout caches font names per context while its pango plugin keeps a pointer to the
 * last one across contexts, so freeing a context and making another reads freed memory
 * (Debian graphviz 2.42). Keeping one also saves loading the plugins for every graph.
 */
static GVC_t *context(void)
{
	static GVC_t *gvc;

	if (!gvc)
		gvc = gvContext();
	return gvc;
}

int graphs__render(const char *dot, const char *format, const char *path)
{
	GVC_t *gvc = context();
	Agraph_t *g = NULL;
	char *tmp = NULL, *layout;
	int rc = 0, laid_out = 0;

	if (asprintf(&tmp, "%s.tmp%d", path, (int)getpid()) < 0)
		return pvmmon_error_set(PVMMON_ENOMEM, "report: out of memory");
	if (!gvc) {
		rc = pvmmon_error_set(PVMMON_ENOMEM, "report: Graphviz could not start");
		goto out;
	}
	g = agmemread(dot);
	if (!g) {
		rc = pvmmon_error_set(PVMMON_EINVAL, "report: %s: Graphviz rejected the graph", path);
		goto out;
	}
	/* A graph may name its layout: the space-time diagram places every node itself
	 * (nop2), the others are laid out by dot. */
	layout = agget(g, "layout");
	if (gvLayout(gvc, g, layout && *layout ? layout : "dot") != 0) {
		rc = pvmmon_error_set(PVMMON_EINVAL, "report: %s: Graphviz could not lay it out", path);
		goto out;
	}
	laid_out = 1;
	/* Rendered beside the target and renamed, so a failure leaves any older file. */
	if (gvRenderFilename(gvc, g, format, tmp) != 0) {
		rc = pvmmon_error_set(PVMMON_EIO, "report: %s: cannot render as %s", path, format);
		goto out;
	}
	if (rename(tmp, path) != 0)
		rc = pvmmon_error_set(PVMMON_EIO, "report: cannot write %s: %s", path, strerror(errno));
out:
	if (rc < 0)
		unlink(tmp);
	if (laid_out)
		gvFreeLayout(gvc, g);
	if (g)
		agclose(g);
	free(tmp);
	return rc;
}
