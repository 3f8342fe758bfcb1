/* table.c - aligned text tables (see table.h).  A column whose cells are all
 * numbers is right-aligned, any other left-aligned. */
#include "table.h"

#include <assert.h>
#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "csvout.h"

struct rf_tbl {
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

rf_tbl *rf_tbl_new(int ncols, const char *const *headers)
{
    if (ncols < 1 || ncols > RF_TBL_MAXCOLS)
        return NULL;
    rf_tbl *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->ncols = ncols;
    if (rf_tbl_add(t, headers) != RF_OK) {
        rf_tbl_free(t);
        return NULL;
    }
    return t;
}

void rf_tbl_free(rf_tbl *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->nrows * (size_t)t->ncols; i++)
        free(t->cells[i]);
    free(t->cells);
    free(t);
}

int rf_tbl_add(rf_tbl *t, const char *const *cells)
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

int rf_tbl_row(rf_tbl *t)
{
    const char *empty[RF_TBL_MAXCOLS];
    for (int c = 0; c < t->ncols; c++)
        empty[c] = "";
    return rf_tbl_add(t, empty);
}

int rf_tbl_set(rf_tbl *t, int col, const char *fmt, ...)
{
    assert(t->nrows > 1 && col >= 0 && col < t->ncols);
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = malloc((size_t)(n > 0 ? n : 0) + 1);
    if (!s)
        return RF_ENOMEM;
    va_start(ap, fmt);
    vsnprintf(s, (size_t)(n > 0 ? n : 0) + 1, fmt, ap);
    va_end(ap);
    char **cell = &t->cells[(t->nrows - 1) * (size_t)t->ncols + (size_t)col];
    free(*cell);
    *cell = s;
    return RF_OK;
}

int rf_tbl_addf(rf_tbl *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *buf = malloc((size_t)(n > 0 ? n : 0) + 1);
    if (!buf)
        return RF_ENOMEM;
    va_start(ap, fmt);
    vsnprintf(buf, (size_t)(n > 0 ? n : 0) + 1, fmt, ap);
    va_end(ap);
    const char *cells[RF_TBL_MAXCOLS];
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
    int rc = rf_tbl_add(t, cells);
    free(buf);
    return rc;
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

void rf_tbl_print(const rf_tbl *t, FILE *out)
{
    size_t width[RF_TBL_MAXCOLS] = {0};
    bool num[RF_TBL_MAXCOLS];
    for (int c = 0; c < t->ncols; c++) {
        num[c] = t->nrows > 1;
        for (size_t r = 1; r < t->nrows; r++)
            num[c] = num[c] && numeric(t->cells[r * t->ncols + c]);
    }
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
            bool right = r > 0 && num[c];
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

void rf_tbl_csv(const rf_tbl *t, FILE *out)
{
    rf_csvw w;
    rf_csvw_init(&w, out);
    for (size_t r = 0; r < t->nrows; r++) {
        for (int c = 0; c < t->ncols; c++)
            rf_csvw_field(&w, t->cells[r * t->ncols + c]);
        rf_csvw_end(&w);
    }
    rf_csvw_flush(&w);
    rf_csvw_free(&w);
}

/* A markdown cell: '|' escaped, line breaks as spaces. */
static void md_cell(const char *s, FILE *out)
{
    for (; *s; s++) {
        if (*s == '|')
            fputs("\\|", out);
        else if (*s == '\n' || *s == '\r')
            fputc(' ', out);
        else
            fputc(*s, out);
    }
}

void rf_tbl_markdown(const rf_tbl *t, FILE *out)
{
    for (size_t r = 0; r < t->nrows; r++) {
        for (int c = 0; c < t->ncols; c++) {
            fputs(c ? " | " : "| ", out);
            md_cell(t->cells[r * (size_t)t->ncols + (size_t)c], out);
        }
        fputs(" |\n", out);
        if (r == 0) {
            for (int c = 0; c < t->ncols; c++)
                fputs(c ? "|---" : "|---", out);
            fputs("|\n", out);
        }
    }
}
