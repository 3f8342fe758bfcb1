/* repro.c - the reproduction report: a list of items per seed (claims,
 * tables, paragraphs, plots) in the order the experiments add them, the
 * worker map the experiments run their independent runs on, and the
 * writer of DIR/report.md.
 *
 * The report opens with every claim in one table (seed, claim, published,
 * rfkit, verdict, reason), then gives one section per seed with its items
 * in order.  Tables are rendered to markdown when added; a plot is written
 * (data, script, PNG when gnuplot is installed) when added and linked from
 * its section, or its script named when it could not be drawn.
 */
#include "repro.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../common/file.h"

typedef enum item_kind { ITEM_CLAIM, ITEM_TABLE, ITEM_TEXT, ITEM_PLOT } item_kind;

typedef struct item {
    item_kind kind;
    char seed[16];
    /* claim: text[0..4] = claim, published, measured, reason, plot stem */
    char *text[5];
    rf_verdict verdict;
} item;

struct rf_repro {
    item *items;
    int n, cap;
};

typedef struct rf_repro_paper {
    const char *id;
    const char *title;
    int (*run)(rf_repro *r, const rf_repro_opts *o, rf_err *err);
} rf_repro_paper;

/* The seeds' experiments in report order (id, the paper, its function). */
static const rf_repro_paper papers[] = {
    {"000", "FineReg, with Virtual Thread, Reg+DRAM and RegMutex (maxwell-gtx980)",
     rf_repro_seed000},
    {"001", "bank stealing (fermi-gtx480)", rf_repro_seed001},
    {"002", "HI-RF with the conflict-aware compiler (volta-hirf)", rf_repro_seed002},
    {"003", "Register Sharing (fermi-c2050)", rf_repro_seed003},
    {"004", "LTRF: latency-tolerant register file (maxwell-ltrf)", rf_repro_seed004},
    {"overheads", "storage, area and power overhead of every design (seeds 000-004)",
     rf_repro_overheads},
    {NULL, NULL, NULL},
};

const char *const rf_repro_bundled[] = {"bfs",    "hotspot", "kmeans", "libor", "reduce",
                                        "sfu",    "sgemm",   "spmv",   "stream", NULL};

void rf_repro_kernel_path(const rf_repro_opts *o, const char *name, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s/%s.spec", o->kernels ? o->kernels : "inputs/kernels", name);
}

int rf_repro_load_kernel(const rf_repro_opts *o, const char *name, bool no_ptxas,
                         rf_kernel **k, rf_err *err)
{
    char path[1024];
    rf_repro_kernel_path(o, name, path, sizeof path);
    rf_kernel_opts ko;
    memset(&ko, 0, sizeof ko);
    ko.no_ptxas = no_ptxas;
    int rc = rf_kernel_load(path, &ko, k, err);
    if (rc == 0)
        (*k)->profile.seed = o->seed;
    return rc;
}

static char *dup_or_null(const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

rf_repro *rf_repro_new(void)
{
    return calloc(1, sizeof(rf_repro));
}

void rf_repro_free(rf_repro *r)
{
    if (!r)
        return;
    for (int i = 0; i < r->n; i++)
        for (int j = 0; j < 5; j++)
            free(r->items[i].text[j]);
    free(r->items);
    free(r);
}

/* A new item at the end, its strings copied; RF_ENOMEM. */
static int add(rf_repro *r, item_kind kind, const char *seed, const char *const text[5],
               rf_verdict v)
{
    if (r->n == r->cap) {
        int cap = r->cap ? 2 * r->cap : 32;
        item *it = realloc(r->items, (size_t)cap * sizeof *it);
        if (!it)
            return RF_ENOMEM;
        r->items = it;
        r->cap = cap;
    }
    item *it = &r->items[r->n];
    memset(it, 0, sizeof *it);
    it->kind = kind;
    it->verdict = v;
    snprintf(it->seed, sizeof it->seed, "%s", seed ? seed : "");
    for (int j = 0; j < 5; j++) {
        it->text[j] = dup_or_null(text[j]);
        if (text[j] && !it->text[j]) {
            for (int k = 0; k < j; k++)
                free(it->text[k]);
            return RF_ENOMEM;
        }
    }
    r->n++;
    return RF_OK;
}

int rf_repro_claim(rf_repro *r, const char *seed, const char *claim, const char *published,
                   const char *measured, rf_verdict v, const char *reason, const char *plot)
{
    const char *t[5] = {claim ? claim : "", published ? published : "",
                        measured ? measured : "", reason ? reason : "", plot};
    return add(r, ITEM_CLAIM, seed, t, v);
}

int rf_repro_table(rf_repro *r, const char *seed, const char *title, const rf_tbl *t,
                   const char *note)
{
    char *md = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&md, &len);
    if (!f)
        return RF_ENOMEM;
    rf_tbl_markdown(t, f);
    if (fclose(f) != 0 || !md) {
        free(md);
        return RF_ENOMEM;
    }
    const char *text[5] = {title ? title : "", md, note, NULL, NULL};
    int rc = add(r, ITEM_TABLE, seed, text, RF_REPRODUCED);
    free(md);
    return rc;
}

int rf_repro_text(rf_repro *r, const char *seed, const char *text)
{
    const char *t[5] = {text ? text : "", NULL, NULL, NULL, NULL};
    return add(r, ITEM_TEXT, seed, t, RF_REPRODUCED);
}

int rf_repro_plot(rf_repro *r, const rf_repro_opts *o, const char *seed, const rf_plot *p,
                  int n, const char *const *x, const double *y, const char *const *group,
                  rf_err *err)
{
    int drawn = 0;
    char why[600];
    int rc = rf_plot_write(o->dir, p, n, x, y, group, &drawn, why, sizeof why, err);
    if (rc)
        return rc;
    /* text: title, stem, why (NULL when drawn) */
    const char *t[5] = {p->title ? p->title : p->stem, p->stem, drawn ? NULL : why, NULL, NULL};
    rc = add(r, ITEM_PLOT, seed, t, RF_REPRODUCED);
    if (rc)
        rf_err_set(err, rc, NULL, 0, 0, NULL, "out of memory");
    return rc;
}

/* ---- the worker map ---------------------------------------------------- */

typedef struct map_state {
    pthread_mutex_t lock;
    int next, n, done;
    int (*fn)(int i, void *ctx, rf_err *err);
    void *ctx;
    int *rc;
    rf_err *errs;
    const rf_repro_opts *o;
} map_state;

static void *map_worker(void *arg)
{
    map_state *m = arg;
    for (;;) {
        pthread_mutex_lock(&m->lock);
        int i = m->next < m->n ? m->next++ : -1;
        pthread_mutex_unlock(&m->lock);
        if (i < 0)
            return NULL;
        rf_err_clear(&m->errs[i]);
        m->rc[i] = m->fn(i, m->ctx, &m->errs[i]);
        pthread_mutex_lock(&m->lock);
        m->done++;
        if (m->o->runs_done)
            m->o->runs_done(m->o->runs_arg, m->done, m->n);
        pthread_mutex_unlock(&m->lock);
    }
}

int rf_repro_map(const rf_repro_opts *o, int n, int (*fn)(int i, void *ctx, rf_err *err),
                 void *ctx, rf_err *err)
{
    if (n <= 0)
        return RF_OK;
    map_state m;
    memset(&m, 0, sizeof m);
    m.n = n;
    m.fn = fn;
    m.ctx = ctx;
    m.rc = calloc((size_t)n, sizeof *m.rc);
    m.errs = calloc((size_t)n, sizeof *m.errs);
    if (!m.rc || !m.errs) {
        free(m.rc);
        free(m.errs);
        return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "out of memory");
    }
    m.o = o;
    pthread_mutex_init(&m.lock, NULL);
    int jobs = o->jobs < 1 ? 1 : o->jobs > n ? n : o->jobs;
    pthread_t *th = calloc((size_t)jobs, sizeof *th);
    int started = 0;
    if (th)
        for (; started < jobs - 1; started++)
            if (pthread_create(&th[started], NULL, map_worker, &m) != 0)
                break;
    map_worker(&m);   /* this thread works too; it returns when no index is left */
    for (int t = 0; t < started; t++)
        pthread_join(th[t], NULL);
    pthread_mutex_destroy(&m.lock);
    free(th);
    int rc = RF_OK;
    for (int i = 0; i < n && !rc; i++)
        if (m.rc[i]) {
            rc = m.rc[i];
            if (err)
                *err = m.errs[i];
        }
    free(m.rc);
    free(m.errs);
    return rc;
}

/* ---- running the seeds ------------------------------------------------- */

void rf_repro_ids(char *buf, size_t cap)
{
    size_t at = 0;
    buf[0] = '\0';
    for (const rf_repro_paper *p = papers; p->id && at < cap; p++)
        at += (size_t)snprintf(buf + at, cap - at, "%s%s", at ? ", " : "", p->id);
    if (!buf[0])
        snprintf(buf, cap, "(none yet)");
}

/* Is id named by which ("all", or a comma list)? */
static int named(const char *which, const char *id)
{
    if (strcmp(which, "all") == 0)
        return 1;
    size_t n = strlen(id);
    for (const char *s = which; *s;) {
        const char *e = strchr(s, ',');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        if (len == n && strncmp(s, id, n) == 0)
            return 1;
        if (!e)
            break;
        s = e + 1;
    }
    return 0;
}

int rf_repro_run(rf_repro *r, const rf_repro_opts *o, const char *which, rf_err *err)
{
    /* Every name in the list must be known. */
    if (strcmp(which, "all") != 0) {
        for (const char *s = which;;) {
            const char *e = strchr(s, ',');
            size_t len = e ? (size_t)(e - s) : strlen(s);
            int known = 0;
            for (const rf_repro_paper *p = papers; p->id; p++)
                known |= strlen(p->id) == len && strncmp(p->id, s, len) == 0;
            if (!known) {
                char ids[128];
                rf_repro_ids(ids, sizeof ids);
                return rf_err_set(err, RF_EUNKNOWN, "command line", 0, 0, "paper",
                                  "'%.*s' is not a paper rfkit reproduces (%s, all)", (int)len,
                                  s, ids);
            }
            if (!e)
                break;
            s = e + 1;
        }
    }
    for (const rf_repro_paper *p = papers; p->id; p++) {
        if (!named(which, p->id))
            continue;
        if (o->progress)
            fprintf(o->progress, "reproduce: %s (%s)\n", p->id, p->title);
        int rc = p->run(r, o, err);
        if (rc)
            return rc;
    }
    return RF_OK;
}

void rf_repro_counts(const rf_repro *r, int *claims, int *reproduced)
{
    *claims = *reproduced = 0;
    for (int i = 0; i < r->n; i++)
        if (r->items[i].kind == ITEM_CLAIM) {
            ++*claims;
            *reproduced += r->items[i].verdict == RF_REPRODUCED;
        }
}

/* ---- the report ------------------------------------------------------- */

static void md(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        if (*s == '|')
            fputs("\\|", f);
        else if (*s == '\n' || *s == '\r')
            fputc(' ', f);
        else
            fputc(*s, f);
    }
}

static const char *title_of(const char *seed)
{
    for (const rf_repro_paper *p = papers; p->id; p++)
        if (strcmp(p->id, seed) == 0)
            return p->title;
    return "";
}

int rf_repro_write(const rf_repro *r, const rf_repro_opts *o, rf_err *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/report.md", o->dir);
    rf_outfile of;
    int rc = rf_outfile_open(&of, path, err);
    if (rc)
        return rc;
    FILE *f = of.fp;
    int claims, repro;
    rf_repro_counts(r, &claims, &repro);
    fprintf(f, "# rfkit reproduce: the seeds' claims re-run\n\n");
    fprintf(f, "Figures: %s; sampler seed %llu; kernels from `%s`. "
               "%d claims: %d reproduced, %d differ.\n\n",
            o->full ? "full sampler runs throughout (`--full`)"
                    : "calibrated estimates, full sampler runs where a claim needs ground truth",
            (unsigned long long)o->seed, o->kernels ? o->kernels : "inputs/kernels", claims, repro,
            claims - repro);
    fprintf(f, "A verdict is **reproduced** when rfkit's figure agrees with the paper's within "
               "the tolerance the reason states, **differs** otherwise; a difference comes with "
               "its measured reason. The sampler models each paper's mechanism and is never "
               "tuned toward a published figure.\n\n");
    fprintf(f, "## Claims\n\n| seed | claim | published | rfkit | verdict | reason |\n"
               "|---|---|---|---|---|---|\n");
    for (int i = 0; i < r->n; i++) {
        const item *it = &r->items[i];
        if (it->kind != ITEM_CLAIM)
            continue;
        fprintf(f, "| %s | ", it->seed);
        md(f, it->text[0]);
        fputs(" | ", f);
        md(f, it->text[1]);
        fputs(" | ", f);
        md(f, it->text[2]);
        fprintf(f, " | %s | ", it->verdict == RF_REPRODUCED ? "**reproduced**" : "**differs**");
        md(f, it->text[3]);
        if (it->text[4])
            fprintf(f, " ([plot](#%s))", it->text[4]);
        fputs(" |\n", f);
    }
    const char *cur = NULL;
    for (int i = 0; i < r->n; i++) {
        const item *it = &r->items[i];
        if (!cur || strcmp(cur, it->seed) != 0) {
            cur = it->seed;
            fprintf(f, "\n## Seed %s: %s\n", cur, title_of(cur));
        }
        switch (it->kind) {
        case ITEM_CLAIM:
            break;
        case ITEM_TABLE:
            fprintf(f, "\n**%s**\n\n%s", it->text[0], it->text[1]);
            if (it->text[2])
                fprintf(f, "\n%s\n", it->text[2]);
            break;
        case ITEM_TEXT:
            fprintf(f, "\n%s\n", it->text[0]);
            break;
        case ITEM_PLOT:
            fprintf(f, "\n<a id=\"%s\"></a>\n", it->text[1]);
            if (it->text[2])
                fprintf(f, "*%s*: not drawn (%s); data in `%s.dat`.\n", it->text[0],
                        it->text[2], it->text[1]);
            else
                fprintf(f, "![%s](%s.png)\n", it->text[0], it->text[1]);
            break;
        }
    }
    return rf_outfile_close(&of, 1, err);
}
