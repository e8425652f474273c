#ifndef RHR_CPANGOCAIRO_SHIM_H
#define RHR_CPANGOCAIRO_SHIM_H
/* cairo draws the report (PDF, SVG, PNG surfaces); pango lays out its text through pangocairo, with
 * fontconfig's fallback for scripts and emoji the first font lacks (docs/design.md section 6, the report). */
#include <cairo.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <pango/pangocairo.h>

/* PANGO_SCALE is a macro Swift sees as a plain Int32 already; g_object_unref takes a gpointer, so layouts and
 * contexts are released through one typed call. */
static inline void rhr_pango_release(void *object) {
    g_object_unref(object);
}
#endif
