/* out.c - aligned text tables and CSV fields for the subcommands. */
#include "out.h"

#include <csv.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../common/error.h"

int rf_table_init(rf_table *t, int ncols, const char *const *header)
{
    t->ncols = ncols;
    t->nrows = 0;
    t->cap = 0;
    t->cells = NULL;
    if (rf_table_row(t))
        return RF_ENOMEM;
    for (int c = 0; c < ncols; c++)
        rf_table_set(t, c, "%s", header[c]);
    return RF_OK;
}

int rf_table_row(rf_table *t)
{
    if (t->nrows == t->cap) {
        int cap = t->cap ? t->cap * 2 : 16;
        void *p = realloc(t->cells, (size_t)cap * (size_t)t->ncols * sizeof *t->cells);
        if (!p)
            return RF_ENOMEM;
        t->cells = p;
        t->cap = cap;
    }
    memset(t->cells[t->nrows * t->ncols], 0, (size_t)t->ncols * sizeof *t->cells);
    t->nrows++;
    return RF_OK;
}

void rf_table_set(rf_table *t, int col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->cells[(t->nrows - 1) * t->ncols + col], RF_TABLE_CELL, fmt, ap);
    va_end(ap);
}

void rf_table_print(FILE *out, const rf_table *t)
{
    int width[64] = {0};
    for (int r = 0; r < t->nrows; r++)
        for (int c = 0; c < t->ncols && c < 64; c++) {
            int n = (int)strlen(t->cells[r * t->ncols + c]);
            if (n > width[c])
                width[c] = n;
        }
    for (int r = 0; r < t->nrows; r++) {
        for (int c = 0; c < t->ncols; c++) {
            const char *cell = t->cells[r * t->ncols + c];
            if (c == t->ncols - 1)
                fprintf(out, "%s\n", cell);
            else
                fprintf(out, "%-*s  ", c < 64 ? width[c] : 0, cell);
        }
    }
}

void rf_csv_field(FILE *out, const char *text, bool last)
{
    if (strpbrk(text, ",\"\r\n"))
        csv_fwrite(out, text, strlen(text));
    else
        fputs(text, out);
    fputc(last ? '\n' : ',', out);
}

void rf_table_csv(FILE *out, const rf_table *t)
{
    for (int r = 0; r < t->nrows; r++)
        for (int c = 0; c < t->ncols; c++)
            rf_csv_field(out, t->cells[r * t->ncols + c], c == t->ncols - 1);
}

void rf_table_free(rf_table *t)
{
    free(t->cells);
    t->cells = NULL;
    t->nrows = t->cap = 0;
}
