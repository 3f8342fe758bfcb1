/* bench_hybrid.c - speed of the estimate path and of batch mode.
 *
 * 1. estimate: rf_extrap_estimate on a loaded kernel, microseconds per call
 *    (uncalibrated and calibrated with prediction interval), and the whole
 *    `rfkit estimate` command (kernel load included) for reference.
 * 2. batch: a generated CSV of 1,000,000 design points (analytic rows: GPU
 *    preset, bundled kernel, design, banks, collectors, stealing switches)
 *    written to /tmp, estimated with one thread (rows per second per core,
 *    from the process CPU time, the best of three runs, so that other load
 *    on the machine counts as little as it can; and from wall time) and
 *    with all cores; the same 1,000,000 rows naming the bare PTX
 *    (hotspot.ptx, grid "32,32", block "16,16" columns) instead of the
 *    spec, which share one loaded kernel and characterisation per worker
 *    as spec rows do, and the spec rows with the same launch columns
 *    given (what parsing and echoing two quoted launch cells per row
 *    costs); then 2,000,000 spec rows to show the
 *    resident memory stays flat as the input grows (each run in its own child
 *    process, so the peak memory reported is that run's).
 * 3. HI-RF batch: 20,000 rows on volta-hirf (libor and sgemm; index
 *    concat / tea / full, assignment base / cac / best / worst, 32-128
 *    cache lines per sub-core, 4-16 banks), one thread, best of three.
 *    Each row runs the register-cache flow (an LU solve per cache line),
 *    rates, the own-bank walk and the dispersion walk; the per-kernel memo
 *    of renumberings and flows (results/batch.c) serves rows that differ
 *    only in banks.  Measured: 2.47 s for 2,000 such rows before the memo
 *    and the Newton LRU time, 0.33 s after, with the same output.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../analytic/kchar.h"
#include "../calibrate/extrapolate.h"
#include "../inputs/gpu.h"
#include "../inputs/kernel.h"
#include "../results/batch.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Spec rows (bare 0; 2: with the spec's launch in the grid and block
 * columns), or (bare 1) the same rows on hotspot.ptx with its launch in
 * those columns. */
static int gen_csv(const char *path, long rows, int bare)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    static const int banks[] = {4, 8, 16, 32};
    static const int colls[] = {8, 12, 16, 24, 32};
    const char *kl = bare == 1 ? "inputs/kernels/hotspot.ptx,\"32,32\",\"16,16\""
                   : bare == 2 ? "inputs/kernels/hotspot.spec,\"32,32\",\"16,16\""
                               : "inputs/kernels/hotspot.spec,,";
    fputs("gpu,kernel,grid,block,design,banks,collectors,read_steal,write_steal\n", f);
    for (long i = 0; i < rows; i++) {
        int st = (int)(i % 3);
        fprintf(f, "fermi-gtx480,%s,%s,%d,%d,%d,%d\n", kl,
                st ? "stealing" : "baseline", banks[(i / 3) % 4], colls[(i / 12) % 5], st >= 1,
                st == 2);
    }
    return fclose(f);
}

static int gen_hirf_csv(const char *path, long rows)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    static const char *const kern[] = {"libor", "sgemm"};
    static const char *const index[] = {"concat", "tea", "full"};
    static const char *const assign[] = {"base", "cac", "best", "worst"};
    static const int lines[] = {32, 64, 128}, banks[] = {4, 8, 16};
    fputs("gpu,kernel,design,index,assign,rc_entries,banks\n", f);
    for (long i = 0; i < rows; i++)
        fprintf(f, "volta-hirf,inputs/kernels/%s.spec,hirf,%s,%s,%d,%d\n", kern[i % 2],
                index[(i / 2) % 3], assign[(i / 6) % 4], lines[(i / 24) % 3], banks[(i / 72) % 3]);
    return fclose(f);
}

/* Run in a child process so its peak memory is its own (max RSS in KB,
 * measured by the child and sent back through a pipe with the timings). */
static double run_batch(const char *path, int jobs, long *rows, long *errors, double *cpu);

static double run_child(const char *path, int jobs, long *rows, long *errors, double *cpu,
                        long *rss)
{
    int fd[2];
    if (pipe(fd) != 0)
        exit(1);
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        double r[5];
        long rw, er;
        r[0] = run_batch(path, jobs, &rw, &er, &r[1]);
        r[2] = (double)rw;
        r[3] = (double)er;
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        r[4] = (double)ru.ru_maxrss;
        if (write(fd[1], r, sizeof r) != (ssize_t)sizeof r)
            _exit(1);
        _exit(0);
    }
    close(fd[1]);
    double r[5] = {0};
    if (read(fd[0], r, sizeof r) != (ssize_t)sizeof r)
        fprintf(stderr, "bench_hybrid: child failed\n");
    close(fd[0]);
    int status;
    waitpid(pid, &status, 0);
    *rss = (long)r[4];
    *cpu = r[1];
    *rows = (long)r[2];
    *errors = (long)r[3];
    return r[0];
}

static double run_batch(const char *path, int jobs, long *rows, long *errors, double *cpu)
{
    FILE *in = fopen(path, "r");
    FILE *out = fopen("/dev/null", "w");
    if (!in || !out) {
        fprintf(stderr, "bench_hybrid: cannot open %s\n", path);
        exit(1);
    }
    static char obuf[1 << 20];
    setvbuf(out, obuf, _IOFBF, sizeof obuf);
    rf_batch_opts o = {jobs, 0, NULL, NULL};
    rf_batch_stats st;
    rf_err err;
    double t0 = now_s(), c0 = cpu_s();
    if (rf_batch_run(in, path, out, &o, &st, &err)) {
        fprintf(stderr, "bench_hybrid: batch: %s\n", err.msg);
        exit(1);
    }
    double t = now_s() - t0;
    *cpu = cpu_s() - c0;
    fclose(in);
    fclose(out);
    *rows = st.rows;
    *errors = st.errors;
    return t;
}

int main(void)
{
    rf_err err;
    rf_gpu gpu;
    rf_kernel *k = NULL;
    rf_kernel_opts ko;
    memset(&ko, 0, sizeof ko);
    if (rf_gpu_load("fermi-gtx480", &gpu, NULL, &err)
        || rf_kernel_load("inputs/kernels/hotspot.spec", &ko, &k, &err)) {
        fprintf(stderr, "bench_hybrid: %s\n", err.msg);
        return 1;
    }
    double t0 = now_s();
    rf_ipc_kernel kc;
    if (rf_kchar_compute(&gpu, k, &kc, &err)) {
        fprintf(stderr, "bench_hybrid: %s\n", err.msg);
        return 1;
    }
    double t_kchar = now_s() - t0;

    /* 1. estimate */
    rf_shape shape = {k->regs, rf_kernel_threads(k), k->smem_static + k->launch.smem,
                      rf_kernel_ctas(k), 0};
    rf_design d;
    rf_design_init(&d);
    rf_design_set_kind(&d, "stealing", &err);
    d.banks = 8;
    rf_estimate e;
    const int N = 200000;
    double sink = 0;
    t0 = now_s();
    for (int i = 0; i < N; i++) {
        d.banks = 4 << (i % 4);
        if (rf_extrap_estimate(&gpu, &d, &kc, &shape, NULL, &e, &err)) {
            fprintf(stderr, "bench_hybrid: %s\n", err.msg);
            return 1;
        }
        sink += e.ipc;
    }
    double t_unc = (now_s() - t0) / N;
    rf_calib cal;
    rf_calib_init(&cal, "fermi-gtx480", "hotspot");
    cal.nfit = 3;
    cal.fit_idx[0] = rf_mparam_index(rf_ipc_mparams, rf_ipc_nmparams, "lat_scale");
    cal.fit_idx[1] = rf_mparam_index(rf_ipc_mparams, rf_ipc_nmparams, "conflict_scale");
    cal.fit_idx[2] = rf_mparam_index(rf_ipc_mparams, rf_ipc_nmparams, "steal_cand");
    for (int j = 0; j < 3; j++)
        cal.cov[j][j] = 0.01;
    cal.rms_rel = 0.01;
    cal.dof = 3;
    t0 = now_s();
    for (int i = 0; i < N; i++) {
        d.banks = 4 << (i % 4);
        rf_extrap_estimate(&gpu, &d, &kc, &shape, &cal, &e, &err);
        sink += e.ipc_hi;
    }
    double t_cal = (now_s() - t0) / N;
    printf("estimate: model %.2f us per design point uncalibrated, %.2f us calibrated "
           "(with prediction interval); kernel characterisation %.1f ms once per kernel "
           "[checksum %.3f]\n",
           1e6 * t_unc, 1e6 * t_cal, 1e3 * t_kchar, sink / (2.0 * N));
    t0 = now_s();
    int reps = 20, bad = 0;
    for (int i = 0; i < reps; i++)
        bad |= system("./build/rfkit estimate --gpu fermi-gtx480 --kernel inputs/kernels/hotspot.spec "
                      "--design stealing --banks 8 --csv >/dev/null 2>&1");
    printf("estimate: whole command (process start, PTX parse, register allocation, "
           "characterisation, estimate) %.1f ms%s\n",
           1e3 * (now_s() - t0) / reps, bad ? " (some runs failed)" : "");
    rf_kernel_destroy(k);

    /* 2. batch */
    char path[64];
    snprintf(path, sizeof path, "/tmp/rfkit-bench-%ld.csv", (long)getpid());
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    int jobs = ncpu > 0 ? (int)ncpu : 1;
    long rows, errors;
    static const struct { long rows; int bare; const char *what; } runs[] = {
        {1000000, 0, "spec"}, {1000000, 1, "bare PTX"},
        {1000000, 2, "spec (grid, block given)"}, {2000000, 0, "spec"}};
    double rate[3] = {0, 0, 0};
    for (int s = 0; s < 4; s++) {
        if (gen_csv(path, runs[s].rows, runs[s].bare)) {
            fprintf(stderr, "bench_hybrid: cannot write %s\n", path);
            return 1;
        }
        /* One thread: the best of three runs (other load on a shared
         * machine only ever slows a run down). */
        double c1 = INFINITY, t1 = INFINITY, cj;
        long rss1 = 0, rssj;
        for (int rep = 0; rep < 3; rep++) {
            double c, t = run_child(path, 1, &rows, &errors, &c, &rssj);
            if (c < c1)
                c1 = c, t1 = t;
            rss1 = rssj > rss1 ? rssj : rss1;
        }
        if (s < 3)
            rate[s] = rows / c1 / 1e6;
        printf("batch: %ld %s rows, 1 thread (best of 3): %.2f s wall, %.2f s CPU: %.2f M rows/s "
               "per core (CPU), %.2f M rows/s wall, %ld errors, max RSS %ld KB\n",
               rows, runs[s].what, t1, c1, rows / c1 / 1e6, rows / t1 / 1e6, errors, rss1);
        if (jobs > 1 && s != 2) {
            double tj = run_child(path, jobs, &rows, &errors, &cj, &rssj);
            printf("batch: %ld %s rows, %d threads: %.2f s wall, %.2f M rows/s, max RSS %ld KB\n",
                   rows, runs[s].what, jobs, tj, rows / tj / 1e6, rssj);
        }
        if (s == 2)
            printf("batch: bare PTX rows at %.2f of the spec rows' rate per core, %.2f of the "
                   "spec rows' with the same launch columns\n",
                   rate[1] / rate[0], rate[1] / rate[2]);
    }
    /* 3. HI-RF batch */
    if (gen_hirf_csv(path, 20000)) {
        fprintf(stderr, "bench_hybrid: cannot write %s\n", path);
        return 1;
    }
    double hc = INFINITY, ht = INFINITY;
    long hrss = 0;
    for (int rep = 0; rep < 3; rep++) {
        double c;
        long rss;
        double t = run_child(path, 1, &rows, &errors, &c, &rss);
        if (c < hc)
            hc = c, ht = t;
        hrss = rss > hrss ? rss : hrss;
    }
    printf("batch HI-RF: %ld rows, 1 thread (best of 3): %.2f s wall, %.2f s CPU: %.0f us per row, "
           "%ld errors, max RSS %ld KB\n",
           rows, ht, hc, 1e6 * hc / (rows > 0 ? rows : 1), errors, hrss);
    unlink(path);
    printf("targets: estimate well under 1 ms; batch >= 1 M rows/s per core; memory flat as rows grow\n");
    return 0;
}
