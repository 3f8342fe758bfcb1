/* table.h - aligned text tables for people: a header row, then rows of
 * cells; columns of numbers are right-aligned, others left-aligned, columns
 * separated by two spaces.
 */
#ifndef RF_TABLE_H
#define RF_TABLE_H

#include <stdio.h>

#include "../common/error.h"

#define RF_TBL_MAXCOLS 32

typedef struct rf_tbl rf_tbl;

/* A table with ncols columns named by headers. NULL when out of memory. */
rf_tbl *rf_tbl_new(int ncols, const char *const *headers);
void rf_tbl_free(rf_tbl *t);

/* Append a row of ncols cells (copied); RF_ENOMEM on failure. */
int rf_tbl_add(rf_tbl *t, const char *const *cells);

/* Append a row from a printf format whose fields are separated by '\t'. */
int rf_tbl_addf(rf_tbl *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

void rf_tbl_print(const rf_tbl *t, FILE *out);

#endif /* RF_TABLE_H */
