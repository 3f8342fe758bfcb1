/* batchplot.c - a chart of two columns of a batch output (see batchplot.h).
 *
 * The output is read back with libcsv through rf_csv_feed (records bounded
 * by RF_LINE_MAX, as every CSV reader of rfkit); its header locates X, Y,
 * GROUP and `error`, and each row gives one point or is left out.  The
 * points go to rf_plot_write unchanged, in file order: plot.c sorts a
 * numeric X within each series and keeps the first-seen order of
 * categories and series.
 */
#include "batchplot.h"

#include <csv.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../common/file.h"
#include "batch.h"
#include "plot.h"

/* ---- the spec and the chart's files ------------------------------------- */

void rf_batchplot_free(rf_batchplot *bp)
{
    free(bp->x);   /* x, y and group share one block */
    free(bp->dir);
    free(bp->stem);
    memset(bp, 0, sizeof *bp);
}

static int stem_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '-' || c == '.';
}

static int usage(rf_batchplot *bp, rf_err *err, const char *fmt, const char *what)
{
    rf_batchplot_free(bp);
    return rf_err_set(err, RF_EUSAGE, "command line", 0, 0, "plot", fmt, what);
}

int rf_batchplot_init(rf_batchplot *bp, const char *spec, const char *out_path, rf_err *err)
{
    memset(bp, 0, sizeof *bp);
    if (!(bp->x = malloc(strlen(spec) + 1)))
        return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "out of memory");
    strcpy(bp->x, spec);
    char *names[4] = {bp->x, NULL, NULL, NULL};
    int n = 1;
    for (char *c = bp->x; *c; c++)
        if (*c == ',') {
            *c = '\0';
            if (n < 4)
                names[n] = c + 1;
            n++;
        }
    bool empty = false;
    for (int i = 0; i < n && i < 4; i++)
        empty |= names[i][0] == '\0';
    if (n < 2 || n > 3 || empty)
        return usage(bp, err,
                     "'%s': give X,Y or X,Y,GROUP, names of output columns (e.g. banks,ipc,design "
                     "or energy_nj,ipc)", spec);
    bp->y = names[1];
    bp->group = n == 3 ? names[2] : NULL;

    const char *slash = strrchr(out_path, '/');
    const char *base = slash ? slash + 1 : out_path;
    size_t dlen = slash ? (size_t)(slash - out_path) : 0;
    const char *dot = strrchr(base, '.');
    size_t slen = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    if (dot && dot != base && (!strcmp(dot, ".dat") || !strcmp(dot, ".gp") || !strcmp(dot, ".png")))
        return usage(bp, err,
                     "the chart's files are named after OUT less its extension: '%s' would be "
                     "replaced by them (give OUT another extension, such as .csv)", out_path);
    bool ok = slen > 0 && base[0] != '.' && slen <= 200;
    for (size_t i = 0; ok && i < slen; i++)
        ok = stem_char(base[i]);
    if (!ok)
        return usage(bp, err,
                     "the chart is named after OUT ('%s'): give OUT a name of letters, digits, "
                     "'_', '-' and '.' not starting with '.'", out_path);
    struct stat st;
    if (stat(out_path, &st) == 0 && !S_ISREG(st.st_mode))
        return usage(bp, err,
                     "the chart is drawn from OUT read back: '%s' is not a regular file",
                     out_path);
    bp->dir = malloc(dlen + 2);
    bp->stem = malloc(slen + 1);
    if (!bp->dir || !bp->stem) {
        rf_batchplot_free(bp);
        return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "out of memory");
    }
    if (slash == out_path)
        strcpy(bp->dir, "/");
    else if (slash) {
        memcpy(bp->dir, out_path, dlen);
        bp->dir[dlen] = '\0';
    } else {
        strcpy(bp->dir, ".");
    }
    memcpy(bp->stem, base, slen);
    bp->stem[slen] = '\0';
    return RF_OK;
}

/* ---- the column names ---------------------------------------------------- */

/* Is name an output column: one of the input's, or a result column? */
static int in_output(const char *name, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(names[i], name))
            return 1;
    const char *r = RF_BATCH_RESULT_COLUMNS;
    size_t len = strlen(name);
    while (*r) {
        const char *e = strchr(r, ',');
        size_t rl = e ? (size_t)(e - r) : strlen(r);
        if (rl == len && !strncmp(r, name, len))
            return 1;
        r += rl + (e ? 1 : 0);
    }
    return 0;
}

int rf_batchplot_check(const rf_batchplot *bp, const char *const *names, int n, rf_err *err)
{
    const char *want[3] = {bp->x, bp->y, bp->group};
    for (int i = 0; i < 3; i++) {
        if (!want[i] || in_output(want[i], names, n))
            continue;
        char cols[RF_ERR_MSG_MAX];
        size_t at = 0;
        cols[0] = '\0';
        for (int j = 0; j < n && at < sizeof cols; j++)
            at += (size_t)snprintf(cols + at, sizeof cols - at, "%s,", names[j]);
        if (at < sizeof cols)
            snprintf(cols + at, sizeof cols - at, "%s", RF_BATCH_RESULT_COLUMNS);
        return rf_err_set(err, RF_EUSAGE, "command line", 0, 0, "plot",
                          "no column '%s' in the output (its columns: %s)", want[i], cols);
    }
    return RF_OK;
}

/* ---- reading a CSV file row by row --------------------------------------- */

/* A row's fields, NUL-terminated; row_fn returns 0 to go on, 1 to stop
 * (enough read), or a negative code with err filled. */
typedef int (*row_fn)(char **f, int nf, long row, void *arg, rf_err *err);

typedef struct reader {
    char **f;
    int nf, cap;
    long row;            /* records read, the header being 0 */
    row_fn fn;
    void *arg;
    int rc;              /* < 0: stop with this code; 1: stop, done */
    rf_err *err;
} reader;

static void clear_fields(reader *r)
{
    for (int i = 0; i < r->nf; i++)
        free(r->f[i]);
    r->nf = 0;
}

static void on_field(void *s, size_t len, void *data)
{
    reader *r = data;
    if (r->rc)
        return;
    if (r->nf == r->cap) {
        int cap = r->cap ? 2 * r->cap : 32;
        char **f = realloc(r->f, (size_t)cap * sizeof *f);
        if (!f) {
            r->rc = rf_err_set(r->err, RF_ENOMEM, NULL, 0, 0, NULL, "out of memory");
            return;
        }
        r->f = f;
        r->cap = cap;
    }
    char *v = malloc(len + 1);
    if (!v) {
        r->rc = rf_err_set(r->err, RF_ENOMEM, NULL, 0, 0, NULL, "out of memory");
        return;
    }
    memcpy(v, s, len);
    v[len] = '\0';
    r->f[r->nf++] = v;
}

static void on_row(int term, void *data)
{
    (void)term;
    reader *r = data;
    if (!r->rc)
        r->rc = r->fn(r->f, r->nf, r->row++, r->arg, r->err);
    clear_fields(r);
}

static int read_csv(const char *path, row_fn fn, void *arg, rf_err *err)
{
    FILE *fp;
    int rc = rf_file_open(path, &fp, err);
    if (rc)
        return rc;
    struct csv_parser p;
    if (csv_init(&p, CSV_APPEND_NULL) != 0) {
        fclose(fp);
        return rf_err_set(err, RF_ENOMEM, path, 0, 0, NULL, "csv parser");
    }
    reader r = {NULL, 0, 0, 0, fn, arg, 0, err};
    rf_csvfeed feed;
    rf_csv_feed_init(&feed, &p, on_field, on_row, &r);
    char buf[8192];
    size_t got;
    bool first = true;
    while (!r.rc && (got = fread(buf, 1, sizeof buf, fp)) > 0) {
        size_t skip = first ? rf_file_bom(buf, got) : 0;
        first = false;
        int frc = rf_csv_feed(&feed, buf + skip, got - skip);
        if (frc == RF_EPARSE && !r.rc)
            r.rc = rf_err_set(err, RF_EPARSE, path, (int)r.row + 1, 0, NULL, "%s",
                              csv_strerror(csv_error(&p)));
        else if (frc == RF_ELIMIT && !r.rc)
            r.rc = rf_err_set(err, RF_ELIMIT, path, (int)r.row + 1, 0, NULL,
                              "a record longer than %zu bytes", RF_LINE_MAX);
    }
    if (!r.rc && ferror(fp))
        r.rc = rf_err_set(err, RF_EIO, path, 0, 0, NULL, "read error");
    if (!r.rc)
        csv_fini(&p, on_field, on_row, &r);
    csv_free(&p);
    fclose(fp);
    clear_fields(&r);
    free(r.f);
    return r.rc < 0 ? r.rc : RF_OK;
}

/* ---- the header of an input file ----------------------------------------- */

static int check_header_row(char **f, int nf, long row, void *arg, rf_err *err)
{
    (void)row;
    int rc = rf_batchplot_check(arg, (const char *const *)f, nf, err);
    return rc ? rc : 1;   /* the header alone */
}

/* An input without a header passes: the batch run reports it. */
int rf_batchplot_check_file(const rf_batchplot *bp, const char *in_path, rf_err *err)
{
    return read_csv(in_path, check_header_row, (void *)bp, err);
}

/* ---- the points ---------------------------------------------------------- */

typedef struct points {
    const rf_batchplot *bp;
    const char *path;
    int ix, iy, ig, ierr;    /* column indices (ig -1 without GROUP) */
    char **x, **g;
    double *y;
    int n, cap;
    int left_out;
} points;

static int find_col(char **f, int nf, const char *name)
{
    for (int i = 0; i < nf; i++)
        if (!strcmp(f[i], name))
            return i;
    return -1;
}

/* A whole cell that is a finite number. */
static int number(const char *s, double *v)
{
    if (!*s)
        return 0;
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    return *end == '\0' && errno == 0 && isfinite(*v);
}

static char *copy_str(const char *s)
{
    char *d = malloc(strlen(s) + 1);
    return d ? strcpy(d, s) : NULL;
}

static int take_row(char **f, int nf, long row, void *arg, rf_err *err)
{
    points *p = arg;
    if (row == 0) {
        p->ix = find_col(f, nf, p->bp->x);
        p->iy = find_col(f, nf, p->bp->y);
        p->ig = p->bp->group ? find_col(f, nf, p->bp->group) : -1;
        p->ierr = find_col(f, nf, "error");
        if (p->ix < 0 || p->iy < 0 || (p->bp->group && p->ig < 0) || p->ierr < 0)
            return rf_err_set(err, RF_EPARSE, p->path, 1, 0, "plot",
                              "not a batch output with columns %s, %s%s%s and error", p->bp->x,
                              p->bp->y, p->bp->group ? ", " : "",
                              p->bp->group ? p->bp->group : "");
        return 0;
    }
    double y;
    int last = p->ix > p->iy ? p->ix : p->iy;
    if (p->ig > last)
        last = p->ig;
    if (p->ierr > last)
        last = p->ierr;
    if (nf <= last || f[p->ierr][0] || !f[p->ix][0] || !number(f[p->iy], &y) ||
        (p->ig >= 0 && !f[p->ig][0])) {
        p->left_out++;
        return 0;
    }
    if (p->n == p->cap) {
        int cap = p->cap ? 2 * p->cap : 256;
        char **x = realloc(p->x, (size_t)cap * sizeof *x);
        if (x)
            p->x = x;
        char **g = realloc(p->g, (size_t)cap * sizeof *g);
        if (g)
            p->g = g;
        double *ny = realloc(p->y, (size_t)cap * sizeof *ny);
        if (ny)
            p->y = ny;
        if (!x || !g || !ny)
            return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "out of memory");
        p->cap = cap;
    }
    p->x[p->n] = copy_str(f[p->ix]);
    p->g[p->n] = p->ig >= 0 ? copy_str(f[p->ig]) : NULL;
    p->y[p->n] = y;
    if (!p->x[p->n] || (p->ig >= 0 && !p->g[p->n])) {
        free(p->x[p->n]);
        free(p->g[p->n]);
        return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "out of memory");
    }
    p->n++;
    return 0;
}

/* Sorting points by (group, x) text, to find an X given twice in a group. */
typedef struct gx {
    const char *g, *x;
} gx;

static int cmp_gx(const void *a, const void *b)
{
    const gx *p = a, *q = b;
    int c = strcmp(p->g ? p->g : "", q->g ? q->g : "");
    return c ? c : strcmp(p->x, q->x);
}

/* 1 when some group holds two rows with the same X (a line through them
 * would zigzag), 0 when not, -1 when out of memory. */
static int repeats_x(const points *p)
{
    gx *a = malloc(((size_t)p->n + 1) * sizeof *a);
    if (!a)
        return -1;
    for (int i = 0; i < p->n; i++)
        a[i] = (gx){p->g[i], p->x[i]};
    qsort(a, (size_t)p->n, sizeof *a, cmp_gx);
    int rep = 0;
    for (int i = 1; i < p->n && !rep; i++)
        rep = cmp_gx(&a[i - 1], &a[i]) == 0;
    free(a);
    return rep;
}

int rf_batchplot_draw(const rf_batchplot *bp, const char *out_path, rf_batchplot_result *res,
                      rf_err *err)
{
    memset(res, 0, sizeof *res);
    points p;
    memset(&p, 0, sizeof p);
    p.bp = bp;
    p.path = out_path;
    int rc = read_csv(out_path, take_row, &p, err);
    res->points = p.n;
    res->left_out = p.left_out;
    int rep = !rc && p.n > 0 && bp->group ? repeats_x(&p) : 0;
    if (rep < 0)
        rc = rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "out of memory");
    if (!rc && p.n > 0) {
        char title[256];
        snprintf(title, sizeof title, "%s against %s%s%s", bp->y, bp->x,
                 bp->group ? " by " : "", bp->group ? bp->group : "");
        rf_plot pl = {0};
        pl.stem = bp->stem;
        pl.title = title;
        pl.xlabel = bp->x;
        pl.ylabel = bp->y;
        pl.style = bp->group && !rep ? RF_PLOT_LINES : RF_PLOT_POINTS;
        pl.pareto = !bp->group;
        rc = rf_plot_write(bp->dir, &pl, p.n, (const char *const *)p.x, p.y,
                           bp->group ? (const char *const *)p.g : NULL, &res->drawn, res->why,
                           sizeof res->why, err);
    }
    for (int i = 0; i < p.n; i++) {
        free(p.x[i]);
        free(p.g[i]);
    }
    free(p.x);
    free(p.g);
    free(p.y);
    return rc;
}
