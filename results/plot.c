/* plot.c - gnuplot charts: a data file, a script, and gnuplot run on them
 * when it is installed (see plot.h for the files and their layout).
 *
 * Numeric x: one data block per series ("x y" lines sorted by x), blocks
 * separated by two blank lines so that `index k` selects series k; the
 * Pareto front (points no other point beats on both lower x and higher y)
 * is one more block.  Categorical x: one line per category, a column per
 * series ("?" where a series has no value), drawn as clustered bars.
 * Labels are written as gnuplot single-quoted strings (a quote doubled),
 * with the enhanced-text mode off so that '_' stays an underscore.
 */
#include "plot.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../common/file.h"

/* Index of s in list[0..n), or -1. */
static int find(const char *const *list, int n, const char *s)
{
    for (int i = 0; i < n; i++)
        if (strcmp(list[i], s) == 0)
            return i;
    return -1;
}

static int is_number(const char *s, double *v)
{
    char *end;
    if (!s || !*s)
        return 0;
    errno = 0;
    *v = strtod(s, &end);
    while (*end == ' ')
        end++;
    return *end == '\0' && errno == 0 && isfinite(*v);
}

/* A gnuplot single-quoted string: ' doubled, control bytes as spaces. */
static void put_quoted(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; s && *s; s++) {
        if (*s == '\'')
            fputs("''", f);
        else
            fputc((unsigned char)*s < 0x20 ? ' ' : *s, f);
    }
    fputc('\'', f);
}

/* A category in the data file: double-quoted, with no '"' or control byte. */
static void put_category(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++)
        fputc(*s == '"' ? '\'' : (unsigned char)*s < 0x20 ? ' ' : *s, f);
    fputc('"', f);
}

typedef struct point {
    double x, y;
    int series;
} point;

static int cmp_point(const void *a, const void *b)
{
    const point *p = a, *q = b;
    if (p->series != q->series)
        return p->series < q->series ? -1 : 1;
    if (p->x != q->x)
        return p->x < q->x ? -1 : 1;
    return (p->y > q->y) - (p->y < q->y);
}

/* Points sorted by x then by y falling: a point is on the front when its y
 * beats every y before it (all of which have lower or equal x). */
static int cmp_front(const void *a, const void *b)
{
    const point *p = a, *q = b;
    if (p->x != q->x)
        return p->x < q->x ? -1 : 1;
    return (p->y < q->y) - (p->y > q->y);
}

static int open_out(rf_outfile *o, const char *dir, const char *stem, const char *ext,
                    char *path, size_t cap, rf_err *err)
{
    snprintf(path, cap, "%s/%s%s", dir, stem, ext);
    return rf_outfile_open(o, path, err);
}

static void header(FILE *g, const rf_plot *p)
{
    fputs("# drawn by `gnuplot FILE.gp` in this folder\n", g);
    fputs("set terminal pngcairo size 960,540 noenhanced font ',10'\nset output ", g);
    char png[300];
    snprintf(png, sizeof png, "%s.png", p->stem);
    put_quoted(g, png);
    fputs("\nset title ", g);
    put_quoted(g, p->title ? p->title : p->stem);
    fputs("\nset xlabel ", g);
    put_quoted(g, p->xlabel ? p->xlabel : "");
    fputs("\nset ylabel ", g);
    put_quoted(g, p->ylabel ? p->ylabel : "");
    fputs("\nset key outside right top\nset grid ytics\nset datafile missing '?'\n", g);
    if (p->has_ref)
        fprintf(g, "set arrow from graph 0, first %.17g to graph 1, first %.17g nohead dt 2 lc "
                   "rgb 'gray40'\n", p->ref_y, p->ref_y);
}

static int write_numeric(FILE *dat, FILE *g, const rf_plot *p, int n, const double *xs,
                         const double *y, const int *series, const char *const *names,
                         int nseries, const char *datname)
{
    point *pts = malloc(((size_t)n + 1) * sizeof *pts);
    if (!pts)
        return RF_ENOMEM;
    int m = 0;
    for (int i = 0; i < n; i++)
        if (isfinite(y[i]))
            pts[m++] = (point){xs[i], y[i], series[i]};
    qsort(pts, (size_t)m, sizeof *pts, cmp_point);
    for (int s = 0, at = 0; s < nseries; s++) {
        if (s)
            fputs("\n\n", dat);
        fprintf(dat, "# %s\n", names[s]);
        for (; at < m && pts[at].series == s; at++)
            fprintf(dat, "%.10g %.10g\n", pts[at].x, pts[at].y);
    }
    int front = p->pareto && m > 0;
    if (front) {
        qsort(pts, (size_t)m, sizeof *pts, cmp_front);
        fputs("\n\n# Pareto front: lowest x, highest y\n", dat);
        double best = -INFINITY;
        for (int i = 0; i < m; i++)
            if (pts[i].y > best) {
                best = pts[i].y;
                fprintf(dat, "%.10g %.10g\n", pts[i].x, pts[i].y);
            }
    }
    free(pts);
    if (p->logx)
        fputs("set logscale x 2\n", g);
    fputs("plot ", g);
    const char *with = p->style == RF_PLOT_POINTS ? "points pt 7 ps 0.8" : "linespoints pt 7";
    for (int s = 0; s < nseries; s++) {
        if (s)
            fputs(", \\\n     ", g);
        put_quoted(g, datname);
        fprintf(g, " index %d using 1:2 with %s title ", s, with);
        put_quoted(g, names[s]);
    }
    if (front) {
        fputs(", \\\n     ", g);
        put_quoted(g, datname);
        fprintf(g, " index %d using 1:2 with steps lw 2 lc rgb 'black' title 'Pareto front'",
                nseries);
    }
    fputc('\n', g);
    return RF_OK;
}

static int write_bars(FILE *dat, FILE *g, int n, const char *const *x, const double *y,
                      const int *series, const char *const *names, int nseries,
                      const char *datname)
{
    const char **cats = malloc(((size_t)n + 1) * sizeof *cats);
    double *cell = NULL;
    int ncat = 0;
    if (!cats)
        return RF_ENOMEM;
    for (int i = 0; i < n; i++)
        if (find(cats, ncat, x[i]) < 0)
            cats[ncat++] = x[i];
    cell = malloc(((size_t)ncat * (size_t)nseries + 1) * sizeof *cell);
    if (!cell) {
        free(cats);
        return RF_ENOMEM;
    }
    for (int i = 0; i < ncat * nseries; i++)
        cell[i] = NAN;
    for (int i = 0; i < n; i++)   /* the last value of a (category, series) wins */
        cell[find(cats, ncat, x[i]) * nseries + series[i]] = y[i];
    fputs("# category", dat);
    for (int s = 0; s < nseries; s++)
        fprintf(dat, " | %s", names[s]);
    fputc('\n', dat);
    for (int c = 0; c < ncat; c++) {
        put_category(dat, cats[c]);
        for (int s = 0; s < nseries; s++) {
            double v = cell[c * nseries + s];
            if (isfinite(v))
                fprintf(dat, " %.10g", v);
            else
                fputs(" ?", dat);
        }
        fputc('\n', dat);
    }
    free(cell);
    free(cats);
    fputs("set style data histograms\nset style histogram clustered gap 1\n"
          "set style fill solid 0.85 border -1\nset xtics rotate by -30\nset yrange [0:*]\n"
          "plot ", g);
    for (int s = 0; s < nseries; s++) {
        if (s)
            fputs(", \\\n     ", g);
        put_quoted(g, datname);
        if (s == 0)
            fprintf(g, " using %d:xtic(1) title ", s + 2);
        else
            fprintf(g, " using %d title ", s + 2);
        put_quoted(g, names[s]);
    }
    fputc('\n', g);
    return RF_OK;
}

int rf_plot_available(void)
{
    const char *path = getenv("PATH");
    if (!path)
        return 0;
    const char *s = path;
    while (*s) {
        const char *e = strchr(s, ':');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        char buf[4096];
        if (len > 0 && len + 10 < sizeof buf) {
            memcpy(buf, s, len);
            memcpy(buf + len, "/gnuplot", 9);
            if (access(buf, X_OK) == 0)
                return 1;
        }
        if (!e)
            break;
        s = e + 1;
    }
    return 0;
}

/* Run `gnuplot STEM.gp` in dir, its output discarded; 0 when it exited 0. */
static int run_gnuplot(const char *dir, const char *script)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int fd = open("/dev/null", O_RDWR);
        if (fd >= 0) {
            dup2(fd, 0);
            dup2(fd, 1);
            dup2(fd, 2);
        }
        if (chdir(dir) != 0)
            _exit(126);
        execlp("gnuplot", "gnuplot", script, (char *)NULL);
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int valid_stem(const char *s)
{
    if (!s || !*s || strlen(s) > 200 || s[0] == '.')
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '_' || *s == '-' || *s == '.'))
            return 0;
    return 1;
}

int rf_plot_write(const char *dir, const rf_plot *p, int n, const char *const *x,
                  const double *y, const char *const *group, int *drawn, char *why,
                  size_t why_cap, rf_err *err)
{
    *drawn = 0;
    if (why_cap)
        why[0] = '\0';
    if (!valid_stem(p->stem))
        return rf_err_set(err, RF_EUSAGE, NULL, 0, 0, "plot",
                          "'%s' is not a plot name (letters, digits, '_', '-', '.')",
                          p->stem ? p->stem : "");
    double *xs = malloc(((size_t)n + 1) * sizeof *xs);
    int *series = malloc(((size_t)n + 1) * sizeof *series);
    const char **names = malloc(((size_t)n + 1) * sizeof *names);
    if (!xs || !series || !names) {
        free(xs);
        free(series);
        free(names);
        return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "out of memory");
    }
    int numeric = p->style != RF_PLOT_BARS, nseries = 0;
    for (int i = 0; i < n; i++) {
        if (numeric && !is_number(x[i], &xs[i]))
            numeric = 0;
        const char *g = group ? group[i] : (p->ylabel ? p->ylabel : "y");
        int s = find(names, nseries, g);
        if (s < 0) {
            s = nseries;
            names[nseries++] = g;
        }
        series[i] = s;
    }

    char datpath[4096], gppath[4096], datname[256], gpname[256];
    snprintf(datname, sizeof datname, "%s.dat", p->stem);
    snprintf(gpname, sizeof gpname, "%s.gp", p->stem);
    rf_outfile dat, gp;
    int rc = open_out(&dat, dir, p->stem, ".dat", datpath, sizeof datpath, err);
    if (rc)
        goto out;
    rc = open_out(&gp, dir, p->stem, ".gp", gppath, sizeof gppath, err);
    if (rc) {
        rf_outfile_close(&dat, 0, NULL);
        goto out;
    }
    header(gp.fp, p);
    rc = numeric ? write_numeric(dat.fp, gp.fp, p, n, xs, y, series, names, nseries, datname)
                 : write_bars(dat.fp, gp.fp, n, x, y, series, names, nseries, datname);
    if (rc)
        rf_err_set(err, rc, NULL, 0, 0, NULL, "out of memory");
    int rc2 = rf_outfile_close(&dat, !rc, rc ? NULL : err);
    rc = rc ? rc : rc2;
    rc2 = rf_outfile_close(&gp, !rc, rc ? NULL : err);
    rc = rc ? rc : rc2;
    if (rc)
        goto out;
    if (!rf_plot_available()) {
        snprintf(why, why_cap, "gnuplot is not installed: `gnuplot %s` in %s draws it", gpname,
                 dir);
    } else {
        int st = run_gnuplot(dir, gpname);
        if (st == 0)
            *drawn = 1;
        else
            snprintf(why, why_cap, "gnuplot failed (status %d) on %s/%s", st, dir, gpname);
    }
out:
    free(xs);
    free(series);
    free(names);
    return rc;
}
