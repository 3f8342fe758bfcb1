/* batch.c - CSV of design points in, CSV of estimates out (see batch.h).
 *
 * Pipeline.  The calling thread parses the input with libcsv into chunks of
 * rows (field text in one arena per chunk).  With jobs <= 1 it estimates and
 * writes each chunk itself.  Otherwise a ring of 2 jobs + 2 chunk slots is
 * shared: the reader fills free slots in sequence, workers take filled slots
 * and estimate them into a per-slot output buffer, a writer thread writes
 * done slots strictly in sequence and frees them.  One mutex and one
 * condition variable guard the slot states; the reader blocks when every
 * slot is in use, which bounds memory.
 */
#include "batch.h"

#include <csv.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../analytic/design.h"
#include "../analytic/kchar.h"
#include "../analytic/rccollide.h"
#include "../calibrate/extrapolate.h"
#include "../calibrate/record.h"
#include "../common/file.h"
#include "../common/param.h"
#include "../inputs/gpu.h"
#include "../inputs/kernel.h"
#include "../inputs/point.h"
#include "csvout.h"

/* ---- columns ------------------------------------------------------------ */

/* A column is an option of the point table (inputs/point.h: the options of
 * `rfkit estimate`, parsed by the same rf_point_set) or a design
 * parameter. */
typedef struct column {
    const rf_point_opt *opt; /* or NULL for a design parameter */
    const rf_param *param;   /* design parameter */
    int steal;               /* param: 0 read_steal, 1 write_steal, else -1 */
} column;

typedef struct layout {
    int ncols;
    column *cols;
    int idx[RF_PF_COUNT];    /* column of each point field, -1 = absent */
} layout;

static const char *const result_cols[] = {
#define COL_NAME_(col, field) #col,
    RF_BATCH_HEAD_COLUMNS(COL_NAME_) RF_SW_COUNTER_COLUMNS(COL_NAME_)
    RF_RC_COUNTER_COLUMNS(COL_NAME_)
#undef COL_NAME_
    "calibrated", "error"};

static int make_layout(layout *lay, char **names, int n, const char *path, rf_err *err)
{
    lay->ncols = n;
    lay->cols = calloc((size_t)(n > 0 ? n : 1), sizeof *lay->cols);
    if (!lay->cols)
        return rf_err_set(err, RF_ENOMEM, path, 1, 0, NULL, "out of memory");
    for (int r = 0; r < RF_PF_COUNT; r++)
        lay->idx[r] = -1;
    /* Result columns may not appear in the input. */
    for (int i = 0; i < n; i++) {
        const char *nm = names[i];
        const rf_point_opt *o = rf_point_find(nm);
        if (o) {
            int at = lay->idx[o->field];
            if (at >= 0 && lay->cols[at].opt == o)
                return rf_err_set(err, RF_EPARSE, path, 1, i + 1, nm, "column given twice");
            if (at >= 0)
                return rf_err_set(err, RF_EPARSE, path, 1, i + 1, nm,
                                  "column given twice (as %s, the same option)",
                                  lay->cols[at].opt->name);
            lay->idx[o->field] = i;
            lay->cols[i].opt = o;
            continue;
        }
        const rf_param *p = NULL;
        for (size_t j = 0; j < rf_design_nparams && !p; j++)
            if (rf_point_name_eq(nm, rf_design_params[j].name))
                p = &rf_design_params[j];
        if (p) {
            for (int k = 0; k < i; k++)
                if (lay->cols[k].param == p)
                    return rf_err_set(err, RF_EPARSE, path, 1, i + 1, nm, "column given twice");
            lay->cols[i].param = p;
            lay->cols[i].steal = !strcmp(p->name, "read_steal")    ? 0
                               : !strcmp(p->name, "write_steal") ? 1 : -1;
            continue;
        }
        for (size_t r = 0; r < sizeof result_cols / sizeof result_cols[0]; r++)
            if (!strcmp(result_cols[r], nm))
                return rf_err_set(err, RF_EPARSE, path, 1, i + 1, nm,
                                  "is a result column; remove it from the input");
        return rf_err_set(err, RF_EUNKNOWN, path, 1, i + 1, nm,
                          "unknown column (expected an option of rfkit estimate, such as gpu, "
                          "kernel, grid, block or a design parameter; rfkit batch --help)");
    }
    if (lay->idx[RF_PF_GPU] < 0)
        return rf_err_set(err, RF_EPARSE, path, 1, 0, "gpu", "the header has no gpu column");
    return RF_OK;
}

/* ---- chunks ------------------------------------------------------------- */

typedef struct chunk {
    char *text;          /* field text, NUL-terminated fields back to back */
    size_t tlen, tcap;
    size_t *fstart;      /* offset of each field */
    size_t nf, fcap;
    size_t *rstart;      /* first field of each row; rstart[nrows] = nf */
    unsigned char *rplain; /* per row: no field needs quotes or holds a NUL */
    size_t nrows, rcap;
    long *rline;         /* per row: the physical input line where it starts */
    unsigned char row_bad; /* the row being parsed has such a field */
    rf_csvw out;
    long errors;
    int state;           /* slot state (threaded mode) */
    long seq;
} chunk;

enum { SLOT_FREE, SLOT_FILLED, SLOT_BUSY, SLOT_DONE };

/* A chunk is handed on at chunk_rows rows or at this many bytes of fields,
 * whichever comes first: with records of at most RF_LINE_MAX bytes, each
 * of the 2 * jobs + 2 chunks in flight stays near this size. */
#define RF_BATCH_CHUNK_BYTES ((size_t)4 << 20)

/* Bytes that make a field need quotes on output (libcsv's rule), and NUL
 * (the field's text ends there for the row's consumers). */
static const unsigned char not_plain[256] = {[','] = 1, ['"'] = 1, ['\n'] = 1, ['\r'] = 1,
                                             ['\0'] = 1};

static int chunk_push_field(chunk *c, const char *s, size_t n)
{
    if (c->tlen + n + 1 > c->tcap) {
        size_t cap = c->tcap ? c->tcap : 1 << 16;
        while (cap < c->tlen + n + 1)
            cap *= 2;
        char *t = realloc(c->text, cap);
        if (!t)
            return RF_ENOMEM;
        c->text = t;
        c->tcap = cap;
    }
    if (c->nf + 1 > c->fcap) {
        size_t cap = c->fcap ? 2 * c->fcap : 1024;
        size_t *f = realloc(c->fstart, cap * sizeof *f);
        if (!f)
            return RF_ENOMEM;
        c->fstart = f;
        c->fcap = cap;
    }
    c->fstart[c->nf++] = c->tlen;
    char *dst = c->text + c->tlen;
    unsigned char bad = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        dst[i] = (char)ch;
        bad |= not_plain[ch];
    }
    c->row_bad |= bad;
    c->tlen += n;
    c->text[c->tlen++] = '\0';
    return RF_OK;
}

static int chunk_end_row(chunk *c, size_t first_field, long line)
{
    if (c->nrows + 2 > c->rcap) {
        size_t cap = c->rcap ? 2 * c->rcap : 256;
        size_t *r = realloc(c->rstart, cap * sizeof *r);
        if (!r)
            return RF_ENOMEM;
        c->rstart = r;
        unsigned char *pl = realloc(c->rplain, cap);
        if (!pl)
            return RF_ENOMEM;
        c->rplain = pl;
        long *rl = realloc(c->rline, cap * sizeof *rl);
        if (!rl)
            return RF_ENOMEM;
        c->rline = rl;
        c->rcap = cap;
    }
    c->rline[c->nrows] = line;
    c->rplain[c->nrows] = !c->row_bad;
    c->row_bad = 0;
    c->rstart[c->nrows++] = first_field;
    c->rstart[c->nrows] = c->nf;
    return RF_OK;
}

static void chunk_reset(chunk *c)
{
    c->tlen = c->nf = c->nrows = 0;
    c->row_bad = 0;
    c->out.len = 0;
    c->out.col = 0;
    c->errors = 0;
}

static void chunk_free(chunk *c)
{
    free(c->text);
    free(c->fstart);
    free(c->rstart);
    free(c->rplain);
    free(c->rline);
    rf_csvw_free(&c->out);
}

/* ---- per-worker caches ------------------------------------------------- */

#define BATCH_RC_MEMO 64

/* Kernels (each with its characteristics and calibrations) a worker keeps:
 * a sweep over launches would otherwise keep one per launch it met; the
 * least recently used one goes first. */
#define BATCH_KERNELS 64

typedef struct gpu_entry {
    char name[RF_PARAM_STR_MAX];
    rf_gpu gpu;
    int rc;
    char msg[RF_ERR_MSG_MAX];
} gpu_entry;

/* A kernel per file, entry and launch given (grid, block, smem, regs), so
 * that rows naming the same ones share it and its characteristics, bare
 * code as well as specs. */
typedef struct kern_entry {
    char *path;
    char *entry;         /* NULL = the spec's, else the first */
    unsigned given;      /* launch fields given: bit 1 << RF_PF_GRID, ... */
    rf_launch launch;    /* their values (the others 0) */
    char *param;         /* the param cell, NULL = none */
    long seed;           /* the draws' seed (1 unless given) */
    rf_kernel *k;
    int rc;
    char msg[RF_ERR_MSG_MAX];
} kern_entry;

#define LAUNCH_FIELDS ((1u << RF_PF_GRID) | (1u << RF_PF_BLOCK) | (1u << RF_PF_SMEM) | \
                       (1u << RF_PF_REGS))

typedef struct char_entry {     /* kernel characteristics per (gpu, kernel, SMs) */
    const gpu_entry *g;
    const kern_entry *k;
    int sms;                     /* SMs the grid is spread over */
    rf_ipc_kernel kc;
    rf_rcc_memo memo;            /* HI-RF renumberings and flows (kc.rcw.memo) */
    rf_ipc_cycles_memo cycles;   /* the run model's last calls (kc.cycles_memo): the
                                  * GPU's own file under each banked design */
    int rc;
    char msg[RF_ERR_MSG_MAX];
} char_entry;

typedef struct calib_entry {
    char file[RF_PARAM_STR_MAX];
    const gpu_entry *g;
    const kern_entry *k;
    int sms;
    rf_calib cal;
    int rc;              /* RF_OK found, RF_EUNKNOWN none for the pair, else error */
    char msg[RF_ERR_MSG_MAX];
} calib_entry;

typedef struct cache {
    gpu_entry **gpus;
    size_t ngpus;
    kern_entry **kerns;
    size_t nkerns;
    char_entry **chars;
    size_t nchars;
    calib_entry **cals;
    size_t ncals;
    char kind_name[32];  /* last design name looked up, and its kind */
    int kind;
    FILE *notes;
} cache;

static void *grow_push(void ***arr, size_t *n, size_t size)
{
    void *e = calloc(1, size);
    if (!e)
        return NULL;
    void **na = realloc(*arr, (*n + 1) * sizeof *na);
    if (!na) {
        free(e);
        return NULL;
    }
    na[(*n)++] = e;
    *arr = na;
    return e;
}

static const gpu_entry *get_gpu(cache *c, const char *name)
{
    for (size_t i = c->ngpus; i-- > 0;)
        if (!strcmp(c->gpus[i]->name, name))
            return c->gpus[i];
    gpu_entry *e = grow_push((void ***)&c->gpus, &c->ngpus, sizeof *e);
    if (!e)
        return NULL;
    snprintf(e->name, sizeof e->name, "%s", name);
    rf_err err;
    rf_err_clear(&err);
    e->rc = rf_gpu_load(name, &e->gpu, c->notes, &err);
    snprintf(e->msg, sizeof e->msg, "%s", err.msg);
    return e;
}

static unsigned launch_given(const rf_point *pt)
{
    unsigned m = 0;
    for (int f = RF_PF_GRID; f <= RF_PF_REGS; f++)
        if (pt->text[f])
            m |= 1u << f;
    return m & LAUNCH_FIELDS;
}

/* The run of the kernel a row names: its draws' seed, 1 when not given
 * (rf_kernel_load's default). */
static long point_seed(const rf_point *pt)
{
    return pt->text[RF_PF_SEED] ? pt->seed : 1;
}

static bool kern_match(const kern_entry *e, const rf_point *pt, unsigned given)
{
    const char *entry = pt->text[RF_PF_ENTRY];
    const rf_launch *a = &e->launch, *b = &pt->launch;
    return e->given == given && !strcmp(e->path, pt->text[RF_PF_KERNEL]) &&
           (e->entry ? entry && !strcmp(e->entry, entry) : !entry) &&
           (!(given & 1u << RF_PF_GRID) || !memcmp(a->grid, b->grid, sizeof a->grid)) &&
           (!(given & 1u << RF_PF_BLOCK) || !memcmp(a->block, b->block, sizeof a->block)) &&
           (!(given & 1u << RF_PF_SMEM) || a->smem == b->smem) &&
           (!(given & 1u << RF_PF_REGS) || a->regs == b->regs) &&
           (e->param ? pt->nparams == 1 && !strcmp(e->param, pt->params[0]) : !pt->nparams) &&
           e->seed == point_seed(pt);
}

static void kern_free(kern_entry *e)
{
    if (e->k)
        rf_kernel_destroy(e->k);
    free(e->path);
    free(e->entry);
    free(e->param);
    free(e);
}

/* Drop the least recently used kernel (c->kerns[0]) and what refers to it. */
static void evict_kernel(cache *c)
{
    kern_entry *old = c->kerns[0];
    size_t n = 0;
    for (size_t i = 0; i < c->nchars; i++) {
        if (c->chars[i]->k == old) {
            rf_rcc_memo_free(&c->chars[i]->memo);
            free(c->chars[i]);
        } else {
            c->chars[n++] = c->chars[i];
        }
    }
    c->nchars = n;
    n = 0;
    for (size_t i = 0; i < c->ncals; i++) {
        if (c->cals[i]->k == old)
            free(c->cals[i]);
        else
            c->cals[n++] = c->cals[i];
    }
    c->ncals = n;
    kern_free(old);
    memmove(c->kerns, c->kerns + 1, --c->nkerns * sizeof *c->kerns);
}

/* The kernel of pt (text[RF_PF_KERNEL] given), loaded as rfkit estimate
 * loads it with the same options.  c->kerns is kept in order of use, the
 * most recent last. */
static const kern_entry *get_kernel(cache *c, const rf_point *pt)
{
    unsigned given = launch_given(pt);
    for (size_t i = c->nkerns; i-- > 0;)
        if (kern_match(c->kerns[i], pt, given)) {
            kern_entry *e = c->kerns[i];
            memmove(c->kerns + i, c->kerns + i + 1, (c->nkerns - 1 - i) * sizeof *c->kerns);
            c->kerns[c->nkerns - 1] = e;
            return e;
        }
    if (c->nkerns >= BATCH_KERNELS)
        evict_kernel(c);
    kern_entry *e = grow_push((void ***)&c->kerns, &c->nkerns, sizeof *e);
    if (!e)
        return NULL;
    const char *entry = pt->text[RF_PF_ENTRY];
    e->path = strdup(pt->text[RF_PF_KERNEL]);
    e->entry = entry ? strdup(entry) : NULL;
    e->param = pt->nparams ? strdup(pt->params[0]) : NULL;
    if (!e->path || (entry && !e->entry) || (pt->nparams && !e->param)) {
        e->rc = RF_ENOMEM;
        snprintf(e->msg, sizeof e->msg, "out of memory");
        return e;
    }
    e->given = given;
    e->seed = point_seed(pt);
    if (given & 1u << RF_PF_GRID)
        memcpy(e->launch.grid, pt->launch.grid, sizeof e->launch.grid);
    if (given & 1u << RF_PF_BLOCK)
        memcpy(e->launch.block, pt->launch.block, sizeof e->launch.block);
    e->launch.smem = given & 1u << RF_PF_SMEM ? pt->launch.smem : 0;
    e->launch.regs = given & 1u << RF_PF_REGS ? pt->launch.regs : 0;
    rf_err err;
    rf_err_clear(&err);
    rf_kernel_opts ko;
    rf_point_kernel_opts(pt, &ko);
    e->rc = rf_kernel_load(e->path, &ko, &e->k, &err);
    snprintf(e->msg, sizeof e->msg, "%s", err.msg);
    return e;
}

/* Kernel k's run with its grid spread over sms SMs (inputs/kernel.h): the
 * cached kernel spread as the row asks, before what depends on it (its
 * characteristics, its record's key).  A worker's cache is its own. */
static rf_kernel *spread(const kern_entry *k, int sms)
{
    rf_kernel_spread(k->k, sms);
    return k->k;
}

static char_entry *get_char(cache *c, const gpu_entry *g, const kern_entry *k, int sms)
{
    for (size_t i = c->nchars; i-- > 0;)
        if (c->chars[i]->g == g && c->chars[i]->k == k && c->chars[i]->sms == sms)
            return c->chars[i];
    char_entry *e = grow_push((void ***)&c->chars, &c->nchars, sizeof *e);
    if (!e)
        return NULL;
    e->g = g;
    e->k = k;
    e->sms = sms;
    rf_err err;
    rf_err_clear(&err);
    e->rc = rf_kchar_compute(&g->gpu, spread(k, sms), &e->kc, &err);
    e->kc.cycles_memo = &e->cycles;
    rf_err_place(&err, k->path, 0, 0);   /* the passes name a function, not its file */
    snprintf(e->msg, sizeof e->msg, "%s", err.msg);
    return e;
}

static const calib_entry *get_calib(cache *c, const char *file, const gpu_entry *g,
                                    const kern_entry *k, int sms)
{
    for (size_t i = c->ncals; i-- > 0;)
        if (c->cals[i]->g == g && c->cals[i]->k == k && c->cals[i]->sms == sms &&
            !strcmp(c->cals[i]->file, file))
            return c->cals[i];
    calib_entry *e = grow_push((void ***)&c->cals, &c->ncals, sizeof *e);
    if (!e)
        return NULL;
    snprintf(e->file, sizeof e->file, "%s", file);
    e->g = g;
    e->k = k;
    e->sms = sms;
    rf_err err;
    rf_err_clear(&err);
    /* The record of the run on sms SMs. */
    e->rc = rf_record_load_kernel(file, g->name, spread(k, sms), &e->cal, &err);
    snprintf(e->msg, sizeof e->msg, "%s", err.msg);
    return e;
}

static void cache_free(cache *c)
{
    for (size_t i = 0; i < c->ngpus; i++)
        free(c->gpus[i]);
    for (size_t i = 0; i < c->nkerns; i++)
        kern_free(c->kerns[i]);
    for (size_t i = 0; i < c->nchars; i++) {
        rf_rcc_memo_free(&c->chars[i]->memo);
        free(c->chars[i]);
    }
    for (size_t i = 0; i < c->ncals; i++)
        free(c->cals[i]);
    free(c->gpus);
    free(c->kerns);
    free(c->chars);
    free(c->cals);
    memset(c, 0, sizeof *c);
}

/* ---- one row ------------------------------------------------------------ */

typedef struct job {
    const layout *lay;
    const char *path;
    const char *calib;      /* default calibration file */
    rf_design dflt;         /* rf_design_init's design, copied for each row */
} job;

/* A model's error names its field ("threads: ...", "regs: ...") but not
 * the row: put the row's file and line in front, and the column that gave
 * the field (threads come from block) where the row has one. */
static int on_row_line(const job *jb, long line, int rc, rf_err *err)
{
    static const struct { const char *field; rf_point_field pf; } from[] = {
        {"threads", RF_PF_BLOCK}, {"regs", RF_PF_REGS}, {"smem", RF_PF_SMEM}};
    char msg[RF_ERR_MSG_MAX];
    snprintf(msg, sizeof msg, "%s", err->msg[0] ? err->msg : rf_strerror(rc));
    for (size_t i = 0; i < sizeof from / sizeof from[0]; i++) {
        size_t n = strlen(from[i].field);
        int col = jb->lay->idx[from[i].pf];
        if (col >= 0 && !strncmp(msg, from[i].field, n) && !strncmp(msg + n, ": ", 2))
            return rf_err_set(err, rc, jb->path, (int)line, col + 1,
                              jb->lay->cols[col].opt->name, "%s", msg + n + 2);
    }
    return rf_err_set(err, rc, jb->path, (int)line, 0, NULL, "%s", msg);
}

static int eval_row(cache *cc, const job *jb, char **f, int nf, long line, rf_estimate *est,
                    bool *have_ipc, rf_err *err)
{
    const layout *lay = jb->lay;
    *have_ipc = false;
    if (nf != lay->ncols)
        return rf_err_set(err, RF_EPARSE, jb->path, (int)line, 0, NULL,
                          "%d fields, the header has %d", nf, lay->ncols);
    /* Every cell given, in column order, parsed as rfkit estimate parses
     * the option of that name; an empty cell is an option not given. */
    rf_point pt;
    rf_point_init(&pt);
    rf_design d = jb->dflt;
    rf_where where = {jb->path, (int)line};
    int steal[2] = {-1, -1};     /* stealing flags given (rf_design_steal_flags) */
    for (int i = 0; i < nf; i++) {
        const column *c = &lay->cols[i];
        if (!f[i][0])
            continue;
        int rc = c->opt ? rf_point_set(&pt, c->opt, f[i], where, i + 1, err)
                        : rf_param_parse_at(c->param, &d, f[i], where, i + 1, err);
        if (rc)
            return rc;
        if (c->opt)
            continue;
        if (c->steal == 0)
            steal[0] = d.read_steal;
        else if (c->steal == 1)
            steal[1] = d.write_steal;
    }
    rf_design_steal_flags(&d, steal[0], steal[1]);
#define COL(field) (lay->idx[field] + 1)
    const char *gname = pt.text[RF_PF_GPU];
    if (!gname)
        return rf_err_set(err, RF_EUSAGE, jb->path, (int)line, COL(RF_PF_GPU), "gpu",
                          "no GPU given");
    const gpu_entry *g = get_gpu(cc, gname);
    if (!g)
        return rf_err_set(err, RF_ENOMEM, jb->path, (int)line, 0, NULL, "out of memory");
    if (g->rc)
        return rf_err_set(err, g->rc, jb->path, (int)line, COL(RF_PF_GPU), NULL, "%s",
                          g->msg);   /* "gpu: ..." or "FILE: ..." */

    const char *dname = pt.text[RF_PF_DESIGN];
    if (dname) {
        if (cc->kind_name[0] && !strcmp(dname, cc->kind_name)) {
            d.kind = cc->kind;
        } else {
            int rc = rf_design_set_kind(&d, dname, err);
            if (rc)
                return rf_err_set(err, rc, jb->path, (int)line, COL(RF_PF_DESIGN),
                                  "design", "unknown design '%s'", dname);
            if (strlen(dname) < sizeof cc->kind_name) {
                strcpy(cc->kind_name, dname);
                cc->kind = d.kind;
            }
        }
    }

    const kern_entry *k = NULL;
    char_entry *ch = NULL;
    /* The run of estimate's: the grid spread over the GPU's SMs or sms. */
    int sms = pt.sms > 0 ? pt.sms : (g->gpu.sms > 0 ? g->gpu.sms : 1);
    rf_shape shape = {0, 0, 0, 0, sms};
    if (pt.text[RF_PF_KERNEL]) {
        k = get_kernel(cc, &pt);
        if (!k)
            return rf_err_set(err, RF_ENOMEM, jb->path, (int)line, 0, NULL, "out of memory");
        if (k->rc)
            return rf_err_set(err, k->rc, jb->path, (int)line, COL(RF_PF_KERNEL), "kernel",
                              "%s", k->msg);
        ch = get_char(cc, g, k, sms);
        if (!ch)
            return rf_err_set(err, RF_ENOMEM, jb->path, (int)line, 0, NULL, "out of memory");
        if (ch->rc)
            return rf_err_set(err, ch->rc, jb->path, (int)line, COL(RF_PF_KERNEL), "kernel",
                              "%s", ch->msg);
        shape.regs = k->k->regs;
        shape.threads = rf_kernel_threads(k->k);
        shape.smem = k->k->smem_static + k->k->launch.smem;
        shape.ctas = rf_kernel_grid_ctas(k->k);
    } else {
        /* No kernel: occupancy and area of the launch given. */
        const rf_launch *l = &pt.launch;
        shape.regs = l->regs;
        if (pt.text[RF_PF_BLOCK])
            shape.threads = l->block[0] * l->block[1] * l->block[2];
        shape.smem = l->smem;
        if (shape.regs <= 0 || shape.threads <= 0)
            return rf_err_set(err, RF_EUSAGE, jb->path, (int)line, 0, "kernel",
                              "give a kernel, or regs (1..255; 0 is a kernel's own count) and block");
        memset(est, 0, sizeof *est);
        rf_occ_input in = {shape.regs, shape.threads, shape.smem};
        int rc = rf_occ_compute(&g->gpu, &d, &in, &est->occ, err);
        if (rc)
            return on_row_line(jb, line, rc, err);
        rf_rf_org org;
        rc = rf_area_org(&g->gpu, &d, &est->occ, &org, err);
        if (rc)
            return on_row_line(jb, line, rc, err);
        rf_area_compute(&org, &est->area);
        est->area_mm2 = est->area.total_mm2;
        return RF_OK;
    }

    const char *cfile = pt.text[RF_PF_CALIB];
    if (!cfile)
        cfile = jb->calib;
    const rf_calib *cal = NULL;
    if (cfile) {
        const calib_entry *ce = get_calib(cc, cfile, g, k, sms);
        if (!ce)
            return rf_err_set(err, RF_ENOMEM, jb->path, (int)line, 0, NULL, "out of memory");
        if (ce->rc == RF_OK)
            cal = &ce->cal;
        else if (ce->rc != RF_EUNKNOWN)
            return rf_err_set(err, ce->rc, jb->path, (int)line, COL(RF_PF_CALIB), "calib",
                              "%s", ce->msg);
    }
#undef COL
    if (d.kind == RF_DESIGN_HIRF && ch->kc.rcw.nregs > 0 && ch->memo.nslots == 0) {
        /* HI-RF rows of one kernel that differ in banks, warps or
         * calibration but not in the register cache's geometry and
         * assignment share the flow (analytic/rccollide.h), most of an
         * HI-RF estimate; BATCH_RC_MEMO of them, replaced in turn. */
        int mrc = rf_rcc_memo_init(&ch->memo, BATCH_RC_MEMO, err);
        if (mrc)
            return mrc;
        ch->kc.rcw.memo = &ch->memo;
    }
    int rc = rf_extrap_estimate(&g->gpu, &d, &ch->kc, &shape, cal, est, err);
    if (rc)
        return on_row_line(jb, line, rc, err);
    *have_ipc = true;
    return RF_OK;
}

/* A model's error (occupancy, area, the estimate) names a field but no
 * place: the row's line, and the column the value came from, which is the
 * field's own cell when the row fills it, else the kernel's for a launch
 * value the kernel gave. */
static void place_row_error(const job *jb, char **f, int nf, long line, rf_err *err)
{
    const layout *lay = jb->lay;
    int col = 0;
    for (int i = 0; i < lay->ncols && i < nf && !col; i++) {
        const column *c = &lay->cols[i];
        const char *name = c->opt ? c->opt->name : c->param->name;
        int pf = c->opt ? (int)c->opt->field : -1;
        bool same = rf_err_field_is(err, name) ||
                    (pf == RF_PF_GRID && (rf_err_field_is(err, "grid") ||
                                          rf_err_field_is(err, "ctas"))) ||
                    (pf == RF_PF_BLOCK && (rf_err_field_is(err, "block") ||
                                           rf_err_field_is(err, "threads")));
        if (same && f[i][0])
            col = i + 1;
    }
    int kc = lay->idx[RF_PF_KERNEL];
    if (!col && kc >= 0 && kc < nf && f[kc][0] &&
        (rf_err_field_is(err, "regs") || rf_err_field_is(err, "threads") ||
         rf_err_field_is(err, "smem") || rf_err_field_is(err, "grid")))
        col = kc + 1;
    rf_err_place(err, jb->path, (int)line, col);
}

static void one_line(char *msg)
{
    for (char *p = msg; *p; p++)
        if (*p == '\n' || *p == '\r')
            *p = ' ';
}

static void process_chunk(cache *cc, const job *jb, chunk *c)
{
    char *f[512];
    for (size_t r = 0; r < c->nrows; r++) {
        size_t a = c->rstart[r], b = c->rstart[r + 1];
        int nf = (int)(b - a);
        int shown = nf < 512 ? nf : 512;
        for (int i = 0; i < shown; i++)
            f[i] = c->text + c->fstart[a + (size_t)i];
        long line = c->rline[r];
        rf_err err;
        rf_err_clear(&err);
        rf_estimate est;
        bool have_ipc = false;
        int rc = nf > 512 ? rf_err_set(&err, RF_ELIMIT, jb->path, (int)line, 0, NULL, "too many fields")
                          : eval_row(cc, jb, f, nf, line, &est, &have_ipc, &err);
        if (rc && nf <= 512)
            place_row_error(jb, f, nf, line, &err);
        /* Input columns, padded or cut to the header's count.  A row of
         * the header's width whose fields need no quotes is its field
         * text as parsed, each field's NUL turned into a comma. */
        if (nf == jb->lay->ncols && nf > 0 && c->rplain[r]) {
            size_t from = c->fstart[a], to = (b < c->nf ? c->fstart[b] : c->tlen) - 1;
            size_t at = rf_csvw_raw(&c->out, c->text + from, to - from, nf);
            if (at != (size_t)-1)
                for (size_t i = a + 1; i < b; i++)
                    c->out.buf[at + (c->fstart[i] - from) - 1] = ',';
        } else {
            for (int i = 0; i < jb->lay->ncols; i++) {
                if (i < shown)
                    rf_csvw_field(&c->out, f[i]);
                else
                    rf_csvw_empty(&c->out);
            }
        }
        if (rc) {
            c->errors++;
            for (size_t i = 0; i + 1 < sizeof result_cols / sizeof result_cols[0]; i++)
                rf_csvw_empty(&c->out);     /* every result column but `error` */
            if (!err.msg[0])
                snprintf(err.msg, sizeof err.msg, "%s", rf_strerror(rc));
            one_line(err.msg);
            rf_csvw_field(&c->out, err.msg);
        } else {
            rf_csvw_int(&c->out, est.occ.ctas_per_sm);
            rf_csvw_int(&c->out, est.occ.warps_per_sm);
            rf_csvw_num(&c->out, est.occ.occupancy);
            if (have_ipc) {
                rf_csvw_num(&c->out, est.ipc);
                rf_csvw_num(&c->out, est.ipc_lo);
                rf_csvw_num(&c->out, est.ipc_hi);
                rf_csvw_round(&c->out, est.cycles);
                rf_csvw_num(&c->out, est.energy_nj);
            } else {
                for (int i = 0; i < 5; i++)
                    rf_csvw_empty(&c->out);
            }
            rf_csvw_num(&c->out, est.area_mm2);
            if (have_ipc) {
#define SW_VALUE_(col, field) rf_csvw_num(&c->out, est.occc.field);
                RF_SW_COUNTER_COLUMNS(SW_VALUE_)
#undef SW_VALUE_
#define RC_VALUE_(col, field) rf_csvw_num(&c->out, est.rcc.field);
                RF_RC_COUNTER_COLUMNS(RC_VALUE_)
#undef RC_VALUE_
            } else {
                for (int i = 0; i < RF_SW_NCOUNTERS + RF_RC_NCOUNTERS; i++)
                    rf_csvw_empty(&c->out);
            }
            rf_csvw_int(&c->out, est.calibrated ? 1 : 0);
            rf_csvw_empty(&c->out);
        }
        rf_csvw_end(&c->out);
    }
}

/* ---- the pipeline -------------------------------------------------------- */

typedef struct pipe {
    job jb;
    layout lay;
    FILE *out;
    rf_err *err;
    int rc;
    bool header_done;
    char **hdr;          /* header names while reading the header row */
    int nhdr, hcap;
    size_t row_first;    /* first field of the row being parsed */
    long line;           /* physical input line being read (1 = first) */
    long row_line;       /* physical line where the row being parsed starts */
    bool row_open;       /* a row has started and not yet ended */
    size_t chunk_rows;
    int jobs;
    chunk *cur;          /* the chunk being filled */
    /* single-threaded */
    chunk single;
    cache single_cache;
    /* threaded */
    chunk *slots;
    int nslots;
    long fill_seq;       /* sequence of the slot being filled */
    long write_seq;      /* next sequence to write */
    bool eof;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int io_failed;       /* errno of the first failed write, 0 */
    rf_batch_stats *stats;
    FILE *notes;
    rf_batch_drive drive;
} pipe_t;

static chunk *filling(pipe_t *p)
{
    return p->cur;
}

static void write_chunk(pipe_t *p, chunk *c)
{
    errno = 0;
    if (c->out.len && fwrite(c->out.buf, 1, c->out.len, p->out) != c->out.len && !p->io_failed)
        p->io_failed = errno ? errno : EIO;
    if (c->out.failed && !p->io_failed)
        p->io_failed = ENOMEM;
    p->stats->rows += (long)c->nrows;
    p->stats->errors += c->errors;
    if (p->drive.progress)
        p->drive.progress(p->stats->rows, p->drive.progress_arg);
}

/* Hand the filled chunk on and start a new one. */
static void dispatch(pipe_t *p)
{
    chunk *c = filling(p);
    if (c->nrows == 0)
        return;
    if (p->jobs <= 1) {
        process_chunk(&p->single_cache, &p->jb, c);
        write_chunk(p, c);
        chunk_reset(c);
        return;
    }
    pthread_mutex_lock(&p->mu);
    c->state = SLOT_FILLED;
    c->seq = p->fill_seq++;
    pthread_cond_broadcast(&p->cv);
    chunk *n = &p->slots[p->fill_seq % p->nslots];
    while (n->state != SLOT_FREE)
        pthread_cond_wait(&p->cv, &p->mu);
    pthread_mutex_unlock(&p->mu);
    p->cur = n;
    chunk_reset(n);
}

static void on_field(void *s, size_t len, void *data)
{
    pipe_t *p = data;
    if (p->rc)
        return;
    if (!p->header_done) {
        if (p->nhdr == p->hcap) {
            int cap = p->hcap ? 2 * p->hcap : 32;
            char **h = realloc(p->hdr, (size_t)cap * sizeof *h);
            if (!h) {
                p->rc = rf_err_set(p->err, RF_ENOMEM, p->jb.path, 1, 0, NULL, "out of memory");
                return;
            }
            p->hdr = h;
            p->hcap = cap;
        }
        char *v = malloc(len + 1);
        if (!v) {
            p->rc = rf_err_set(p->err, RF_ENOMEM, p->jb.path, 1, 0, NULL, "out of memory");
            return;
        }
        memcpy(v, s, len);
        v[len] = '\0';
        p->hdr[p->nhdr++] = v;
        return;
    }
    if (chunk_push_field(filling(p), s, len))
        p->rc = rf_err_set(p->err, RF_ENOMEM, p->jb.path, (int)p->line, 0, NULL, "out of memory");
}

static void on_row(int term, void *data)
{
    pipe_t *p = data;
    (void)term;
    p->row_open = false;
    if (p->rc)
        return;
    if (!p->header_done) {
        p->header_done = true;
        p->rc = make_layout(&p->lay, p->hdr, p->nhdr, p->jb.path, p->err);
        if (!p->rc && p->drive.header)
            p->rc = p->drive.header((const char *const *)p->hdr, p->nhdr, p->drive.header_arg,
                                    p->err);
        if (p->rc)
            return;
        rf_csvw w;
        rf_csvw_init(&w, p->out);
        for (int i = 0; i < p->nhdr; i++)
            rf_csvw_field(&w, p->hdr[i]);
        for (size_t r = 0; r < sizeof result_cols / sizeof result_cols[0]; r++)
            rf_csvw_field(&w, result_cols[r]);
        rf_csvw_end(&w);
        errno = 0;
        if (rf_csvw_flush(&w))
            p->io_failed = errno ? errno : EIO;
        rf_csvw_free(&w);
        p->line += p->drive.line_offset;   /* a shard's rows keep the file's lines */
        p->row_first = 0;
        return;
    }
    chunk *c = filling(p);
    if (chunk_end_row(c, p->row_first, p->row_line)) {
        p->rc = rf_err_set(p->err, RF_ENOMEM, p->jb.path, (int)p->line, 0, NULL, "out of memory");
        return;
    }
    if (c->nrows >= p->chunk_rows ||
        c->tlen + c->nf * sizeof *c->fstart >= RF_BATCH_CHUNK_BYTES) {
        dispatch(p);
        p->row_first = 0;
    } else {
        p->row_first = c->nf;
    }
}

typedef struct worker_arg {
    pipe_t *p;
} worker_arg;

static void *worker_main(void *arg)
{
    pipe_t *p = ((worker_arg *)arg)->p;
    cache cc;
    memset(&cc, 0, sizeof cc);
    cc.notes = p->notes;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        chunk *pick = NULL;
        for (int i = 0; i < p->nslots; i++) {
            chunk *c = &p->slots[i];
            if (c->state == SLOT_FILLED && (!pick || c->seq < pick->seq))
                pick = c;
        }
        if (!pick) {
            if (p->eof)
                break;
            pthread_cond_wait(&p->cv, &p->mu);
            continue;
        }
        pick->state = SLOT_BUSY;
        pthread_mutex_unlock(&p->mu);
        process_chunk(&cc, &p->jb, pick);
        pthread_mutex_lock(&p->mu);
        pick->state = SLOT_DONE;
        pthread_cond_broadcast(&p->cv);
    }
    pthread_mutex_unlock(&p->mu);
    cache_free(&cc);
    return NULL;
}

static void *writer_main(void *arg)
{
    pipe_t *p = arg;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        chunk *c = &p->slots[p->write_seq % p->nslots];
        if (c->state == SLOT_DONE && c->seq == p->write_seq) {
            pthread_mutex_unlock(&p->mu);
            write_chunk(p, c);
            pthread_mutex_lock(&p->mu);
            c->state = SLOT_FREE;
            p->write_seq++;
            pthread_cond_broadcast(&p->cv);
            continue;
        }
        if (p->eof && p->write_seq >= p->fill_seq)
            break;
        pthread_cond_wait(&p->cv, &p->mu);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* Physical lines.  Messages name the line where a row starts, counted in
 * newlines of the input, which differs from the row count after a quoted
 * field holding a newline (or a blank line).  libcsv reports rows, not
 * positions, so the input is fed to it a line at a time: a row starts on
 * the line, among those read while no row is open, that holds its first
 * byte other than a space, tab or line end (libcsv skips those between
 * rows).  A row after a bare carriage return on the same line is counted
 * from the line that opened the one before it.  Each line goes through
 * rf_csv_feed (common/file.h: a record's length bounded).  Returns RF_OK,
 * or rf_csv_feed's RF_EPARSE / RF_ELIMIT. */
static int feed(rf_csvfeed *f, pipe_t *p, const char *s, size_t n)
{
    while (n > 0 && !p->rc) {
        const char *nl = memchr(s, '\n', n);
        size_t len = nl ? (size_t)(nl - s) + 1 : n;
        if (!p->row_open)
            for (size_t i = 0; i < len; i++)
                if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n') {
                    p->row_open = true;
                    p->row_line = p->line;
                    break;
                }
        int rc = rf_csv_feed(f, s, len);
        if (rc)
            return rc;
        if (nl)
            p->line++;
        s += len;
        n -= len;
    }
    return 0;
}

int rf_batch_run(FILE *in, const char *in_name, FILE *out, const rf_batch_opts *opts,
                 rf_batch_stats *stats, rf_err *err)
{
    return rf_batch_run_drive(in, in_name, out, opts, NULL, stats, err);
}

int rf_batch_run_drive(FILE *in, const char *in_name, FILE *out, const rf_batch_opts *opts,
                       const rf_batch_drive *drive, rf_batch_stats *stats, rf_err *err)
{
    rf_batch_stats dummy;
    if (!stats)
        stats = &dummy;
    memset(stats, 0, sizeof *stats);
    pipe_t *p = calloc(1, sizeof *p);
    if (!p)
        return rf_err_set(err, RF_ENOMEM, in_name, 0, 0, NULL, "out of memory");
    p->jb.path = in_name;
    p->jb.lay = &p->lay;
    p->line = 1;
    p->jb.calib = opts ? opts->calib : NULL;
    rf_design_init(&p->jb.dflt);
    p->out = out;
    p->err = err;
    p->stats = stats;
    p->notes = opts ? opts->notes : NULL;
    if (drive)
        p->drive = *drive;
    p->chunk_rows = opts && opts->chunk_rows ? opts->chunk_rows : 4096;
    p->jobs = opts && opts->jobs > 1 ? opts->jobs : 1;
    p->single_cache.notes = p->notes;
    p->cur = &p->single;

    pthread_t *workers = NULL, writer;
    worker_arg wa = {p};
    int started = 0;
    bool writer_started = false;
    if (p->jobs > 1) {
        p->nslots = 2 * p->jobs + 2;
        p->slots = calloc((size_t)p->nslots, sizeof *p->slots);
        workers = calloc((size_t)p->jobs, sizeof *workers);
        if (!p->slots || !workers) {
            free(p->slots);
            free(workers);
            free(p);
            return rf_err_set(err, RF_ENOMEM, in_name, 0, 0, NULL, "out of memory");
        }
        p->cur = &p->slots[0];
        pthread_mutex_init(&p->mu, NULL);
        pthread_cond_init(&p->cv, NULL);
        for (int i = 0; i < p->jobs; i++)
            if (pthread_create(&workers[i], NULL, worker_main, &wa) == 0)
                started++;
        writer_started = pthread_create(&writer, NULL, writer_main, p) == 0;
        if (!started || !writer_started)
            p->rc = rf_err_set(err, RF_EINTERNAL, in_name, 0, 0, NULL, "cannot start threads");
    }

    struct csv_parser cp;
    if (!p->rc && csv_init(&cp, CSV_APPEND_NULL) != 0)
        p->rc = rf_err_set(err, RF_ENOMEM, in_name, 0, 0, NULL, "csv parser");
    else if (!p->rc) {
        /* A record is at most RF_LINE_MAX bytes (common/file.h) and a chunk
         * is dispatched at RF_BATCH_CHUNK_BYTES, so memory stays bounded
         * whatever the input. */
        char buf[1 << 16];
        size_t got, skip = 0;
        bool first = true;
        rf_csvfeed cf;
        rf_csv_feed_init(&cf, &cp, on_field, on_row, p);
        while (!p->rc && (got = fread(buf, 1, sizeof buf, in)) > 0) {
            if (first)
                skip = rf_file_bom(buf, got);   /* a UTF-8 byte-order mark */
            first = false;
            int frc = feed(&cf, p, buf + skip, got - skip);
            if (frc == RF_EPARSE && !p->rc)
                p->rc = rf_err_set(err, RF_EPARSE, in_name, (int)p->line, 0, NULL, "%s",
                                   csv_strerror(csv_error(&cp)));
            else if (frc == RF_ELIMIT && !p->rc)
                p->rc = rf_err_set(err, RF_ELIMIT, in_name, (int)p->row_line, 0, NULL,
                                   "a record longer than %zu bytes", RF_LINE_MAX);
            skip = 0;
        }
        if (!p->rc && ferror(in))
            p->rc = rf_err_set(err, RF_EIO, in_name, 0, 0, NULL, "read error");
        /* Strict at the end only: a quoted field still open at the end of
         * the input would otherwise take every line after its quote. */
        csv_set_opts(&cp, CSV_APPEND_NULL | CSV_STRICT | CSV_STRICT_FINI);
        if (!p->rc && csv_fini(&cp, on_field, on_row, p) != 0 && !p->rc)
            p->rc = rf_err_set(err, RF_EPARSE, in_name, (int)p->row_line, 0, NULL,
                               "a quoted field is not closed by the end of the input");
        csv_free(&cp);
        if (!p->rc && !p->header_done)
            p->rc = rf_err_set(err, RF_EPARSE, in_name, 1, 0, NULL, "empty input: no header row");
        if (!p->rc)
            dispatch(p);
    }

    if (p->jobs > 1) {
        pthread_mutex_lock(&p->mu);
        p->eof = true;
        pthread_cond_broadcast(&p->cv);
        pthread_mutex_unlock(&p->mu);
        for (int i = 0; i < started; i++)
            pthread_join(workers[i], NULL);
        if (writer_started)
            pthread_join(writer, NULL);
        for (int i = 0; i < p->nslots; i++)
            chunk_free(&p->slots[i]);
        free(p->slots);
        free(workers);
        pthread_cond_destroy(&p->cv);
        pthread_mutex_destroy(&p->mu);
    }
    chunk_free(&p->single);
    cache_free(&p->single_cache);
    for (int i = 0; i < p->nhdr; i++)
        free(p->hdr[i]);
    free(p->hdr);
    free(p->lay.cols);
    int rc = p->rc;
    int io = p->io_failed;
    if (!rc && !io && fflush(out) != 0)
        io = errno;
    if (!rc && !io && ferror(out))
        io = EIO;
    if (!rc && io)
        rc = rf_err_set(err, RF_EIO, NULL, 0, 0, NULL, "cannot write the output: %s",
                        strerror(io));
    free(p);
    return rc;
}
