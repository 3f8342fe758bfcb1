/* ncu.c - Nsight Compute CSV exports (raw and source pages) into launch
 * figures and per-instruction execution counts (the layout is in ncu.h).
 *
 * The CSV is split here rather than by libcsv so that every field keeps
 * its line and column for error messages.
 */
#include "ncu.h"

#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/file.h"
#include "kernel.h"

#define NCU_MAX_INSTS (1 << 20)

/* ---- CSV records with positions ---- */

typedef struct field {
    const char *s;               /* NUL-terminated contents, quotes removed */
    int line, col;
} field;

typedef struct csvr {
    const char *path;
    const char *p, *end;
    int line;
    const char *bol;             /* start of the current line */
    field *f;
    size_t *off;                 /* field starts in buf while reading */
    int nf, capf;
    char *buf;
    size_t nbuf, capbuf;
    int rec_line;                /* line the record starts on */
} csvr;

static int nomem(csvr *r, rf_err *err)
{
    return rf_err_set(err, RF_ENOMEM, r->path, r->line, 0, NULL, "out of memory");
}

static int put_char(csvr *r, char c, rf_err *err)
{
    if (r->nbuf + 1 >= r->capbuf) {
        size_t cap = r->capbuf ? r->capbuf * 2 : 256;
        char *nb = realloc(r->buf, cap);
        if (!nb)
            return nomem(r, err);
        r->buf = nb;
        r->capbuf = cap;
    }
    r->buf[r->nbuf++] = c;
    return 0;
}

static int new_field(csvr *r, int line, int col, rf_err *err)
{
    if (r->nf >= RF_NCU_MAX_FIELDS)
        return rf_err_set(err, RF_ELIMIT, r->path, line, col, NULL,
                          "more than %d fields in a row", RF_NCU_MAX_FIELDS);
    if (r->nf >= r->capf) {
        int cap = r->capf ? r->capf * 2 : 64;
        field *nf = realloc(r->f, (size_t)cap * sizeof *nf);
        if (!nf)
            return nomem(r, err);
        r->f = nf;
        size_t *no = realloc(r->off, (size_t)cap * sizeof *no);
        if (!no)
            return nomem(r, err);
        r->off = no;
        r->capf = cap;
    }
    r->f[r->nf].line = line;
    r->f[r->nf].col = col;
    r->off[r->nf] = r->nbuf;
    r->nf++;
    return 0;
}

/* Next record into r->f[0..nf).  1 read, 0 end of text, negative on error.
 * Blank lines are skipped. */
static int next_record(csvr *r, rf_err *err)
{
    for (;;) {
        if (r->p >= r->end)
            return 0;
        if (*r->p == '\n' || (*r->p == '\r' && r->p + 1 < r->end && r->p[1] == '\n')) {
            r->p += *r->p == '\r' ? 2 : 1;
            r->line++;
            r->bol = r->p;
            continue;
        }
        break;
    }
    r->nf = 0;
    r->nbuf = 0;
    r->rec_line = r->line;
    int rc;
    for (;;) {
        int col = (int)(r->p - r->bol) + 1;
        if ((rc = new_field(r, r->line, col, err)))
            return rc;
        if (r->p < r->end && *r->p == '"') {
            r->p++;
            for (;;) {
                if (r->p >= r->end)
                    return rf_err_set(err, RF_EPARSE, r->path, r->f[r->nf - 1].line,
                                      r->f[r->nf - 1].col, NULL, "unterminated quoted field");
                char c = *r->p++;
                if (c == '"') {
                    if (r->p < r->end && *r->p == '"') {
                        r->p++;
                    } else {
                        break;
                    }
                } else if (c == '\n') {
                    r->line++;
                    r->bol = r->p;
                } else if (c == '\0') {
                    return rf_err_set(err, RF_EPARSE, r->path, r->line,
                                      (int)(r->p - r->bol), NULL, "NUL byte in the text");
                }
                if ((rc = put_char(r, c, err)))
                    return rc;
            }
            if (r->p < r->end && *r->p != ',' && *r->p != '\n' &&
                !(*r->p == '\r' && r->p + 1 < r->end && r->p[1] == '\n'))
                return rf_err_set(err, RF_EPARSE, r->path, r->line, (int)(r->p - r->bol) + 1,
                                  NULL, "text after a closing quote");
        } else {
            while (r->p < r->end && *r->p != ',' && *r->p != '\n' &&
                   !(*r->p == '\r' && r->p + 1 < r->end && r->p[1] == '\n')) {
                if (*r->p == '"' || *r->p == '\0')
                    return rf_err_set(err, RF_EPARSE, r->path, r->line,
                                      (int)(r->p - r->bol) + 1, NULL,
                                      *r->p ? "quote inside an unquoted field"
                                            : "NUL byte in the text");
                if ((rc = put_char(r, *r->p++, err)))
                    return rc;
            }
        }
        if ((rc = put_char(r, '\0', err)))
            return rc;
        if (r->p < r->end && *r->p == ',') {
            r->p++;
            continue;
        }
        if (r->p < r->end) {   /* end of line */
            r->p += *r->p == '\r' ? 2 : 1;
            r->line++;
            r->bol = r->p;
        }
        break;
    }
    for (int i = 0; i < r->nf; i++)
        r->f[i].s = r->buf + r->off[i];
    return 1;
}

/* ---- cells ---- */

static int col_of(const csvr *r, const char *name)
{
    for (int i = 0; i < r->nf; i++)
        if (strcmp(r->f[i].s, name) == 0)
            return i;
    return -1;
}

/* A number as ncu prints it: thousands separators allowed; "", "n/a" and
 * "-" are absent (*have false). */
static int cell_num(const char *path, const field *fd, const char *what, bool *have, double *v,
                    rf_err *err)
{
    char buf[64];
    size_t n = 0;
    const char *s = fd->s;
    while (isspace((unsigned char)*s))
        s++;
    *have = false;
    if (!*s || strcmp(s, "n/a") == 0 || strcmp(s, "N/A") == 0 || strcmp(s, "-") == 0)
        return 0;
    for (; *s && !isspace((unsigned char)*s); s++) {
        if (*s == ',')
            continue;
        if (!(isdigit((unsigned char)*s) || *s == '.' || *s == '-' || *s == '+' || *s == 'e' ||
              *s == 'E') || n + 1 >= sizeof buf)
            return rf_err_set(err, RF_ENUMBER, path, fd->line, fd->col, what,
                              "'%.40s' is not a number", fd->s);
        buf[n++] = *s;
    }
    while (isspace((unsigned char)*s))
        s++;
    buf[n] = '\0';
    char *e;
    double x = n ? strtod(buf, &e) : 0;
    if (!n || *s || *e || !isfinite(x))
        return rf_err_set(err, RF_ENUMBER, path, fd->line, fd->col, what,
                          "'%.40s' is not a number", fd->s);
    *have = true;
    *v = x;
    return 0;
}

/* Bytes per unit of a memory-size metric. */
static double byte_unit(const char *u)
{
    static const struct { const char *s; double b; } t[] = {
        {"", 1}, {"byte", 1}, {"bytes", 1}, {"B", 1}, {"Kbyte", 1e3}, {"KB", 1e3},
        {"Mbyte", 1e6}, {"MB", 1e6}, {"KiB", 1024}, {"Kibyte", 1024}, {"MiB", 1048576},
        {"Mibyte", 1048576}};
    char base[32];
    snprintf(base, sizeof base, "%.*s", (int)strcspn(u, "/"), u);   /* "byte/block" */
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (strcmp(t[i].s, base) == 0)
            return t[i].b;
    return -1;
}

/* ---- raw page ---- */

typedef struct rawcols {
    int id, name, grid, block, cc;
    int gdim[3], bdim[3], gsize, bsize, regs, smem_dyn, smem_st, l1, l2, occ;
} rawcols;

static int launch_dims(csvr *r, const rawcols *c, bool grid, int out[3], rf_err *err)
{
    const int *dim = grid ? c->gdim : c->bdim;
    const char *what = grid ? "grid" : "block";
    int line = r->rec_line, col = 1;
    char text[96];
    if (dim[0] >= 0) {
        long v[3] = {1, 1, 1};
        for (int k = 0; k < 3; k++) {
            if (dim[k] < 0)
                continue;
            const field *fd = &r->f[dim[k]];
            bool have;
            double x;
            int rc = cell_num(r->path, fd, what, &have, &x, err);
            if (rc)
                return rc;
            if (have && (x < 1 || x > 2147483647.0 || x != floor(x)))
                return rf_err_set(err, RF_ERANGE, r->path, fd->line, fd->col, what,
                                  "%g is not a launch dimension", x);
            if (have)
                v[k] = (long)x;
            line = fd->line;
            col = fd->col;
        }
        snprintf(text, sizeof text, "%ld,%ld,%ld", v[0], v[1], v[2]);
    } else if ((grid ? c->grid : c->block) >= 0) {
        /* "(32, 32, 1)" */
        const field *fd = &r->f[grid ? c->grid : c->block];
        line = fd->line;
        col = fd->col;
        size_t n = 0;
        for (const char *s = fd->s; *s && n + 1 < sizeof text; s++) {
            if (*s == '(' || *s == ')' || *s == ' ')
                continue;
            if (*s == ',' && s[1] != ' ' && s[1] != '\0')
                continue;   /* a thousands separator */
            text[n++] = *s;
        }
        text[n] = '\0';
    } else if ((grid ? c->gsize : c->bsize) >= 0) {
        const field *fd = &r->f[grid ? c->gsize : c->bsize];
        bool have;
        double x;
        int rc = cell_num(r->path, fd, what, &have, &x, err);
        if (rc)
            return rc;
        line = fd->line;
        col = fd->col;
        if (!have || x < 1 || x > 2147483647.0 || x != floor(x))
            return rf_err_set(err, RF_ERANGE, r->path, line, col, what,
                              "'%s' is not a launch size", fd->s);
        snprintf(text, sizeof text, "%ld", (long)x);
    } else {
        return rf_err_set(err, RF_EPARSE, r->path, r->rec_line, 1, what,
                          "no %s size in the export (launch__%s_dim_x or \"%s Size\")", what,
                          what, grid ? "Grid" : "Block");
    }
    return rf_launch_parse_dim3(text, grid, out, r->path, line, col, what, err);
}

/* Metric in column c as a fraction from "%" (lo..hi), or -1 when absent. */
static int pct_cell(csvr *r, int c, const char *unit, const char *what, double *out,
                    rf_err *err)
{
    *out = -1;
    if (c < 0 || c >= r->nf)
        return 0;
    if (unit[0] && strcmp(unit, "%") != 0)
        return rf_err_set(err, RF_EPARSE, r->path, r->f[c].line, r->f[c].col, what,
                          "unit '%s' is not %%", unit);
    bool have;
    double x;
    int rc = cell_num(r->path, &r->f[c], what, &have, &x, err);
    if (rc || !have)
        return rc;
    if (x < 0 || x > 100)
        return rf_err_set(err, RF_ERANGE, r->path, r->f[c].line, r->f[c].col, what,
                          "%g%% is outside 0..100", x);
    *out = x / 100.0;
    return 0;
}

static int bytes_cell(csvr *r, int c, const char *unit, const char *what, long *out,
                      rf_err *err)
{
    *out = -1;
    if (c < 0 || c >= r->nf)
        return 0;
    double scale = byte_unit(unit);
    if (scale < 0)
        return rf_err_set(err, RF_EPARSE, r->path, r->f[c].line, r->f[c].col, what,
                          "unit '%s' is not a size in bytes", unit);
    bool have;
    double x;
    int rc = cell_num(r->path, &r->f[c], what, &have, &x, err);
    if (rc || !have)
        return rc;
    x *= scale;
    if (x < 0 || x > (double)(1L << 30))
        return rf_err_set(err, RF_ERANGE, r->path, r->f[c].line, r->f[c].col, what,
                          "%g bytes is outside 0..2^30", x);
    *out = (long)floor(x + 0.5);
    return 0;
}

/* Registers per thread in column c (0 when absent). */
static int regs_cell(csvr *r, int c, const char *what, int *out, rf_err *err)
{
    *out = 0;
    if (c < 0 || c >= r->nf)
        return 0;
    bool have;
    double x;
    const field *fd = &r->f[c];
    int rc = cell_num(r->path, fd, what, &have, &x, err);
    if (rc)
        return rc;
    if (have && (x < 1 || x > 255 || x != floor(x)))
        return rf_err_set(err, RF_ERANGE, r->path, fd->line, fd->col, what,
                          "%g is not a register count in 1..255", x);
    *out = have ? (int)x : 0;
    return 0;
}

/* "8.6" in the CC column: 86, or 0. */
static int cc_cell(const csvr *r, int c)
{
    int maj, mnr;
    char tail;
    if (c >= 0 && c < r->nf && sscanf(r->f[c].s, "%d.%d%c", &maj, &mnr, &tail) == 2 &&
        maj >= 1 && maj < 100 && mnr >= 0 && mnr < 10)
        return maj * 10 + mnr;
    return 0;
}

static const char *unit_of(char *const *units, int c)
{
    return units && c >= 0 ? units[c] : "";
}

static void free_units(char **u, int n)
{
    if (!u)
        return;
    for (int i = 0; i < n; i++)
        free(u[i]);
    free(u);
}

static int parse_raw(csvr *r, rf_ncu *n, rf_err *err)
{
    rawcols c;
    int ncols = r->nf;
    c.id = col_of(r, "ID");
    c.name = col_of(r, "Kernel Name");
    c.grid = col_of(r, "Grid Size");
    c.block = col_of(r, "Block Size");
    c.cc = col_of(r, "CC");
    static const char *const gd[3] = {"launch__grid_dim_x", "launch__grid_dim_y",
                                      "launch__grid_dim_z"};
    static const char *const bd[3] = {"launch__block_dim_x", "launch__block_dim_y",
                                      "launch__block_dim_z"};
    for (int k = 0; k < 3; k++) {
        c.gdim[k] = col_of(r, gd[k]);
        c.bdim[k] = col_of(r, bd[k]);
    }
    c.gsize = col_of(r, "launch__grid_size");
    c.bsize = col_of(r, "launch__block_size");
    c.regs = col_of(r, "launch__registers_per_thread");
    c.smem_dyn = col_of(r, "launch__shared_mem_per_block_dynamic");
    c.smem_st = col_of(r, "launch__shared_mem_per_block_static");
    c.l1 = col_of(r, "l1tex__t_sector_hit_rate.pct");
    c.l2 = col_of(r, "lts__t_sector_hit_rate.pct");
    c.occ = col_of(r, "sm__warps_active.avg.pct_of_peak_sustained_active");
    if (c.name < 0)
        return rf_err_set(err, RF_EPARSE, r->path, r->rec_line, 1, NULL,
                          "no \"Kernel Name\" column in the header");
    char **units = NULL;
    int cap = 0, rc = 0;
    for (;;) {
        rc = next_record(r, err);
        if (rc <= 0)
            break;
        rc = 0;
        if (r->nf != ncols) {
            rc = rf_err_set(err, RF_EPARSE, r->path, r->rec_line, 1, NULL,
                            "%d fields where the header has %d", r->nf, ncols);
            break;
        }
        if (!units && n->nlaunches == 0 && c.id >= 0 && r->f[c.id].s[0] == '\0') {
            /* The units row. */
            units = calloc((size_t)ncols, sizeof *units);
            if (!units) {
                rc = nomem(r, err);
                break;
            }
            for (int i = 0; i < ncols && !rc; i++)
                if (!(units[i] = strdup(r->f[i].s)))
                    rc = nomem(r, err);
            if (rc)
                break;
            continue;
        }
        if (n->nlaunches >= cap) {
            int nc = cap ? cap * 2 : 8;
            rf_ncu_launch *nl = realloc(n->launches, (size_t)nc * sizeof *nl);
            if (!nl) {
                rc = nomem(r, err);
                break;
            }
            n->launches = nl;
            cap = nc;
        }
        rf_ncu_launch *l = &n->launches[n->nlaunches];
        memset(l, 0, sizeof *l);
        l->line = r->rec_line;
        if (!(l->kernel = strdup(r->f[c.name].s))) {
            rc = nomem(r, err);
            break;
        }
        n->nlaunches++;   /* owned from here, filled below */
        snprintf(l->id, sizeof l->id, "%s", c.id >= 0 ? r->f[c.id].s : "");
        if ((rc = launch_dims(r, &c, true, l->grid, err)) ||
            (rc = launch_dims(r, &c, false, l->block, err)) ||
            (rc = regs_cell(r, c.regs, "launch__registers_per_thread", &l->regs, err)) ||
            (rc = bytes_cell(r, c.smem_dyn, unit_of(units, c.smem_dyn),
                             "launch__shared_mem_per_block_dynamic", &l->smem_dynamic, err)) ||
            (rc = bytes_cell(r, c.smem_st, unit_of(units, c.smem_st),
                             "launch__shared_mem_per_block_static", &l->smem_static, err)) ||
            (rc = pct_cell(r, c.l1, unit_of(units, c.l1), "l1tex__t_sector_hit_rate.pct",
                           &l->l1_hit, err)) ||
            (rc = pct_cell(r, c.l2, unit_of(units, c.l2), "lts__t_sector_hit_rate.pct",
                           &l->l2_hit, err)) ||
            (rc = pct_cell(r, c.occ, unit_of(units, c.occ),
                           "sm__warps_active.avg.pct_of_peak_sustained_active", &l->occupancy,
                           err)))
            break;
        l->cc = cc_cell(r, c.cc);
    }
    free_units(units, ncols);
    if (rc < 0)
        return rc;
    if (n->nlaunches == 0)
        return rf_err_set(err, RF_EPARSE, r->path, r->line, 0, NULL,
                          "raw page without a kernel launch row");
    return 0;
}

/* ---- details page (ncu --csv's default: one row per metric) ---- */

/* A details-page metric, by its name (--print-metric-name name) or its
 * label in the sections (the default). */
enum { M_REGS, M_SMEM_DYN, M_SMEM_ST, M_L1, M_L2, M_OCC, M_NONE };

static int details_metric(const char *name)
{
    static const struct { const char *raw, *label; int m; } t[] = {
        {"launch__registers_per_thread", "Registers Per Thread", M_REGS},
        {"launch__shared_mem_per_block_dynamic", "Dynamic Shared Memory Per Block", M_SMEM_DYN},
        {"launch__shared_mem_per_block_static", "Static Shared Memory Per Block", M_SMEM_ST},
        {"l1tex__t_sector_hit_rate.pct", "L1/TEX Hit Rate", M_L1},
        {"lts__t_sector_hit_rate.pct", "L2 Hit Rate", M_L2},
        {"sm__warps_active.avg.pct_of_peak_sustained_active", "Achieved Occupancy", M_OCC}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (strcmp(name, t[i].raw) == 0 || strcmp(name, t[i].label) == 0)
            return t[i].m;
    return M_NONE;
}

static int parse_details(csvr *r, rf_ncu *n, rf_err *err)
{
    rawcols c;
    memset(&c, 0xff, sizeof c);   /* every column -1: only the fixed ones are looked up */
    int ncols = r->nf;
    c.id = col_of(r, "ID");
    c.name = col_of(r, "Kernel Name");
    c.grid = col_of(r, "Grid Size");
    c.block = col_of(r, "Block Size");
    c.cc = col_of(r, "CC");
    int cm = col_of(r, "Metric Name"), cu = col_of(r, "Metric Unit");
    int cv = col_of(r, "Metric Value");
    if (cv < 0 || cm < 0 || c.name < 0)
        return rf_err_set(err, RF_EPARSE, r->path, r->rec_line, 1, NULL,
                          "details page without a \"%s\" column",
                          cv < 0 ? "Metric Value" : cm < 0 ? "Metric Name" : "Kernel Name");
    /* Newer exports add rule columns after the metric ones (Rule Name ...
       Estimated Speedup) and end a metric row at its value: a row may stop
       after the last column read here, never before. */
    int need = c.id;
    const int used[] = {c.name, c.grid, c.block, c.cc, cm, cu, cv};
    for (size_t i = 0; i < sizeof used / sizeof used[0]; i++)
        if (used[i] > need)
            need = used[i];
    need++;
    int cap = 0, rc;
    while ((rc = next_record(r, err)) > 0) {
        if (r->nf > ncols || r->nf < need)
            return rf_err_set(err, RF_EPARSE, r->path, r->rec_line, 1, NULL,
                              "%d fields where the header has %d (at least %d needed)",
                              r->nf, ncols, need);
        const char *id = c.id >= 0 ? r->f[c.id].s : "";
        rf_ncu_launch *l = n->nlaunches ? &n->launches[n->nlaunches - 1] : NULL;
        if (!l || strcmp(l->id, id) != 0 || strcmp(l->kernel, r->f[c.name].s) != 0) {
            if (n->nlaunches >= cap) {
                int nc = cap ? cap * 2 : 8;
                rf_ncu_launch *nl = realloc(n->launches, (size_t)nc * sizeof *nl);
                if (!nl)
                    return nomem(r, err);
                n->launches = nl;
                cap = nc;
            }
            l = &n->launches[n->nlaunches];
            memset(l, 0, sizeof *l);
            l->line = r->rec_line;
            if (!(l->kernel = strdup(r->f[c.name].s)))
                return nomem(r, err);
            n->nlaunches++;
            snprintf(l->id, sizeof l->id, "%s", id);
            l->smem_dynamic = l->smem_static = -1;
            l->l1_hit = l->l2_hit = l->occupancy = -1;
            if ((rc = launch_dims(r, &c, true, l->grid, err)) ||
                (rc = launch_dims(r, &c, false, l->block, err)))
                return rc;
            l->cc = cc_cell(r, c.cc);
        }
        const char *name = r->f[cm].s, *unit = cu >= 0 ? r->f[cu].s : "";
        switch (details_metric(name)) {
        case M_REGS: rc = regs_cell(r, cv, name, &l->regs, err); break;
        case M_SMEM_DYN: rc = bytes_cell(r, cv, unit, name, &l->smem_dynamic, err); break;
        case M_SMEM_ST: rc = bytes_cell(r, cv, unit, name, &l->smem_static, err); break;
        case M_L1: rc = pct_cell(r, cv, unit, name, &l->l1_hit, err); break;
        case M_L2: rc = pct_cell(r, cv, unit, name, &l->l2_hit, err); break;
        case M_OCC: rc = pct_cell(r, cv, unit, name, &l->occupancy, err); break;
        default: rc = 0; break;
        }
        if (rc)
            return rc;
    }
    if (rc < 0)
        return rc;
    if (n->nlaunches == 0)
        return rf_err_set(err, RF_EPARSE, r->path, r->line, 0, NULL,
                          "details page without a metric row");
    return 0;
}

/* ---- source page ---- */

static int parse_hex_addr(const char *s, unsigned long long *out)
{
    while (isspace((unsigned char)*s))
        s++;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        s += 2;
    if (!isxdigit((unsigned char)*s))
        return -1;
    unsigned long long v = 0;
    int digits = 0;
    for (; isxdigit((unsigned char)*s); s++) {
        if (++digits > 16)
            return -1;
        v = v * 16 + (unsigned)(isdigit((unsigned char)*s) ? *s - '0'
                                : tolower((unsigned char)*s) - 'a' + 10);
    }
    while (isspace((unsigned char)*s))
        s++;
    if (*s)
        return -1;
    *out = v;
    return 0;
}

static int add_source(csvr *r, rf_ncu *n, const char *kernel, rf_err *err)
{
    rf_ncu_source *ns = realloc(n->sources, (size_t)(n->nsources + 1) * sizeof *ns);
    if (!ns)
        return nomem(r, err);
    n->sources = ns;
    rf_ncu_source *s = &ns[n->nsources++];
    memset(s, 0, sizeof *s);
    snprintf(s->kernel, sizeof s->kernel, "%s", kernel);
    s->line = r->rec_line;
    return 0;
}

static int parse_source(csvr *r, rf_ncu *n, rf_err *err)
{
    char kernel[512] = "";
    int ca = -1, cs = -1, ce = -1, ncols = 0, cap = 0, rc;
    bool have_header = false;
    /* r holds the first record already. */
    for (rc = 1; rc > 0; rc = next_record(r, err)) {
        if (strcmp(r->f[0].s, "Kernel Name") == 0) {
            snprintf(kernel, sizeof kernel, "%s", r->nf > 1 ? r->f[1].s : "");
            have_header = false;
            continue;
        }
        int a = col_of(r, "Address"), s = col_of(r, "Source");
        if (a >= 0 && s >= 0) {
            ca = a;
            cs = s;
            ce = col_of(r, "Instructions Executed");
            if (ce < 0)
                ce = col_of(r, "inst_executed");
            if (ce < 0)
                return rf_err_set(err, RF_EPARSE, r->path, r->rec_line, 1, NULL,
                                  "source page without an \"Instructions Executed\" column "
                                  "(export with --page source --print-source sass and the "
                                  "SourceCounters section)");
            ncols = r->nf;
            have_header = true;
            cap = 0;
            if ((rc = add_source(r, n, kernel, err)))
                return rc;
            continue;
        }
        if (!have_header)
            return rf_err_set(err, RF_EPARSE, r->path, r->rec_line, 1, NULL,
                              "expected a header row with \"Address\" and \"Source\"");
        if (r->nf != ncols)
            return rf_err_set(err, RF_EPARSE, r->path, r->rec_line, 1, NULL,
                              "%d fields where the header has %d", r->nf, ncols);
        const field *fa = &r->f[ca];
        const char *p = fa->s;
        while (isspace((unsigned char)*p))
            p++;
        if (!*p)
            continue;   /* a CUDA source line of a mixed export */
        rf_ncu_source *src = &n->sources[n->nsources - 1];
        if (src->ninsts >= NCU_MAX_INSTS)
            return rf_err_set(err, RF_ELIMIT, r->path, r->rec_line, 1, NULL,
                              "more than %d instructions in a kernel", NCU_MAX_INSTS);
        rf_ncu_inst in;
        memset(&in, 0, sizeof in);
        in.line = r->rec_line;
        if (parse_hex_addr(fa->s, &in.addr))
            return rf_err_set(err, RF_ENUMBER, r->path, fa->line, fa->col, "Address",
                              "'%.40s' is not an address", fa->s);
        if (src->ninsts > 0 && in.addr <= src->insts[src->ninsts - 1].addr)
            return rf_err_set(err, RF_EPARSE, r->path, fa->line, fa->col, "Address",
                              "addresses must increase (0x%llx after 0x%llx)", in.addr,
                              src->insts[src->ninsts - 1].addr);
        bool have;
        double x;
        const field *fe = &r->f[ce];
        if ((rc = cell_num(r->path, fe, "Instructions Executed", &have, &x, err)))
            return rc;
        if (have && x < 0)
            return rf_err_set(err, RF_ERANGE, r->path, fe->line, fe->col,
                              "Instructions Executed", "%g is negative", x);
        in.executed = have ? x : 0;
        const char *t = r->f[cs].s;
        while (isspace((unsigned char)*t))
            t++;
        size_t tl = strlen(t);
        while (tl && isspace((unsigned char)t[tl - 1]))
            tl--;
        if (tl == 0 || tl > 4096 || memchr(t, '\n', tl))
            return rf_err_set(err, RF_EPARSE, r->path, r->f[cs].line, r->f[cs].col, "Source",
                              "not one SASS instruction");
        if (!(in.text = malloc(tl + 1)))
            return nomem(r, err);
        memcpy(in.text, t, tl);
        in.text[tl] = '\0';
        if (src->ninsts >= cap) {
            int nc = cap ? cap * 2 : 64;
            rf_ncu_inst *ni = realloc(src->insts, (size_t)nc * sizeof *ni);
            if (!ni) {
                free(in.text);
                return nomem(r, err);
            }
            src->insts = ni;
            cap = nc;
        }
        src->insts[src->ninsts++] = in;
    }
    if (rc < 0)
        return rc;
    if (n->nsources == 0)
        return rf_err_set(err, RF_EPARSE, r->path, r->line, 0, NULL,
                          "source page without a header row");
    return 0;
}

/* ---- public ---- */

void rf_ncu_destroy(rf_ncu *n)
{
    if (!n)
        return;
    for (int i = 0; i < n->nsources; i++) {
        for (int k = 0; k < n->sources[i].ninsts; k++)
            free(n->sources[i].insts[k].text);
        free(n->sources[i].insts);
    }
    free(n->sources);
    for (int i = 0; i < n->nlaunches; i++)
        free(n->launches[i].kernel);
    free(n->launches);
    free(n);
}

int rf_ncu_parse(const char *path, const char *text, size_t len, rf_ncu **out, rf_err *err)
{
    *out = NULL;
    if (len > RF_NCU_MAX_BYTES)
        return rf_err_set(err, RF_ELIMIT, path, 0, 0, NULL, "larger than %zu MiB",
                          RF_NCU_MAX_BYTES >> 20);
    rf_ncu *n = calloc(1, sizeof *n);
    if (!n)
        return rf_err_set(err, RF_ENOMEM, path, 0, 0, NULL, "out of memory");
    snprintf(n->path, sizeof n->path, "%s", path);
    csvr r;
    memset(&r, 0, sizeof r);
    r.path = path;
    size_t bom = rf_file_bom(text, len);
    r.p = r.bol = text + bom;
    r.end = text + len;
    r.line = 1;
    /* ncu prints "==PROF==" progress lines before the CSV when its output
     * is captured whole: skip them. */
    while (r.p < r.end && r.end - r.p >= 8 && strncmp(r.p, "==PROF==", 8) == 0) {
        const char *nl = memchr(r.p, '\n', (size_t)(r.end - r.p));
        r.p = r.bol = nl ? nl + 1 : r.end;
        r.line++;
    }
    int rc = next_record(&r, err);
    if (rc == 0)
        rc = rf_err_set(err, RF_EPARSE, path, r.line, 0, NULL, "empty: no CSV header");
    if (rc > 0) {
        if (strcmp(r.f[0].s, "Kernel Name") == 0 ||
            (col_of(&r, "Address") >= 0 && col_of(&r, "Source") >= 0)) {
            n->page = RF_NCU_SOURCE;
            rc = parse_source(&r, n, err);
        } else if (col_of(&r, "Kernel Name") >= 0 && col_of(&r, "Metric Name") >= 0) {
            n->page = RF_NCU_DETAILS;
            rc = parse_details(&r, n, err);
        } else if (col_of(&r, "ID") >= 0 && col_of(&r, "Kernel Name") >= 0) {
            n->page = RF_NCU_RAW;
            rc = parse_raw(&r, n, err);
        } else {
            rc = rf_err_set(err, RF_EPARSE, path, r.rec_line, 1, NULL,
                            "not an ncu raw page (\"ID\",\"Kernel Name\",... with metric "
                            "columns), details page (\"Metric Name\",\"Metric Value\") or "
                            "source page (\"Address\",\"Source\",...) export");
        }
    }
    free(r.f);
    free(r.off);
    free(r.buf);
    if (rc < 0) {
        rf_ncu_destroy(n);
        return rc;
    }
    *out = n;
    return 0;
}

int rf_ncu_load(const char *path, rf_ncu **out, rf_err *err)
{
    *out = NULL;
    FILE *fp;
    int rc = rf_file_open(path, &fp, err);
    if (rc)
        return rc;
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (len == cap) {
            if (cap > RF_NCU_MAX_BYTES)
                break;
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + len, 1, cap - len, fp);
        len += got;
        if (got == 0)
            break;
    }
    int bad = ferror(fp);
    fclose(fp);
    if (!buf)
        return rf_err_set(err, RF_ENOMEM, path, 0, 0, NULL, "out of memory");
    if (bad) {
        free(buf);
        return rf_err_set(err, RF_EIO, path, 0, 0, NULL, "read error");
    }
    rc = rf_ncu_parse(path, buf, len, out, err);
    free(buf);
    return rc;
}

int rf_ncu_name_matches(const char *exported, const char *name)
{
    if (!name || !*name || strcmp(exported, name) == 0)
        return 1;
    char base[512];
    snprintf(base, sizeof base, "%s", exported);
    base[strcspn(base, "(")] = '\0';
    base[strcspn(base, "<")] = '\0';
    size_t n = strlen(base);
    while (n && base[n - 1] == ' ')
        base[--n] = '\0';
    const char *b = strrchr(base, ' ');
    b = b ? b + 1 : base;
    const char *ns = strstr(b, "::");
    while (ns && strstr(ns + 2, "::"))
        ns = strstr(ns + 2, "::");
    if (ns)
        b = ns + 2;
    return strcmp(b, name) == 0;
}

/* Shared by the two finders: names[i] of count items, lines[i]. */
static int find_one(const char *path, const char *what, const char *whats, const char *kernel,
                    int which,
                    const char *const *names, const char *const *ids, int count, int *out,
                    rf_err *err)
{
    int match[64], nm = 0, total = 0;
    for (int i = 0; i < count; i++)
        if (rf_ncu_name_matches(names[i], kernel)) {
            if (nm < 64)
                match[nm++] = i;
            total++;
        }
    if (total == 0) {
        char list[256] = "";
        size_t len = 0;
        for (int i = 0; i < count && len + 2 < sizeof list; i++)
            len += (size_t)snprintf(list + len, sizeof list - len, "%s'%.60s'", i ? ", " : "",
                                    names[i]);
        return rf_err_set(err, RF_EUNKNOWN, path, 0, 0, "kernel",
                          "no %s of kernel '%s' (the export has %s)", what, kernel, list);
    }
    if (which < 0 && total > 1) {
        char list[160] = "";
        size_t len = 0;
        for (int i = 0; i < nm && len + 2 < sizeof list; i++)
            len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "",
                                    ids && ids[match[i]][0] ? ids[match[i]] : "?");
        return rf_err_set(err, RF_EUSAGE, path, 0, 0, "kernel",
                          "kernel '%s' has %d %s (IDs %s): choose one with --launch N "
                          "(0 = the first)", kernel, total, whats, list);
    }
    if (which < 0)
        which = 0;
    if (which >= nm)
        return rf_err_set(err, RF_ERANGE, path, 0, 0, "launch",
                          "--launch %d but kernel '%s' has %d %s", which, kernel, total,
                          total == 1 ? what : whats);
    *out = match[which];
    return 0;
}

int rf_ncu_find_launch(const rf_ncu *n, const char *kernel, int which,
                       const rf_ncu_launch **out, rf_err *err)
{
    *out = NULL;
    const char **names = malloc((size_t)(n->nlaunches + 1) * sizeof *names);
    const char **ids = malloc((size_t)(n->nlaunches + 1) * sizeof *ids);
    if (!names || !ids) {
        free(names);
        free(ids);
        return rf_err_set(err, RF_ENOMEM, n->path, 0, 0, NULL, "out of memory");
    }
    for (int i = 0; i < n->nlaunches; i++) {
        names[i] = n->launches[i].kernel;
        ids[i] = n->launches[i].id;
    }
    int k;
    int rc = find_one(n->path, "launch", "launches", kernel, which, names, ids,
                      n->nlaunches, &k, err);
    if (!rc)
        *out = &n->launches[k];
    free(names);
    free(ids);
    return rc;
}

static bool same_listing(const rf_ncu_source *a, const rf_ncu_source *b)
{
    if (strcmp(a->kernel, b->kernel) != 0 || a->ninsts != b->ninsts)
        return false;
    for (int i = 0; i < a->ninsts; i++)
        if (a->insts[i].addr != b->insts[i].addr ||
            a->insts[i].executed != b->insts[i].executed ||
            strcmp(a->insts[i].text, b->insts[i].text) != 0)
            return false;
    return true;
}

/* Nsight Compute (CUDA 13.0, H200) prints one launch's listing twice in a
   `--page source --print-source sass -k K` export.  A listing that repeats
   the one before it of the same kernel (the same instructions with the
   same counts) is that launch again: the launches are counted, and
   --launch N picks among them, without the repeats. */
int rf_ncu_find_source(const rf_ncu *n, const char *kernel, int which,
                       const rf_ncu_source **out, rf_err *err)
{
    *out = NULL;
    const char **names = malloc((size_t)(n->nsources + 1) * sizeof *names);
    int *at = malloc((size_t)(n->nsources + 1) * sizeof *at);
    if (!names || !at) {
        free(names);
        free(at);
        return rf_err_set(err, RF_ENOMEM, n->path, 0, 0, NULL, "out of memory");
    }
    int cnt = 0, prev = -1;
    for (int i = 0; i < n->nsources; i++) {
        bool mine = rf_ncu_name_matches(n->sources[i].kernel, kernel);
        if (mine && prev >= 0 && same_listing(&n->sources[prev], &n->sources[i]))
            continue;
        if (mine)
            prev = i;
        names[cnt] = n->sources[i].kernel;
        at[cnt++] = i;
    }
    int k;
    int rc = find_one(n->path, "source listing", "source listings", kernel, which, names,
                      NULL, cnt, &k, err);
    if (!rc)
        *out = &n->sources[at[k]];
    free(names);
    free(at);
    return rc;
}

/* ---- SASS listing and branch probabilities from the source page ---- */

/* Copy s to out with control characters as spaces. */
static void put_clean(FILE *out, const char *s)
{
    for (; *s; s++)
        fputc(iscntrl((unsigned char)*s) ? ' ' : *s, out);
}

int rf_ncu_write_sass(const rf_ncu_source *src, const char *func, int cc, const char *origin,
                      FILE *out, int *first_line)
{
    int line = 1;
    fputs("// SASS of ", out);
    put_clean(out, src->kernel[0] ? src->kernel : func);
    fputs(" from the Nsight Compute source page ", out);
    put_clean(out, origin);
    fputs("\n", out);
    if (cc > 0) {
        fprintf(out, "\tcode for sm_%d\n", cc);
        line++;
    }
    fputs("\t\tFunction : ", out);
    put_clean(out, func);
    fputs("\n", out);
    line++;
    *first_line = line + 1;
    unsigned long long base = src->ninsts ? src->insts[0].addr : 0;
    unsigned long long end = src->ninsts ? src->insts[src->ninsts - 1].addr + 16 : 0;
    for (int i = 0; i < src->ninsts; i++) {
        const rf_ncu_inst *in = &src->insts[i];
        fprintf(out, "        /*%04llx*/                   ", in->addr - base);
        /* Absolute addresses inside the kernel (branch targets) become
         * offsets, as cuobjdump prints them. */
        for (const char *s = in->text; *s;) {
            bool start = s == in->text || !(isalnum((unsigned char)s[-1]) || s[-1] == '_');
            if (base > 0 && start && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') &&
                isxdigit((unsigned char)s[2])) {
                const char *e = s + 2;
                unsigned long long v = 0;
                int digits = 0;
                for (; isxdigit((unsigned char)*e); e++, digits++)
                    v = v * 16 + (unsigned)(isdigit((unsigned char)*e)
                                                ? *e - '0'
                                                : tolower((unsigned char)*e) - 'a' + 10);
                if (digits <= 16 && v >= base && v <= end && !isalnum((unsigned char)*e)) {
                    fprintf(out, "0x%llx", v - base);
                    s = e;
                    continue;
                }
            }
            fputc(iscntrl((unsigned char)*s) || *s == ';' ? ' ' : *s, out);
            s++;
        }
        fputs(" ;\n", out);
    }
    return ferror(out) ? RF_EIO : 0;
}

/* "/(*)0040(*)/" at the start of a listing line: the offset, or -1. */
static long long line_offset(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    if (s[0] != '/' || s[1] != '*')
        return -1;
    s += 2;
    long long v = 0;
    int digits = 0;
    for (; isxdigit((unsigned char)*s); s++, digits++) {
        if (digits >= 12)
            return -1;
        v = v * 16 + (isdigit((unsigned char)*s) ? *s - '0' : tolower((unsigned char)*s) - 'a' + 10);
    }
    return digits && s[0] == '*' && s[1] == '/' ? v : -1;
}

static const rf_ncu_inst *inst_at(const rf_ncu_source *src, unsigned long long addr)
{
    int lo = 0, hi = src->ninsts - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (src->insts[mid].addr == addr)
            return &src->insts[mid];
        if (src->insts[mid].addr < addr)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return NULL;
}


int rf_ncu_branch_probs(const rf_func *f, const char *code_text, const rf_ncu_source *src,
                        rf_ncu_branch **out, int *n, rf_err *err)
{
    *out = NULL;
    *n = 0;
    int nb = f->nblocks;
    if (nb == 0 || src->ninsts == 0)
        return rf_err_set(err, RF_EUNSUPPORTED, NULL, 0, 0, f->name,
                          "no instructions to match the source page's counts to");
    /* Line starts of the listing. */
    int nlines = 1;
    for (const char *s = code_text; *s; s++)
        nlines += *s == '\n';
    const char **lines = malloc((size_t)nlines * sizeof *lines);
    double *E = malloc((size_t)nb * sizeof *E), *t = malloc((size_t)nb * sizeof *t);
    int *pstart = calloc((size_t)nb + 1, sizeof *pstart);
    int *pedge = malloc((size_t)nb * 2 * sizeof *pedge);   /* 2u + s */
    rf_ncu_branch *res = malloc((size_t)nb * sizeof *res);
    int rc = 0;
    if (!lines || !E || !t || !pstart || !pedge || !res) {
        rc = rf_err_set(err, RF_ENOMEM, NULL, 0, 0, f->name, "out of memory");
        goto out;
    }
    int l = 0;
    lines[l++] = code_text;
    for (const char *s = code_text; *s; s++)
        if (*s == '\n')
            lines[l++] = s + 1;
    unsigned long long base = src->insts[0].addr;
    int matched = 0;
    for (int b = 0; b < nb; b++) {
        E[b] = NAN;
        t[b] = NAN;
        const rf_block *bb = &f->blocks[b];
        /* The block's last instruction: a warp split by divergence issues a
           reconvergence point (BSYNC) at the block's start once per part. */
        for (int i = bb->first + bb->ninsts - 1; i >= bb->first && isnan(E[b]); i--) {
            int ln = (int)f->insts[i].line;
            long long off = ln >= 1 && ln <= nlines ? line_offset(lines[ln - 1]) : -1;
            const rf_ncu_inst *in = off >= 0 ? inst_at(src, base + (unsigned long long)off) : NULL;
            if (in) {
                E[b] = in->executed;
                matched++;
            }
        }
    }
    if (matched == 0) {
        rc = rf_err_set(err, RF_EUNSUPPORTED, NULL, 0, 0, f->name,
                        "no instruction's offset matches the source page's addresses");
        goto out;
    }
    /* Incoming edges (each once: a block with both successors the same
     * sends one edge). */
    for (int u = 0; u < nb; u++)
        for (int s = 0; s < f->blocks[u].nsucc; s++) {
            int v = f->blocks[u].succ[s];
            if (v >= 0 && v < nb && !(s == 1 && f->blocks[u].succ[0] == v))
                pstart[v + 1]++;
        }
    for (int v = 0; v < nb; v++)
        pstart[v + 1] += pstart[v];
    {
        int *fill = malloc((size_t)nb * sizeof *fill);
        if (!fill) {
            rc = rf_err_set(err, RF_ENOMEM, NULL, 0, 0, f->name, "out of memory");
            goto out;
        }
        memcpy(fill, pstart, (size_t)nb * sizeof *fill);
        for (int u = 0; u < nb; u++)
            for (int s = 0; s < f->blocks[u].nsucc; s++) {
                int v = f->blocks[u].succ[s];
                if (v >= 0 && v < nb && !(s == 1 && f->blocks[u].succ[0] == v))
                    pedge[fill[v]++] = 2 * u + s;
            }
        free(fill);
    }
    for (bool progress = true; progress;) {
        progress = false;
        for (int v = 1; v < nb; v++) {
            if (isnan(E[v]))
                continue;
            double known = 0;
            int unk = -1, nunk = 0, sign = 0;
            bool bad = false;
            for (int k = pstart[v]; k < pstart[v + 1] && !bad; k++) {
                int u = pedge[k] / 2, s = pedge[k] % 2;
                if (isnan(E[u])) {
                    bad = true;
                } else if (!rf_trip_is_drawn(f, u)) {
                    known += E[u];
                } else if (!isnan(t[u])) {
                    known += s == 1 ? t[u] : E[u] - t[u];
                } else {
                    if (s == 0)
                        known += E[u];
                    unk = u;
                    sign = s == 1 ? 1 : -1;
                    nunk++;
                }
            }
            if (!bad && nunk == 1) {
                t[unk] = (E[v] - known) * sign;
                progress = true;
            }
        }
    }
    int cnt = 0;
    for (int b = 0; b < nb; b++) {
        if (!rf_trip_is_drawn(f, b) || isnan(t[b]) || isnan(E[b]) || E[b] <= 0)
            continue;
        rf_ncu_branch *r = &res[cnt++];
        const rf_inst *last = &f->insts[f->blocks[b].first + f->blocks[b].ninsts - 1];
        r->block = b;
        r->executed = E[b];
        r->taken = t[b];
        double p = t[b] / E[b];
        r->clipped = p < -1e-9 || p > 1 + 1e-9;
        r->p = p < 0 ? 0 : p > 1 ? 1 : p;
        r->exit = rf_trip_is_guarded_exit(f, b);
        r->loop = !r->exit && ((last->flags & RF_IF_LOOPBACK) || f->blocks[b].succ[1] <= b);
    }
    *out = res;
    *n = cnt;
    res = NULL;
out:
    free(lines);
    free(E);
    free(t);
    free(pstart);
    free(pedge);
    free(res);
    return rc;
}
