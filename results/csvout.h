/* csvout.h - CSV rows: fields quoted by libcsv only when they need it
 * (comma, quote, CR or LF inside), numbers in a stable short form, missing
 * values as empty fields.  A writer fills a memory buffer and, when given a
 * FILE, flushes it there as it grows; batch workers use memory-only writers
 * and hand the buffers to one output thread.
 */
#ifndef RF_CSVOUT_H
#define RF_CSVOUT_H

#include <stddef.h>
#include <stdio.h>

typedef struct rf_csvw {
    FILE *fp;      /* flush target, or NULL for memory only */
    char *buf;
    size_t len, cap;
    int col;       /* fields written on the current row */
    int failed;    /* an allocation or write failed */
} rf_csvw;

void rf_csvw_init(rf_csvw *w, FILE *fp);
void rf_csvw_free(rf_csvw *w);

void rf_csvw_field(rf_csvw *w, const char *s);
void rf_csvw_fieldn(rf_csvw *w, const char *s, size_t n);
/* Up to 6 significant digits (like %.6g); NaN or infinity -> empty field. */
void rf_csvw_num(rf_csvw *w, double v);
/* Exactly rounded to an integer (cycles, counts); NaN -> empty. */
void rf_csvw_round(rf_csvw *w, double v);
void rf_csvw_int(rf_csvw *w, long v);
void rf_csvw_empty(rf_csvw *w);
/* n bytes already in CSV form holding `fields` fields (fields >= 1), as
 * they are; returns their offset in w->buf, or (size_t)-1 when out of
 * memory. */
size_t rf_csvw_raw(rf_csvw *w, const char *s, size_t n, int fields);
void rf_csvw_end(rf_csvw *w);

/* Write the buffer to fp (no-op for memory writers); 0 or -1. */
int rf_csvw_flush(rf_csvw *w);

/* Format v like %.{digits}g into out (at least 32 bytes); returns length.
 * Used for tables as well. */
int rf_fmt_num(char *out, double v, int digits);

#endif /* RF_CSVOUT_H */
