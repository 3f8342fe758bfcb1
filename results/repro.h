/* repro.h - the paper-reproduction report (`rfkit reproduce`).
 *
 * Each seed's experiments (results/repro_NNN.c) run rfkit's own models on the
 * bundled kernels with the seed's preset and add to one report:
 *   - claims: what the seed publishes, rfkit's figure, a verdict
 *     (reproduced / differs) and, for a difference, its measured reason;
 *   - tables: the experiment's numbers (markdown in the report);
 *   - plots: charts drawn through results/plot.h.
 * rf_repro_write then writes DIR/report.md (claims table first, then one
 * section per seed with its tables and plots).
 *
 * Estimates by default: calibrated closed forms (calibrate + estimate), with
 * the sampler's full runs (`simulate --full`) only where a claim needs
 * ground truth; opts->full takes ground truth throughout.  Every run is a
 * pure function of its inputs and opts->seed, so the report is
 * byte-identical across runs and --jobs values (plots aside: PNG bytes are
 * gnuplot's).
 */
#ifndef RF_REPRO_H
#define RF_REPRO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../common/error.h"
#include "../inputs/kernel.h"
#include "plot.h"
#include "table.h"

typedef struct rf_repro_opts {
    const char *dir;       /* output folder (created) */
    int full;              /* 1: full sampler runs for every figure */
    int jobs;              /* worker threads for independent runs (>= 1) */
    uint64_t seed;         /* the sampler's seed */
    FILE *progress;        /* a terminal for the line naming each seed, or NULL */
    /* Called (under a lock) as rf_repro_map's runs finish: done of total;
     * NULL for none.  The command draws its progress line from it. */
    void (*runs_done)(void *arg, long done, long total);
    void *runs_arg;
    const char *kernels;   /* folder of the bundled kernels ("inputs/kernels") */
} rf_repro_opts;

typedef enum rf_verdict { RF_REPRODUCED, RF_DIFFERS } rf_verdict;

typedef struct rf_repro rf_repro;   /* the report being built */

rf_repro *rf_repro_new(void);
void rf_repro_free(rf_repro *r);

/* One claim of seed `seed` ("003"): the claim in words, the seed's figure,
 * rfkit's figure, the verdict, and the reason (for RF_DIFFERS the measured
 * reason, for RF_REPRODUCED how agreement was judged).  plot: the stem of a
 * plot added with rf_repro_plot, or NULL.  Strings are copied. */
int rf_repro_claim(rf_repro *r, const char *seed, const char *claim, const char *published,
                   const char *measured, rf_verdict v, const char *reason, const char *plot);

/* A table under seed's section, with a title line and an optional note
 * below it (NULL for none); the table is copied. */
int rf_repro_table(rf_repro *r, const char *seed, const char *title, const rf_tbl *t,
                   const char *note);

/* A paragraph of text under seed's section (markdown, copied). */
int rf_repro_text(rf_repro *r, const char *seed, const char *text);

/* A plot under seed's section: data as for rf_plot_write; it is written
 * into opts->dir at once and linked from the report (or, without gnuplot,
 * its script named). */
int rf_repro_plot(rf_repro *r, const rf_repro_opts *o, const char *seed, const rf_plot *p,
                  int n, const char *const *x, const double *y, const char *const *group,
                  rf_err *err);

/* Run fn(i, ctx) for i in [0, n) on o->jobs threads; each call writes only
 * its own slot of ctx.  Returns the error of the lowest i that failed (its
 * message in err), else RF_OK. */
int rf_repro_map(const rf_repro_opts *o, int n, int (*fn)(int i, void *ctx, rf_err *err),
                 void *ctx, rf_err *err);

/* The experiments, one function per seed; each adds its claims, tables and
 * plots to r. */
int rf_repro_seed000(rf_repro *r, const rf_repro_opts *o, rf_err *err);   /* FineReg */
int rf_repro_seed001(rf_repro *r, const rf_repro_opts *o, rf_err *err);   /* bank stealing */
int rf_repro_seed002(rf_repro *r, const rf_repro_opts *o, rf_err *err);   /* HI-RF + CAC */
int rf_repro_seed003(rf_repro *r, const rf_repro_opts *o, rf_err *err);   /* Register Sharing */
int rf_repro_seed004(rf_repro *r, const rf_repro_opts *o, rf_err *err);   /* LTRF */
/* The storage overhead of every design against its paper's figure. */
int rf_repro_overheads(rf_repro *r, const rf_repro_opts *o, rf_err *err);

/* The nine bundled kernels' names in a fixed order ("bfs", "hotspot", ...,
 * NULL-terminated), and the spec path of one: "<o->kernels>/<name>.spec". */
extern const char *const rf_repro_bundled[];
void rf_repro_kernel_path(const rf_repro_opts *o, const char *name, char *buf, size_t cap);

/* Bundled kernel `name` loaded as the run the sampler makes under the
 * report's seed (rf_profile.seed = o->seed: the draws the closed forms walk
 * are the runs'); no_ptxas: the spec's register count, whatever is
 * installed. */
int rf_repro_load_kernel(const rf_repro_opts *o, const char *name, bool no_ptxas,
                         rf_kernel **k, rf_err *err);

/* Run the experiments of `which` ("all", a seed id "003", or a comma list
 * of ids; "overheads" names the overheads section) in seed order.  Progress
 * lines go to o->progress. */
int rf_repro_run(rf_repro *r, const rf_repro_opts *o, const char *which, rf_err *err);

/* The ids rf_repro_run knows, for --help and messages: "000, 001, ..." */
void rf_repro_ids(char *buf, size_t cap);

/* Counts of the claims added so far. */
void rf_repro_counts(const rf_repro *r, int *claims, int *reproduced);

/* Write DIR/report.md atomically: a header naming the options, the claims
 * table (seed, claim, published, rfkit, verdict, reason), then each seed's
 * section in order.  The report holds no timings, so the same inputs and
 * seed give the same bytes. */
int rf_repro_write(const rf_repro *r, const rf_repro_opts *o, rf_err *err);

#endif /* RF_REPRO_H */
