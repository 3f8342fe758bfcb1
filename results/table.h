/* table.h - aligned text tables for people: a header row, then rows of
 * cells; numeric-looking cells are right-aligned, text left-aligned, columns
 * separated by two spaces.
 */
#ifndef RF_TABLE_H
#define RF_TABLE_H

#include <stdio.h>

#include "../common/error.h"

#define RF_TABLE_MAXCOLS 32

typedef struct rf_table rf_table;

/* A table with ncols columns named by headers. NULL when out of memory. */
rf_table *rf_table_new(int ncols, const char *const *headers);
void rf_table_free(rf_table *t);

/* Append a row of ncols cells (copied); RF_ENOMEM on failure. */
int rf_table_add(rf_table *t, const char *const *cells);

/* Append a row from a printf format whose fields are separated by '\t'. */
int rf_table_addf(rf_table *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

void rf_table_print(const rf_table *t, FILE *out);

#endif /* RF_TABLE_H */
