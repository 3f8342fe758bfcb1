/* out.h - output helpers of the subcommands: aligned text tables and CSV
 * fields (quoted through libcsv when they need it). */
#ifndef RF_CLI_OUT_H
#define RF_CLI_OUT_H

#include <stdbool.h>
#include <stdio.h>

#define RF_TABLE_CELL 160

typedef struct rf_table {
    int ncols, nrows, cap;        /* nrows includes the header row */
    char (*cells)[RF_TABLE_CELL]; /* nrows x ncols */
} rf_table;

/* A table with the given header; returns 0 or RF_ENOMEM. */
int rf_table_init(rf_table *t, int ncols, const char *const *header);

/* Start a new row; then set its cells with rf_table_set. 0 or RF_ENOMEM. */
int rf_table_row(rf_table *t);
void rf_table_set(rf_table *t, int col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Print with columns padded to their widest cell (the last one unpadded). */
void rf_table_print(FILE *out, const rf_table *t);

/* Print as CSV: one header line, one line per row. */
void rf_table_csv(FILE *out, const rf_table *t);

void rf_table_free(rf_table *t);

/* One CSV field followed by ',' or, when last, a newline. */
void rf_csv_field(FILE *out, const char *text, bool last);

#endif /* RF_CLI_OUT_H */
