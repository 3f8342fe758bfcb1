/* table.h - tables of text cells: printed aligned for people (a header
 * row and a rule, columns of numbers right-aligned, others left-aligned,
 * two spaces between columns) or as CSV (header line, then one line per
 * row; fields quoted by libcsv only when they need it).
 */
#ifndef RF_TABLE_H
#define RF_TABLE_H

#include <stdio.h>

#include "../common/error.h"

#define RF_TBL_MAXCOLS 128

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

/* Append an empty row; fill it with rf_tbl_set.  RF_OK or RF_ENOMEM. */
int rf_tbl_row(rf_tbl *t);

/* Set cell `col` of the last row from a printf format (RF_ENOMEM). */
int rf_tbl_set(rf_tbl *t, int col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

void rf_tbl_print(const rf_tbl *t, FILE *out);
void rf_tbl_csv(const rf_tbl *t, FILE *out);
/* A markdown table: the header, a rule, the rows ('|' in a cell escaped). */
void rf_tbl_markdown(const rf_tbl *t, FILE *out);

#endif /* RF_TABLE_H */
