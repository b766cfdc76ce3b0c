/* Private to graphs/: the HTML report's interactive space-time diagram. */
#ifndef PVMMON_GRAPHS_HTML_INTERACT_H
#define PVMMON_GRAPHS_HTML_INTERACT_H

#include <stdint.h>
#include <stdio.h>

/* The CSS and the script (no <style> or <script> tags) the page needs once. */
extern const char graphs__html_interact_style[];
extern const char graphs__html_interact_script[];

/*
 * Writes the SVG picture at path into out inline, in a div.st with zoom buttons and
 * the time range in view; span_ns is the time the plot's axis spans, alt says what it
 * is. Returns 0 or a negative PVMMON_E* code naming path.
 */
int graphs__html_inline_svg(FILE *out, const char *path, int64_t span_ns, const char *alt);

#endif
