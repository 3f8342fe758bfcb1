/* record.c - calibration record files.
 *
 * Format: CSV with header "gpu,kernel,key,value", one row per item:
 *   param:NAME        value of every model parameter (rf_ipc_mparams)
 *   fit               name of a fitted parameter (one row each, in order)
 *   cov:NAME:NAME     covariance of two fitted parameters
 *   rms_rel, dof, samples, sample_cycles, full_cycles, level, meas_reads,
 *   meas_writes, meas_live (when measured; older records lack it)
 *   shrink            the weight on the calibrated correction, 0..1; records
 *                     written before it lack the row and read as 1 (no
 *                     shrinkage, the estimates they were made for)
 *   win_bias, win_se  the ordinary windows' mean relative residual about the
 *                     fit and its standard error (the interval's level terms,
 *                     calibrate/extrapolate.c); written by window
 *                     calibrations, absent in older and register-cache
 *                     records, which keep the earlier interval
 *   level_var         the level's own relative variance (register-cache
 *                     records, calibrate/pffit.c), >= 0; written when
 *                     non-zero, absent reads as 0
 *   hirf_ratio_w      the weight on the HI-RF windows' ratio disagreement,
 *                     0..1 (calibrate/extrapolate.c 3.); written when non-zero,
 *                     absent reads as 0: no correction, as before it
 *   hirf_ratio_d:concat, hirf_ratio_d:tea, hirf_ratio_d:full
 *                     the disagreement d of the concat, the TEA and the fully
 *                     associative window
 *                     (calibrate/calibrate.c hirf_ratio_check), |d| < 1;
 *                     written for the windows that ran
 *   level_shrink      the level's own weight, 0..1 (register-cache records:
 *                     shrink then weighs the correction beside the level);
 *                     absent: shrink weighs the level with the rest
 *   digest            the kernel's content digest, 16 hex digits (rf_kernel.digest)
 * The kernel column holds rf_calib_key's "NAME:ENTRY grid=.. block=.. smem=..
 * regs=.. sms=..[ seed=..]", so two entries or launches of one file, one
 * launch spread over two SM counts, or two runs (seeds), never share a
 * record.
 * Numbers are written with 17 significant digits (exact round trip).
 * Saving reads the existing file, keeps the rows of other GPU/kernel pairs,
 * writes everything to a temporary file in the same folder and renames it
 * over the old one, so readers see the old or the new file, never a part.
 * Only a regular file holds a record to keep: a device or FIFO given as the
 * file is written straight (rf_outfile_open) without being read first.
 * A record file is at most RF_TEXT_MAX bytes, a row RF_LINE_MAX (file.h).
 */
#include "record.h"

#include <csv.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../common/file.h"
#include "../common/param.h"
#include "../results/csvout.h"

void rf_calib_init(rf_calib *c, const char *gpu, const char *kernel)
{
    memset(c, 0, sizeof *c);
    snprintf(c->gpu, sizeof c->gpu, "%s", gpu ? gpu : "");
    snprintf(c->kernel, sizeof c->kernel, "%s", kernel ? kernel : "");
    rf_ipc_params_default(&c->params);
    c->level = 1.0;
    c->shrink = 1.0;
}

void rf_calib_key(const rf_kernel *k, char *buf, size_t n)
{
    const rf_launch *l = &k->launch;
    /* The file named: the spec, else the code file (base name, extension
     * kept, so k.spec and k.ptx are two kernels). */
    const char *path = k->spec_path[0] ? k->spec_path : k->mod ? k->mod->path : k->name;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    int w = snprintf(buf, n, "%s:%s grid=%d,%d,%d block=%d,%d,%d smem=%d regs=%d sms=%d", base,
                     k->source ? k->source->name : "", l->grid[0], l->grid[1], l->grid[2],
                     l->block[0], l->block[1], l->block[2], l->smem, k->regs, rf_kernel_sms(k));
    /* The run's draws, where they are not the default's (seed 1). */
    if (k->profile.seed != 1 && w >= 0 && (size_t)w < n)
        snprintf(buf + w, n - (size_t)w, " seed=%llu", (unsigned long long)k->profile.seed);
}

void rf_calib_init_kernel(rf_calib *c, const char *gpu, const rf_kernel *k)
{
    char key[RF_CALIB_NAME_MAX];
    rf_calib_key(k, key, sizeof key);
    rf_calib_init(c, gpu, key);
    c->digest = k->digest;
}

/* ---- reading ---------------------------------------------------------- */

typedef struct row {
    char *f[4];
} row;

typedef struct reader {
    row *rows;
    size_t n, cap;
    char *cur[4];
    int nf;
    long line;
    int rc;
    const char *path;
    rf_err *err;
    bool header_done;
} reader;

static void on_field(void *s, size_t len, void *data)
{
    reader *r = data;
    if (r->rc)
        return;
    if (r->nf >= 4) {
        r->rc = rf_err_set(r->err, RF_EPARSE, r->path, (int)r->line, r->nf + 1, NULL,
                           "more than 4 columns");
        return;
    }
    char *v = malloc(len + 1);
    if (!v) {
        r->rc = rf_err_set(r->err, RF_ENOMEM, r->path, 0, 0, NULL, "out of memory");
        return;
    }
    memcpy(v, s, len);
    v[len] = '\0';
    r->cur[r->nf++] = v;
}

static void clear_cur(reader *r)
{
    for (int i = 0; i < r->nf; i++)
        free(r->cur[i]);
    r->nf = 0;
}

static void on_row(int c, void *data)
{
    reader *r = data;
    (void)c;
    r->line++;
    if (r->rc) {
        clear_cur(r);
        return;
    }
    if (!r->header_done) {
        static const char *const want[4] = {"gpu", "kernel", "key", "value"};
        for (int i = 0; i < 4; i++)
            if (i >= r->nf || strcmp(r->cur[i], want[i]) != 0) {
                r->rc = rf_err_set(r->err, RF_EPARSE, r->path, (int)r->line, i + 1, NULL,
                                   "header must be gpu,kernel,key,value");
                break;
            }
        r->header_done = true;
        clear_cur(r);
        return;
    }
    if (r->nf != 4) {
        r->rc = rf_err_set(r->err, RF_EPARSE, r->path, (int)r->line, r->nf, NULL,
                           "expected 4 columns, found %d", r->nf);
        clear_cur(r);
        return;
    }
    if (r->n == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 64;
        row *nr = realloc(r->rows, cap * sizeof *nr);
        if (!nr) {
            r->rc = rf_err_set(r->err, RF_ENOMEM, r->path, 0, 0, NULL, "out of memory");
            clear_cur(r);
            return;
        }
        r->rows = nr;
        r->cap = cap;
    }
    for (int i = 0; i < 4; i++)
        r->rows[r->n].f[i] = r->cur[i];
    r->n++;
    r->nf = 0;
}

static void free_rows(reader *r)
{
    clear_cur(r);
    for (size_t i = 0; i < r->n; i++)
        for (int j = 0; j < 4; j++)
            free(r->rows[i].f[j]);
    free(r->rows);
    r->rows = NULL;
    r->n = r->cap = 0;
}

/* Read all rows.  With for_save, a missing file and anything but a regular
 * file (a device, a FIFO) is an empty record (RF_OK, 0 rows). */
static int read_rows(const char *path, reader *r, bool for_save, rf_err *err)
{
    memset(r, 0, sizeof *r);
    r->path = path;
    r->err = err;
    struct stat st;
    if (for_save) {
        if (stat(path, &st) != 0 ? errno == ENOENT
                                 : !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
            return RF_OK;
    }
    FILE *fp;
    int rc = rf_file_open(path, &fp, err);
    if (rc)
        return rc;
    struct csv_parser p;
    if (csv_init(&p, CSV_APPEND_NULL) != 0) {
        fclose(fp);
        return rf_err_set(err, RF_ENOMEM, path, 0, 0, NULL, "csv parser");
    }
    char buf[8192];
    size_t got, total = 0;
    bool first = true;      /* a byte-order mark may open the file */
    rf_csvfeed feed;
    rf_csv_feed_init(&feed, &p, on_field, on_row, r);
    while (!r->rc && (got = fread(buf, 1, sizeof buf, fp)) > 0) {
        size_t skip = first ? rf_file_bom(buf, got) : 0;
        first = false;
        if ((total += got) > RF_TEXT_MAX) {
            r->rc = rf_err_set(err, RF_ELIMIT, path, 0, 0, NULL,
                               "larger than %zu MiB: not a calibration record",
                               RF_TEXT_MAX >> 20);
            break;
        }
        int frc = rf_csv_feed(&feed, buf + skip, got - skip);
        if (frc == RF_EPARSE && !r->rc)
            r->rc = rf_err_set(err, RF_EPARSE, path, (int)r->line + 1, 0, NULL, "%s",
                               csv_strerror(csv_error(&p)));
        else if (frc == RF_ELIMIT && !r->rc)
            r->rc = rf_err_set(err, RF_ELIMIT, path, (int)r->line + 1, 0, NULL,
                               "a row longer than %zu bytes: not a calibration record",
                               RF_LINE_MAX);
    }
    if (!r->rc && ferror(fp))
        r->rc = rf_err_set(err, RF_EIO, path, 0, 0, NULL, "read error");
    if (!r->rc)
        csv_fini(&p, on_field, on_row, r);
    csv_free(&p);
    fclose(fp);
    if (r->rc)
        free_rows(r);
    return r->rc;
}

/* ---- loading ------------------------------------------------------------ */

static int num(const row *rw, const char *path, long line, double *out, rf_err *err)
{
    if (rf_parse_double(rw->f[3], out))
        return rf_err_set(err, RF_ENUMBER, path, (int)line, 4, rw->f[2], "not a number: '%s'",
                          rw->f[3]);
    return RF_OK;
}

/* Load (gpu, kernel); with want_digest, refuse a record whose digest row
 * is missing or differs. */
static int load(const char *path, const char *gpu, const char *kernel, bool want_digest,
                uint64_t digest, rf_calib *c, rf_err *err)
{
    reader r;
    int rc = read_rows(path, &r, false, err);
    if (rc)
        return rc;
    rf_calib_init(c, gpu, kernel);
    bool found = false;
    for (size_t i = 0; i < r.n && !rc; i++) {
        const row *rw = &r.rows[i];
        long line = (long)i + 2;
        if (strcmp(rw->f[0], gpu) != 0 || strcmp(rw->f[1], kernel) != 0)
            continue;
        found = true;
        const char *key = rw->f[2];
        double v = 0;
        if (!strncmp(key, "param:", 6)) {
            int j = rf_mparam_index(rf_ipc_mparams, rf_ipc_nmparams, key + 6);
            if (j < 0)
                /* Not RF_EUNKNOWN, which callers read as "no record". */
                rc = rf_err_set(err, RF_EPARSE, path, (int)line, 3, key,
                                "unknown model parameter (a record of another rfkit "
                                "version? calibrate again)");
            else if (!(rc = num(rw, path, line, &v, err))) {
                const rf_mparam *mp = &rf_ipc_mparams[j];
                if (v < mp->lo || v > mp->hi)
                    rc = rf_err_set(err, RF_ERANGE, path, (int)line, 4, key,
                                    "%g outside [%g, %g]", v, mp->lo, mp->hi);
                else
                    rf_mparam_put(mp, &c->params, v);
            }
        } else if (!strcmp(key, "fit")) {
            int j = rf_mparam_index(rf_ipc_mparams, rf_ipc_nmparams, rw->f[3]);
            if (j < 0)
                rc = rf_err_set(err, RF_EPARSE, path, (int)line, 4, key,
                                "unknown model parameter '%s' (a record of another rfkit "
                                "version? calibrate again)", rw->f[3]);
            else if (c->nfit >= RF_FIT_MAXP)
                rc = rf_err_set(err, RF_ELIMIT, path, (int)line, 3, key, "more than %d fitted parameters",
                                RF_FIT_MAXP);
            else
                c->fit_idx[c->nfit++] = j;
        } else if (!strncmp(key, "cov:", 4)) {
            char a[64], b[64];
            const char *colon = strchr(key + 4, ':');
            size_t la = colon ? (size_t)(colon - (key + 4)) : 0;
            if (!colon || la >= sizeof a || strlen(colon + 1) >= sizeof b) {
                rc = rf_err_set(err, RF_EPARSE, path, (int)line, 3, key, "expected cov:NAME:NAME");
            } else {
                memcpy(a, key + 4, la);
                a[la] = '\0';
                snprintf(b, sizeof b, "%s", colon + 1);
                int ia = -1, ib = -1;
                for (int j = 0; j < c->nfit; j++) {
                    if (!strcmp(rf_ipc_mparams[c->fit_idx[j]].name, a))
                        ia = j;
                    if (!strcmp(rf_ipc_mparams[c->fit_idx[j]].name, b))
                        ib = j;
                }
                if (ia < 0 || ib < 0)
                    rc = rf_err_set(err, RF_EPARSE, path, (int)line, 3, key,
                                    "covariance of a parameter not listed as fit (fit rows come first)");
                else if (!(rc = num(rw, path, line, &v, err)))
                    c->cov[ia][ib] = v;
            }
        } else if (!strcmp(key, "rms_rel")) {
            rc = num(rw, path, line, &c->rms_rel, err);
        } else if (!strcmp(key, "shrink")) {
            rc = num(rw, path, line, &c->shrink, err);
            if (!rc && !(c->shrink >= 0 && c->shrink <= 1))
                rc = rf_err_set(err, RF_ERANGE, path, (int)line, 4, key, "%g outside [0, 1]",
                                c->shrink);
        } else if (!strcmp(key, "dof")) {
            if (!(rc = num(rw, path, line, &v, err)))
                c->dof = (int)v;
        } else if (!strcmp(key, "samples")) {
            if (!(rc = num(rw, path, line, &v, err)))
                c->samples = (int)v;
        } else if (!strcmp(key, "sample_cycles")) {
            rc = num(rw, path, line, &c->sample_cycles, err);
        } else if (!strcmp(key, "full_cycles")) {
            rc = num(rw, path, line, &c->full_cycles, err);
        } else if (!strcmp(key, "level")) {
            rc = num(rw, path, line, &c->level, err);
            if (!rc && !(c->level > 0.2 && c->level < 5.0))
                rc = rf_err_set(err, RF_ERANGE, path, (int)line, 4, key, "%g outside (0.2, 5)", c->level);
        } else if (!strcmp(key, "level_shrink")) {
            rc = num(rw, path, line, &c->level_shrink, err);
            if (!rc && !(c->level_shrink >= 0 && c->level_shrink <= 1))
                rc = rf_err_set(err, RF_ERANGE, path, (int)line, 4, key, "%g outside [0, 1]",
                                c->level_shrink);
            c->level_apart = true;
        } else if (!strcmp(key, "level_var")) {
            rc = num(rw, path, line, &c->level_var, err);
            if (!rc && !(c->level_var >= 0 && c->level_var < 1))
                rc = rf_err_set(err, RF_ERANGE, path, (int)line, 4, key, "%g outside [0, 1)",
                                c->level_var);
        } else if (!strcmp(key, "win_bias")) {
            rc = num(rw, path, line, &c->win_bias, err);
            if (!rc && !(fabs(c->win_bias) < 1))
                rc = rf_err_set(err, RF_ERANGE, path, (int)line, 4, key, "%g outside (-1, 1)",
                                c->win_bias);
            c->has_win = true;
        } else if (!strcmp(key, "win_se")) {
            rc = num(rw, path, line, &c->win_se, err);
            if (!rc && !(c->win_se >= 0 && c->win_se < 1))
                rc = rf_err_set(err, RF_ERANGE, path, (int)line, 4, key, "%g outside [0, 1)",
                                c->win_se);
            c->has_win = true;
        } else if (!strcmp(key, "hirf_ratio_w")) {
            rc = num(rw, path, line, &c->hirf_ratio_w, err);
            if (!rc && !(c->hirf_ratio_w >= 0 && c->hirf_ratio_w <= 1))
                rc = rf_err_set(err, RF_ERANGE, path, (int)line, 4, key, "%g outside [0, 1]",
                                c->hirf_ratio_w);
        } else if (!strcmp(key, "hirf_ratio_d:concat") || !strcmp(key, "hirf_ratio_d:tea")
                   || !strcmp(key, "hirf_ratio_d:full")) {
            int ix = !strcmp(key, "hirf_ratio_d:tea") ? RF_RC_TEA
                     : !strcmp(key, "hirf_ratio_d:full") ? RF_RC_FULL
                                                         : RF_RC_CONCAT;
            rc = num(rw, path, line, &c->hirf_ratio_d[ix], err);
            if (!rc && !(fabs(c->hirf_ratio_d[ix]) < 1))
                rc = rf_err_set(err, RF_ERANGE, path, (int)line, 4, key, "%g outside (-1, 1)",
                                c->hirf_ratio_d[ix]);
            c->hirf_ratio_has[ix] = true;
        } else if (!strcmp(key, "meas_reads")) {
            rc = num(rw, path, line, &c->meas_reads, err);
            c->has_meas = true;
        } else if (!strcmp(key, "meas_writes")) {
            rc = num(rw, path, line, &c->meas_writes, err);
            c->has_meas = true;
        } else if (!strcmp(key, "meas_live")) {
            rc = num(rw, path, line, &c->meas_live, err);
            if (!rc && !(c->meas_live > 0 && c->meas_live <= 1))
                rc = rf_err_set(err, RF_ERANGE, path, (int)line, 4, key, "%g outside (0, 1]",
                                c->meas_live);
        } else if (!strcmp(key, "digest")) {
            char *end = NULL;
            errno = 0;
            unsigned long long d = strtoull(rw->f[3], &end, 16);
            if (strlen(rw->f[3]) != 16 || errno || !end || *end || d == 0)
                rc = rf_err_set(err, RF_EPARSE, path, (int)line, 4, key,
                                "expected 16 hex digits, got '%s'", rw->f[3]);
            else
                c->digest = (uint64_t)d;
        } else {
            rc = rf_err_set(err, RF_EUNKNOWN, path, (int)line, 3, key, "unknown record key");
        }
    }
    free_rows(&r);
    if (!rc && !found)
        rc = rf_err_set(err, RF_EUNKNOWN, path, 0, 0, NULL,
                        "no calibration for gpu '%s' and kernel '%s'", gpu, kernel);
    if (!rc && want_digest && c->digest != digest)
        rc = rf_err_set(err, RF_EUSAGE, path, 0, 0, NULL,
                        "the record for gpu '%s' and kernel '%s' was calibrated on other code or "
                        "another spec (digest %016" PRIx64 ", this kernel %016" PRIx64
                        "): run rfkit calibrate again",
                        gpu, kernel, c->digest, digest);
    return rc;
}

int rf_record_load(const char *path, const char *gpu, const char *kernel,
                   rf_calib *c, rf_err *err)
{
    return load(path, gpu, kernel, false, 0, c, err);
}

int rf_record_load_kernel(const char *path, const char *gpu, const rf_kernel *k,
                          rf_calib *c, rf_err *err)
{
    char key[RF_CALIB_NAME_MAX];
    rf_calib_key(k, key, sizeof key);
    return load(path, gpu, key, true, k->digest, c, err);
}

/* ---- saving ------------------------------------------------------------- */

static void put_row(rf_csvw *w, const char *gpu, const char *kernel, const char *key,
                    const char *value)
{
    rf_csvw_field(w, gpu);
    rf_csvw_field(w, kernel);
    rf_csvw_field(w, key);
    rf_csvw_field(w, value);
    rf_csvw_end(w);
}

static void put_num(rf_csvw *w, const rf_calib *c, const char *key, double v)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%.17g", v);
    put_row(w, c->gpu, c->kernel, key, buf);
}

/* Is c[i] replaced by a later record of the same pair (saved one by one,
 * the later save would replace it)? */
static bool superseded(const rf_calib *c, size_t n, size_t i)
{
    for (size_t j = i + 1; j < n; j++)
        if (!strcmp(c[j].gpu, c[i].gpu) && !strcmp(c[j].kernel, c[i].kernel))
            return true;
    return false;
}

static bool among(const rf_calib *c, size_t n, const char *gpu, const char *kernel)
{
    for (size_t j = 0; j < n; j++)
        if (!strcmp(c[j].gpu, gpu) && !strcmp(c[j].kernel, kernel))
            return true;
    return false;
}

static void put_record(rf_csvw *w, const rf_calib *c)
{
    char key[160];
    for (size_t j = 0; j < rf_ipc_nmparams; j++) {
        snprintf(key, sizeof key, "param:%s", rf_ipc_mparams[j].name);
        put_num(w, c, key, rf_mparam_get(&rf_ipc_mparams[j], &c->params));
    }
    for (int j = 0; j < c->nfit; j++)
        put_row(w, c->gpu, c->kernel, "fit", rf_ipc_mparams[c->fit_idx[j]].name);
    for (int a = 0; a < c->nfit; a++)
        for (int b = 0; b < c->nfit; b++) {
            snprintf(key, sizeof key, "cov:%s:%s", rf_ipc_mparams[c->fit_idx[a]].name,
                     rf_ipc_mparams[c->fit_idx[b]].name);
            put_num(w, c, key, c->cov[a][b]);
        }
    put_num(w, c, "rms_rel", c->rms_rel);
    put_num(w, c, "shrink", c->shrink);
    put_num(w, c, "dof", c->dof);
    put_num(w, c, "samples", c->samples);
    put_num(w, c, "sample_cycles", c->sample_cycles);
    put_num(w, c, "full_cycles", c->full_cycles);
    put_num(w, c, "level", c->level);
    if (c->level_var > 0)
        put_num(w, c, "level_var", c->level_var);
    if (c->level_apart)
        put_num(w, c, "level_shrink", c->level_shrink);
    if (c->has_win) {
        put_num(w, c, "win_bias", c->win_bias);
        put_num(w, c, "win_se", c->win_se);
    }
    if (c->hirf_ratio_w > 0)
        put_num(w, c, "hirf_ratio_w", c->hirf_ratio_w);
    if (c->hirf_ratio_has[0])
        put_num(w, c, "hirf_ratio_d:concat", c->hirf_ratio_d[0]);
    if (c->hirf_ratio_has[1])
        put_num(w, c, "hirf_ratio_d:tea", c->hirf_ratio_d[1]);
    if (c->hirf_ratio_has[2])
        put_num(w, c, "hirf_ratio_d:full", c->hirf_ratio_d[2]);
    if (c->has_meas) {
        put_num(w, c, "meas_reads", c->meas_reads);
        put_num(w, c, "meas_writes", c->meas_writes);
    }
    if (c->meas_live > 0)
        put_num(w, c, "meas_live", c->meas_live);
    if (c->digest) {
        char hex[24];
        snprintf(hex, sizeof hex, "%016" PRIx64, c->digest);
        put_row(w, c->gpu, c->kernel, "digest", hex);
    }
}

int rf_record_save(const char *path, const rf_calib *c, rf_err *err)
{
    return rf_record_save_n(path, c, 1, err);
}

int rf_record_save_n(const char *path, const rf_calib *c, size_t n, rf_err *err)
{
    reader r;
    int rc = read_rows(path, &r, true, err);
    if (rc)
        return rc;
    rf_outfile out;
    if ((rc = rf_outfile_open(&out, path, err)) != RF_OK) {
        free_rows(&r);
        return rc;
    }
    rf_csvw w;
    rf_csvw_init(&w, out.fp);
    put_row(&w, "gpu", "kernel", "key", "value");
    for (size_t i = 0; i < r.n; i++)
        if (!among(c, n, r.rows[i].f[0], r.rows[i].f[1]))
            put_row(&w, r.rows[i].f[0], r.rows[i].f[1], r.rows[i].f[2], r.rows[i].f[3]);
    free_rows(&r);
    for (size_t i = 0; i < n; i++)
        if (!superseded(c, n, i))
            put_record(&w, &c[i]);
    errno = 0;
    int ok = rf_csvw_flush(&w) == 0 && !ferror(out.fp);
    int e = errno ? errno : EIO;
    rf_csvw_free(&w);
    rc = rf_outfile_close(&out, ok, err);
    if (!ok && !rc)
        rc = rf_err_set(err, RF_EIO, path, 0, 0, NULL, "cannot write: %s", strerror(e));
    return rc;
}
