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
 * usage: bench_ltrf [--cycles N] [--seeds S] [KERNEL.spec ...]
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
    bool own = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--cycles") && i + 1 < argc) {
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
    if (!own)
        n = list_specs(paths, MAXK);
    if (n == 0) {
        fprintf(stderr, "bench_ltrf: no kernels (run from the repository root)\n");
        return 1;
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
        for (int i = 0; i < n; i++)
            free(paths[i]);
    free(jobs);
    return bad ? 1 : 0;
}
