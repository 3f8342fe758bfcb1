/* sass_internal.h - the SASS listing reader as a line-by-line builder, so
 * the nvdisasm -cfg (Graphviz) reader can feed it the lines of its record
 * nodes.  Not part of the public API.
 */
#ifndef RF_SASS_INTERNAL_H
#define RF_SASS_INTERNAL_H

#include <stddef.h>

#include "kir.h"

typedef struct sass_ctx sass_ctx;

sass_ctx *sass_ctx_new(rf_module *m, const char *path);
void sass_ctx_free(sass_ctx *c);

/* Longest listing line read; the rest of a longer line is ignored. */
#define SASS_LINE_MAX 1024

/* One listing line (no newline).  Its characters sit at file line `line`,
 * columns col, col + 1, ... unless lines/cols (NULL or len entries) give
 * each character's own place (a dot record's decoded text).  *inst
 * receives the index of the instruction it added in the current function,
 * or -1. */
int sass_line(sass_ctx *c, const char *text, size_t len, int line, int col,
              const int *lines, const int *cols, int *inst, rf_err *err);

/* Start a function (closing the current one). */
int sass_begin_func(sass_ctx *c, const char *name, size_t len, rf_err *err);

/* A label on the next instruction of the current function. */
int sass_label(sass_ctx *c, const char *name, size_t len, rf_err *err);

/* Is instruction i of the current function a control transfer whose
 * target the text did not give?  (Graphviz edges supply it.) */
int sass_is_branch(const sass_ctx *c, int i);
int sass_needs_target(const sass_ctx *c, int i);
int sass_set_target(sass_ctx *c, int i, const char *label, size_t len,
                    rf_err *err);
/* Is it a reconvergence-stack pop (SYNC / .S / BRK / CONT), a guarded
 * (conditional) transfer? */
int sass_is_pop(const sass_ctx *c, int i);
int sass_is_cond(const sass_ctx *c, int i);

/* Close the last function: resolve targets, build CFGs, count registers. */
int sass_finish(sass_ctx *c, rf_err *err);

#endif /* RF_SASS_INTERNAL_H */
