/* Private to graphs/: rendering DOT text to a picture with libgvc. */
#ifndef PVMMON_GRAPHS_RENDER_H
#define PVMMON_GRAPHS_RENDER_H

/*
 * Lays out dot (NUL-terminated DOT text) with the layout its graph names in its
 * `layout` attribute (dot when it names none) and renders it as
 * format ("svg", "png", "pdf") to path, through a temporary file renamed into place.
 * Returns 0 or a negative PVMMON_E* code naming path.
 */
int graphs__render(const char *dot, const char *format, const char *path);

#endif
