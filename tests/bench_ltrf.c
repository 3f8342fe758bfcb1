/* bench_ltrf.c - seed 004 on the bundled kernels with the sampler.
 *
 * Table 1 (seed 004 Fig. 9): IPC of BL (baseline, configuration #1 plus
 * the register cache's 16 KB: 69632 registers per SM), Ideal
 * (8x capacity at 1x latency), and RFC, LTRF, LTRF+ on main register files
 * #6 (TFET, 5.3x latency) and #7 (DWM, 6.3x), normalised to BL; geometric
 * mean over the kernels.  Once with the preset's active pool (seed 004
 * Table 3: 8 warps per SM, design active_warps 0) and once with rfkit's
 * preferred pool, 8 per scheduler (active_warps -1: 32 per SM, 16
 * registers per warp each, a 64 KB register cache; analytic/design.h).  RFC#6=C:
 * RFC on #6 with LTRF's cache capacity (16 registers per pool warp; the
 * other RFC columns keep the issue's 16 KB).
 * Table 2 (seed 004 Fig. 11): maximum tolerable main-RF latency (5% IPC
 * loss) of RFC, LTRF and LTRF+ on configuration #6's main file (capacity and
 * banks kept, latency_x swept from 1 by 1 to 10), against the design at 1x
 * ("self") and against the banked file of the same capacity at 1x ("ref",
 * the ideal design); mean over the kernels (a capped sweep counts as 10).
 * ">=" marks sweeps that never lost 5%.  Both pool sizes.
 *
 * Table 3 (seed 004 Fig. 13): geomean IPC of BL, Ideal, LTRF #6, LTRF+ #6
 * and LTRF #7 for active pools of 4, 8, 16 and 32 warps per SM, normalised
 * to BL at 8; BL sb: BL's issue slots lost to short-latency dependencies.
 *
 * Runs: windows of --cycles N (default 40000) after a 10000-cycle warm-up,
 * every figure the mean IPC of --seeds S runs (default 3: seeds 1..S; a
 * window's IPC moves by several percent with the seed on kmeans and bfs),
 * preset maxwell-ltrf, kernels spread over two threads.
 *
 * Table 4 (issue 25): seed 004's orderings on full runs (the whole grid on
 * one SM, seed 1) of the nine tuning kernels (inputs/kernels/) and the
 * validation set (inputs/validation/): LTRF#6 > RFC#6, LTRF#6 >= BL,
 * LTRF+#6 >= LTRF#6, at rfkit's preferred pool (32 warps per SM) and at
 * Table 3's 8, counted per set.  Per kernel, the measurements that explain
 * an ordering: RFC's read hit rate and main-file reads per instruction
 * (each a miss of L cycles in a collector), LTRF's PREFETCH and activation
 * hold (warp-cycles per instruction), activations (pool re-entries that
 * refetch) per instruction, instructions per PREFETCH, and the mean
 * resident warps of BL and LTRF (LTRF's 8x file may hold more).
 * An ordering holds (+), ties (=: misses by less than ORDER_TIE of the
 * larger IPC) or fails (-).  The tie band is the seed's noise on the
 * ratios: one full run's random paths move them by a few percent (kmeans,
 * pool 32, LTRF+/LTRF over seeds 1, 2, 3: 0.966, 0.981, 1.020).
 * RF_BENCH_KERNELS=a,b limits Table 4's kernels.
 *
 * usage: bench_ltrf [--cycles N] [--seeds S] [--orders] [KERNEL.spec ...]
 *   --orders  Table 4 only.
 */
#include <dirent.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../analytic/design.h"
#include "../analytic/occupancy.h"
#include "../inputs/gpu.h"
#include "../inputs/kernel.h"
#include "../sampler/sim.h"
#include "../sampler/tolerable.h"
#include "support/benchrun.h"

#define MAXK 32
#define NPOOL 2
#define NCOL 9
#define NTOL 3
#define NSWEEP 4              /* Table 3 pools */
#define NSCOL 5               /* Table 3 designs */

static const char *const col_names[NCOL] = {"BL", "Ideal", "RFC#6", "LTRF#6", "LTRF+#6",
                                            "RFC#7", "LTRF#7", "LTRF+#7", "RFC#6=C"};
/* Design active_warps: the preset's pool, rfkit's preferred pool. */
static const int pools[NPOOL] = {0, RF_POOL_PREFERRED};
static const char *const pool_names[NPOOL] = {"the preset's, seed 004 Table 3; 2 per scheduler",
                                              "rfkit's preferred, 8 per scheduler"};
static const int sweep_pools[NSWEEP] = {4, 8, 16, 32};
/* Table 3 designs: BL, Ideal, LTRF #6, LTRF+ #6, LTRF #7 (columns of Table 1). */
static const int sweep_cols[NSCOL] = {0, 1, 3, 4, 6};

typedef struct job {
    const char *path;
    char name[128];
    uint64_t cycles;
    int seeds;                    /* runs per point (mean IPC) */
    double ipc[NPOOL][NCOL];
    double sweep[NSWEEP][NSCOL];  /* Table 3 IPC */
    double sb_share[NSWEEP];      /* BL: share of issue slots lost to short-latency
                                     dependencies (scoreboard) */
    int warps_bl, warps_8x;       /* resident warps per SM: BL, 8x capacity */
    const char *lim_8x;           /* what bounds residency at 8x capacity */
    rf_tolerable tol[NPOOL][NTOL];
    int rc;
    char msg[512];
} job;

typedef struct queue {
    job *jobs;
    int n, next;
    pthread_mutex_t lock;
    const rf_gpu *gpu;
} queue;

static void col_design(const rf_gpu *gpu, int c, int pool, rf_design *d)
{
    rf_design_init(d);
    d->active_warps = pool;
    static const int kinds[NCOL] = {RF_DESIGN_BASELINE, RF_DESIGN_IDEAL, RF_DESIGN_RFC,
                                    RF_DESIGN_LTRF, RF_DESIGN_LTRF, RF_DESIGN_RFC,
                                    RF_DESIGN_LTRF, RF_DESIGN_LTRF, RF_DESIGN_RFC};
    d->kind = kinds[c];
    d->rf_config = c < 5 || c == 8 ? 6 : 7;
    if (c == 8)       /* RFC with LTRF's cache capacity: 16 registers per pool warp */
        d->rc_entries = rf_design_pool(d, gpu) * 16;
    d->plus = c == 4 || c == 7;
}

/* Warps per SM in pool p's active pool on gpu. */
static int pool_size(const rf_gpu *gpu, int p)
{
    rf_design d;
    rf_design_init(&d);
    d.active_warps = pools[p];
    return rf_design_pool(&d, gpu);
}

/* Mean IPC of `seeds` runs (seeds o->seed, o->seed + 1, ...); sb (when not
 * NULL): mean share of issue slots lost to short-latency dependencies. */
static int mean_run(const rf_gpu *gpu, const rf_design *d, const rf_kernel *k,
                    const rf_sim_opts *o, int seeds, double *ipc, double *sb, rf_err *err)
{
    *ipc = 0;
    if (sb)
        *sb = 0;
    for (int s = 0; s < seeds; s++) {
        rf_sim_opts os = *o;
        os.seed = o->seed + (uint64_t)s;
        rf_sim_stats st;
        int rc = rf_sim_run(gpu, d, k, &os, &st, err);
        if (rc < 0)
            return rc;
        *ipc += st.ipc / seeds;
        double slots = (double)st.cycles * (gpu->schedulers > 0 ? gpu->schedulers : 1) *
                       (gpu->issue_width > 0 ? gpu->issue_width : 1);
        if (sb && slots > 0)
            *sb += (double)st.stall_scoreboard / slots / seeds;
    }
    return 0;
}

static void run_job(const rf_gpu *gpu, job *j)
{
    rf_err err = {0};
    rf_kernel *k = NULL;
    rf_kernel_opts ko;
    memset(&ko, 0, sizeof ko);
    if ((j->rc = rf_kernel_load(j->path, &ko, &k, &err)) < 0) {
        snprintf(j->msg, sizeof j->msg, "%s", err.msg);
        return;
    }
    snprintf(j->name, sizeof j->name, "%s", k->name);
    rf_sim_opts o;
    rf_sim_opts_init(&o);
    o.cycles = j->cycles;
    o.warmup = 10000;
    /* BL: configuration #1 with the register cache's 16 KB added to the
     * main file (seed 004 Section 5, comparison point (1)). */
    rf_gpu bl = *gpu;
    bl.regs_per_sm += 16 * 1024 / 4;
    {
        rf_occ_input in = {k->regs, rf_kernel_threads(k), k->smem_static + k->launch.smem};
        rf_occ occ;
        rf_design d;
        rf_design_init(&d);
        if (rf_occ_compute(&bl, &d, &in, &occ, &err) == 0)
            j->warps_bl = occ.warps_per_sm;
        d.kind = RF_DESIGN_IDEAL;
        if (rf_occ_compute(gpu, &d, &in, &occ, &err) == 0) {
            j->warps_8x = occ.warps_per_sm;
            j->lim_8x = rf_occ_limiter_name(occ.limiter);
        }
    }
    for (int p = 0; p < NSWEEP && j->rc == 0; p++)
        for (int c = 0; c < NSCOL && j->rc == 0; c++) {
            rf_design d;
            col_design(gpu, sweep_cols[c], sweep_pools[p], &d);
            j->rc = mean_run(c == 0 ? &bl : gpu, &d, k, &o, j->seeds, &j->sweep[p][c],
                             c == 0 ? &j->sb_share[p] : NULL, &err);
        }
    /* Table 1: the runs Table 3 made are reused. */
    for (int p = 0; p < NPOOL && j->rc == 0; p++)
        for (int c = 0; c < NCOL && j->rc == 0; c++) {
            int sp = -1, sc = -1;
            for (int q = 0; q < NSWEEP; q++)
                if (sweep_pools[q] == pool_size(gpu, p))
                    sp = q;
            for (int q = 0; q < NSCOL; q++)
                if (sweep_cols[q] == c)
                    sc = q;
            if (sp >= 0 && sc >= 0) {
                j->ipc[p][c] = j->sweep[sp][sc];
                continue;
            }
            rf_design d;
            col_design(gpu, c, pools[p], &d);
            j->rc = mean_run(c == 0 ? &bl : gpu, &d, k, &o, j->seeds, &j->ipc[p][c], NULL, &err);
        }
    rf_tol_opts to;
    rf_tol_opts_init(&to);
    to.step = 1;
    to.max_x = 10;
    to.seeds = j->seeds;
    for (int p = 0; p < NPOOL; p++)
        for (int t = 0; t < NTOL && j->rc == 0; t++) {
            rf_design d;
            col_design(gpu, 2 + t, pools[p], &d);
            j->rc = rf_sim_tolerable(gpu, &d, k, &o, &to, &j->tol[p][t], &err);
        }
    if (j->rc < 0)
        snprintf(j->msg, sizeof j->msg, "%s", err.msg);
    rf_kernel_destroy(k);
}

static void *worker(void *arg)
{
    queue *q = arg;
    for (;;) {
        pthread_mutex_lock(&q->lock);
        int i = q->next < q->n ? q->next++ : -1;
        pthread_mutex_unlock(&q->lock);
        if (i < 0)
            return NULL;
        run_job(q->gpu, &q->jobs[i]);
    }
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int list_specs(char **paths, int cap)
{
    const char *dir = "inputs/kernels";
    DIR *dp = opendir(dir);
    if (!dp)
        return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(dp)) && n < cap) {
        size_t len = strlen(e->d_name);
        if (len > 5 && strcmp(e->d_name + len - 5, ".spec") == 0) {
            paths[n] = malloc(strlen(dir) + len + 2);
            if (!paths[n])
                break;
            sprintf(paths[n], "%s/%s", dir, e->d_name);
            n++;
        }
    }
    closedir(dp);
    qsort(paths, (size_t)n, sizeof *paths, cmp_str);
    return n;
}

/* Table 4's designs: BL, RFC#6, LTRF#6, LTRF+#6 (columns of Table 1). */
#define NOCOL 4
#define MAXO 64
#define ORDER_TIE 0.02        /* Table 4: ties within 2% (header) */
static const int order_cols[NOCOL] = {0, 2, 3, 4};

typedef struct okernel {
    int set;                       /* 0 tuning, 1 validation */
    char *name;
    rf_kernel *k;
    benchrun_point pts[NPOOL][NOCOL];
    rf_sim_stats st[NPOOL][NOCOL];
} okernel;

/* Table 4 (header).  0, or 1 when a kernel or a run failed. */
static int orders_table(const rf_gpu *gpu)
{
    const char *dirs[2] = {"inputs/kernels", "inputs/validation"};
    const char *set_names[2] = {"tuning", "validation"};
    const char *only = getenv("RF_BENCH_KERNELS");
    rf_gpu bl = *gpu;
    bl.regs_per_sm += 16 * 1024 / 4;
    okernel *ks = calloc(MAXO, sizeof *ks);
    benchrun_point *all = calloc((size_t)MAXO * NPOOL * NOCOL, sizeof *all);
    if (!ks || !all) {
        free(ks);
        free(all);
        return 1;
    }
    int nk = 0, bad = 0;
    for (int s = 0; s < 2; s++) {
        char *names[MAXO];
        int n = benchrun_specs(dirs[s], names, MAXO - nk);
        for (int i = 0; i < n; i++) {
            rf_err err = {0};
            char path[512];
            snprintf(path, sizeof path, "%s/%s.spec", dirs[s], names[i]);
            rf_kernel_opts ko;
            memset(&ko, 0, sizeof ko);
            if ((only && !benchrun_listed(only, names[i])) ||
                rf_kernel_load(path, &ko, &ks[nk].k, &err) < 0) {
                if (!only || benchrun_listed(only, names[i])) {
                    fprintf(stderr, "bench_ltrf: %s: %s\n", path, err.msg);
                    bad = 1;
                }
                free(names[i]);
                continue;
            }
            okernel *o = &ks[nk++];
            o->set = s;
            o->name = names[i];
            for (int p = 0; p < NPOOL; p++)
                for (int c = 0; c < NOCOL; c++) {
                    benchrun_point *pt = &o->pts[p][c];
                    pt->gpu = order_cols[c] == 0 ? &bl : gpu;
                    pt->k = o->k;
                    col_design(gpu, order_cols[c], pools[p], &pt->d);
                    pt->stats = &o->st[p][c];
                    snprintf(pt->key, sizeof pt->key, "%s|%s|%s|%d", set_names[s], names[i],
                             col_names[order_cols[c]], pools[p]);
                }
        }
    }
    for (int i = 0; i < nk; i++)
        memcpy(&all[i * NPOOL * NOCOL], ks[i].pts, sizeof ks[i].pts);
    benchrun_full(all, nk * NPOOL * NOCOL, 2);
    for (int i = 0; i < nk; i++)
        memcpy(ks[i].pts, &all[i * NPOOL * NOCOL], sizeof ks[i].pts);
    free(all);

    for (int p = NPOOL - 1; p >= 0; p--) {
        printf("\nTable 4%c: seed 004's orderings on full runs, maxwell-ltrf #6, active pool %d "
               "warps per SM (%s)\n", p == NPOOL - 1 ? 'a' : 'b', pool_size(gpu, p),
               pool_names[p]);
        printf("%-10s %-12s %6s %6s %6s %7s  %-9s %5s %5s %5s %6s %6s %5s\n", "set", "kernel",
               "BL ipc", "RFC", "LTRF", "LTRF+", ">RFC>=BL+", "hit", "mr/i", "pf/i", "act/i",
               "i/PF", "warps");
        int cnt[2][3] = {{0}}, tie[2][3] = {{0}}, m[2] = {0};
        double lg[2][NOCOL] = {{0}};
        for (int i = 0; i < nk; i++) {
            const okernel *o = &ks[i];
            const rf_sim_stats *st = o->st[p];
            bool ok = true;
            for (int c = 0; c < NOCOL; c++)
                if (o->pts[p][c].rc || !(st[c].ipc > 0))
                    ok = false;
            if (!ok) {
                bad = 1;
                continue;
            }
            double b = st[0].ipc, r = st[1].ipc, l = st[2].ipc, lp = st[3].ipc;
            bool ord[3] = {l > r, l >= b, lp >= l};
            /* Ties: the smaller side within ORDER_TIE of the larger. */
            bool near[3] = {l >= r * (1 - ORDER_TIE), l >= b * (1 - ORDER_TIE),
                            lp >= l * (1 - ORDER_TIE)};
            char mark[3];
            for (int q = 0; q < 3; q++) {
                cnt[o->set][q] += ord[q];
                tie[o->set][q] += !ord[q] && near[q];
                mark[q] = ord[q] ? '+' : near[q] ? '=' : '-';
            }
            for (int c = 0; c < NOCOL; c++)
                lg[o->set][c] += log(st[c].ipc / b);
            m[o->set]++;
            const rf_sim_stats *rs = &st[1], *ls = &st[2];
            double wi = ls->warp_insts > 0 ? (double)ls->warp_insts : 1.0;
            double rwi = rs->warp_insts > 0 ? (double)rs->warp_insts : 1.0;
            double rr = (double)rs->rc_hits + (double)rs->rc_misses;
            printf("%-10s %-12s %6.3f %6.3f %6.3f %7.3f  %c  %c  %c   %5.3f %5.2f %5.2f %6.3f "
                   "%6.1f %2.0f>%2.0f\n",
                   set_names[o->set], o->name, b, r / b, l / b, lp / b, mark[0], mark[1],
                   mark[2], rr > 0 ? rs->rc_hits / rr : 0.0,
                   rs->main_reads / rwi,
                   (double)ls->prefetch_stall_cycles / wi,
                   (double)ls->activations / wi,
                   ls->prefetches > 0 ? wi / (double)ls->prefetches : 0.0,
                   st[0].mean_resident_warps, ls->mean_resident_warps);
        }
        for (int s = 0; s < 2; s++) {
            if (!m[s])
                continue;
            printf("%-10s %-12s %6s", set_names[s], "geomean", "");
            for (int c = 1; c < NOCOL; c++)
                printf(" %*.3f", c == 3 ? 7 : 6, exp(lg[s][c] / m[s]));
            printf("  of %d: LTRF > RFC %d (+%d ties), LTRF >= BL %d (+%d), LTRF+ >= LTRF %d (+%d)\n",
                   m[s], cnt[s][0], tie[s][0], cnt[s][1], tie[s][1], cnt[s][2], tie[s][2]);
        }
    }
    printf("columns: IPC of BL, then RFC, LTRF, LTRF+ over BL; orderings LTRF > RFC, LTRF >= BL, "
           "LTRF+ >= LTRF (+ holds, = within %.0f%%, - fails); RFC: read hit rate, main-file reads per instruction; "
           "LTRF: PREFETCH and activation hold (warp-cycles per instruction), activations per "
           "instruction, instructions per PREFETCH; mean resident warps BL > LTRF\n",
           100 * ORDER_TIE);
    for (int i = 0; i < nk; i++) {
        rf_kernel_destroy(ks[i].k);
        free(ks[i].name);
    }
    free(ks);
    return bad;
}

static void print_tol(const rf_tolerable *t, bool ref)
{
    double v = ref ? t->tol_ref : t->tol_self;
    bool capped = ref ? t->capped_ref : t->capped_self;
    printf(" %3s%5.2f", capped ? ">=" : "", v);
}

int main(int argc, char **argv)
{
    uint64_t cycles = 40000;
    int seeds = 3;
    char *paths[MAXK];
    int n = 0;
    bool own = false, orders_only = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--orders")) {
            orders_only = true;
        } else if (!strcmp(argv[i], "--cycles") && i + 1 < argc) {
            cycles = strtoull(argv[++i], NULL, 10);
        } else if (!strcmp(argv[i], "--seeds") && i + 1 < argc) {
            seeds = atoi(argv[++i]);
            if (seeds < 1)
                seeds = 1;
        } else if (n < MAXK) {
            paths[n++] = argv[i];
            own = true;
        }
    }
    rf_gpu gpu;
    rf_err err = {0};
    /* RF_BENCH_LTRF_GPU=FILE: a GPU file (preset = maxwell-ltrf plus
     * changes) in place of the preset, for sensitivity studies. */
    const char *gfile = getenv("RF_BENCH_LTRF_GPU");
    if ((gfile ? rf_gpu_load(gfile, &gpu, NULL, &err)
               : rf_gpu_preset("maxwell-ltrf", &gpu, &err)) < 0) {
        fprintf(stderr, "bench_ltrf: %s\n", err.msg);
        return 1;
    }
    if (orders_only)
        return orders_table(&gpu);
    if (!own)
        n = list_specs(paths, MAXK);
    if (n == 0) {
        fprintf(stderr, "bench_ltrf: no kernels (run from the repository root)\n");
        return 1;
    }
    job *jobs = calloc((size_t)n, sizeof *jobs);
    if (!jobs)
        return 1;
    for (int i = 0; i < n; i++) {
        jobs[i].path = paths[i];
        jobs[i].cycles = cycles;
        jobs[i].seeds = seeds;
    }
    queue q = {jobs, n, 0, PTHREAD_MUTEX_INITIALIZER, &gpu};
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pthread_t th[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&th[i], NULL, worker, &q);
    for (int i = 0; i < 2; i++)
        pthread_join(th[i], NULL);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    int bad = 0;
    for (int i = 0; i < n; i++)
        if (jobs[i].rc < 0) {
            fprintf(stderr, "bench_ltrf: %s: %s\n", jobs[i].path, jobs[i].msg);
            bad++;
        }

    for (int p = 0; p < NPOOL; p++) {
        printf("\nTable 1%c: IPC normalised to BL (seed 004 Fig. 9), maxwell-ltrf, active pool "
               "%d warps per SM (%s), windows of %llu cycles, mean of %d seeds\n", 'a' + p,
               pool_size(&gpu, p), pool_names[p], (unsigned long long)cycles, seeds);
        printf("%-10s %7s", "kernel", "BL ipc");
        for (int c = 1; c < NCOL; c++)
            printf(" %8s", col_names[c]);
        printf("   warps BL -> 8x (bound at 8x)\n");
        double lg[3][NCOL] = {{0}};
        int m[3] = {0};
        for (int i = 0; i < n; i++) {
            if (jobs[i].rc < 0)
                continue;
            const double *v = jobs[i].ipc[p];
            int g = jobs[i].warps_8x > jobs[i].warps_bl ? 1 : 2;
            printf("%-10s %7.3f", jobs[i].name, v[0]);
            for (int c = 1; c < NCOL; c++) {
                printf(" %8.3f", v[c] / v[0]);
                lg[0][c] += log(v[c] / v[0]);
                lg[g][c] += log(v[c] / v[0]);
            }
            printf("   %2d -> %2d (%s)\n", jobs[i].warps_bl, jobs[i].warps_8x,
                   jobs[i].lim_8x ? jobs[i].lim_8x : "?");
            m[0]++;
            m[g]++;
        }
        static const char *const gname[3] = {"geomean", "  reg-lim", "  insens."};
        for (int g = 0; g < 3; g++) {
            printf("%-10s %7s", gname[g], "");
            for (int c = 1; c < NCOL; c++)
                printf(" %8.3f", m[g] > 0 ? exp(lg[g][c] / m[g]) : 0.0);
            printf("   (%d kernels)\n", m[g]);
        }
    }

    for (int p = 0; p < NPOOL; p++) {
        printf("\nTable 2%c: maximum tolerable main-RF latency, x configuration #1 (seed 004 "
               "Fig. 11), 5%% IPC loss, configuration #6 capacity, pool %d warps per SM\n",
               'a' + p, pool_size(&gpu, p));
        printf("%-10s %9s %9s %9s   %9s %9s %9s\n", "kernel", "RFC", "LTRF", "LTRF+", "RFC ref",
               "LTRF ref", "LTRF+ ref");
        double sum[2][NTOL] = {{0}};
        int m = 0;
        for (int i = 0; i < n; i++) {
            if (jobs[i].rc < 0)
                continue;
            printf("%-10s", jobs[i].name);
            for (int r = 0; r < 2; r++) {
                for (int t = 0; t < NTOL; t++) {
                    const rf_tolerable *tl = &jobs[i].tol[p][t];
                    print_tol(tl, r == 1);
                    sum[r][t] += r ? tl->tol_ref : tl->tol_self;
                }
                printf(r == 0 ? "  " : "\n");
            }
            m++;
        }
        printf("%-10s", "mean");
        for (int r = 0; r < 2; r++) {
            for (int t = 0; t < NTOL; t++)
                printf(" %3s%5.2f", "", m > 0 ? sum[r][t] / m : 0.0);
            printf(r == 0 ? "  " : "\n");
        }
    }
    printf("\nTable 3: active-pool sensitivity (seed 004 Fig. 13), geomean IPC normalised to BL "
           "at 8 warps per SM; BL sb: BL's issue slots lost to short-latency dependencies\n");
    printf("%-12s", "pool/SM");
    for (int c = 0; c < NSCOL; c++)
        printf(" %8s", col_names[sweep_cols[c]]);
    printf(" %8s\n", "BL sb");
    for (int p = 0; p < NSWEEP; p++) {
        double lg[NSCOL] = {0}, sb = 0;
        int m = 0;
        for (int i = 0; i < n; i++) {
            if (jobs[i].rc < 0)
                continue;
            for (int c = 0; c < NSCOL; c++)
                lg[c] += log(jobs[i].sweep[p][c] / jobs[i].ipc[0][0]);
            sb += jobs[i].sb_share[p];
            m++;
        }
        printf("%-12d", sweep_pools[p]);
        for (int c = 0; c < NSCOL; c++)
            printf(" %8.3f", m > 0 ? exp(lg[c] / m) : 0.0);
        printf(" %7.1f%%\n", m > 0 ? 100 * sb / m : 0.0);
    }
    double secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    printf("\n%d kernels in %.1f s (two threads)\n", n, secs);
    if (!own)
        bad += orders_table(&gpu);
    if (!own)
        for (int i = 0; i < n; i++)
            free(paths[i]);
    free(jobs);
    return bad ? 1 : 0;
}
