/* table.c - aligned text tables (see table.h). */
#include "table.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct rf_table {
    int ncols;
    char **cells;      /* (nrows + 1) * ncols, row 0 the header */
    size_t nrows, cap; /* rows including the header */
};

static char *dup_str(const char *s)
{
    size_t n = strlen(s ? s : "");
    char *d = malloc(n + 1);
    if (d)
        memcpy(d, s ? s : "", n + 1);
    return d;
}

rf_table *rf_table_new(int ncols, const char *const *headers)
{
    if (ncols < 1 || ncols > RF_TABLE_MAXCOLS)
        return NULL;
    rf_table *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->ncols = ncols;
    if (rf_table_add(t, headers) != RF_OK) {
        rf_table_free(t);
        return NULL;
    }
    return t;
}

void rf_table_free(rf_table *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->nrows * (size_t)t->ncols; i++)
        free(t->cells[i]);
    free(t->cells);
    free(t);
}

int rf_table_add(rf_table *t, const char *const *cells)
{
    if (t->nrows == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 16;
        char **nc = realloc(t->cells, cap * (size_t)t->ncols * sizeof *nc);
        if (!nc)
            return RF_ENOMEM;
        t->cells = nc;
        t->cap = cap;
    }
    char **row = t->cells + t->nrows * (size_t)t->ncols;
    for (int c = 0; c < t->ncols; c++) {
        row[c] = dup_str(cells[c]);
        if (!row[c]) {
            while (c-- > 0)
                free(row[c]);
            return RF_ENOMEM;
        }
    }
    t->nrows++;
    return RF_OK;
}

int rf_table_addf(rf_table *t, const char *fmt, ...)
{
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    const char *cells[RF_TABLE_MAXCOLS];
    char *p = buf;
    for (int c = 0; c < t->ncols; c++) {
        cells[c] = p;
        char *tab = p ? strchr(p, '\t') : NULL;
        if (tab) {
            *tab = '\0';
            p = tab + 1;
        } else {
            p = NULL;
        }
        if (!cells[c])
            cells[c] = "";
    }
    return rf_table_add(t, cells);
}

static bool numeric(const char *s)
{
    if (!*s)
        return false;
    char *end;
    strtod(s, &end);
    while (*end == '%' || *end == 'x' || isspace((unsigned char)*end))
        end++;
    return *end == '\0';
}

void rf_table_print(const rf_table *t, FILE *out)
{
    size_t width[RF_TABLE_MAXCOLS] = {0};
    for (size_t r = 0; r < t->nrows; r++)
        for (int c = 0; c < t->ncols; c++) {
            size_t n = strlen(t->cells[r * t->ncols + c]);
            if (n > width[c])
                width[c] = n;
        }
    for (size_t r = 0; r < t->nrows; r++) {
        for (int c = 0; c < t->ncols; c++) {
            const char *s = t->cells[r * t->ncols + c];
            bool last = c == t->ncols - 1;
            bool right = r > 0 && numeric(s);
            if (right)
                fprintf(out, "%*s", (int)width[c], s);
            else if (last)
                fputs(s, out);
            else
                fprintf(out, "%-*s", (int)width[c], s);
            if (!last)
                fputs("  ", out);
        }
        fputc('\n', out);
        if (r == 0) {
            for (int c = 0; c < t->ncols; c++) {
                for (size_t i = 0; i < width[c]; i++)
                    fputc('-', out);
                if (c < t->ncols - 1)
                    fputs("  ", out);
            }
            fputc('\n', out);
        }
    }
}
