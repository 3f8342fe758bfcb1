/* bench_passes.c - time of the static register analyses on the bundled
 * kernels (microseconds per run, best of several); of `estimate` on a
 * generated kernel of about 10,000 basic blocks (target: under 1 s); and
 * the wall and CPU time of `calibrate` (characterisation included) over
 * that of a full `simulate` of the default design, single SM, for each
 * bundled kernel on fermi-gtx480 (target: at most 10%). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../analytic/design.h"
#include "../analytic/kchar.h"
#include "../calibrate/calibrate.h"
#include "../calibrate/extrapolate.h"
#include "../sampler/sim.h"
#include "../analytic/deadreg.h"
#include "../analytic/dstcount.h"
#include "../analytic/intervals.h"
#include "../analytic/liveness.h"
#include "../analytic/reorder.h"
#include "../inputs/kernel.h"

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static double cpu_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

#define REPS 20

/* A PTX kernel of `units` units of four blocks each: a forward branch
 * around one block, then a counted loop of one block (trip 4 at run time;
 * the profile's trip rules the model).  4 units + 2 blocks in all. */
static int write_big_ptx(const char *path, int units)
{
    FILE *fp = fopen(path, "w");
    if (!fp)
        return -1;
    fprintf(fp, ".version 7.0\n.target sm_75\n.address_size 64\n\n"
                ".visible .entry big(\n\t.param .u64 big_param_0\n)\n{\n"
                "\t.reg .pred \t%%p<4>;\n\t.reg .b32 \t%%r<8>;\n\t.reg .f32 \t%%f<4>;\n"
                "\t.reg .b64 \t%%rd<4>;\n\n"
                "\tld.param.u64 \t%%rd1, [big_param_0];\n\tmov.u32 \t%%r1, %%tid.x;\n"
                "\tmov.f32 \t%%f1, 0f00000000;\n");
    for (int u = 0; u < units; u++)
        fprintf(fp, "\tsetp.lt.u32 \t%%p1, %%r1, %d;\n\t@%%p1 bra \t$L_J%d;\n"
                    "\tadd.f32 \t%%f1, %%f1, 0f3F800000;\n$L_J%d:\n\tmov.u32 \t%%r3, 0;\n"
                    "$L_L%d:\n\tadd.s32 \t%%r3, %%r3, 1;\n\tmul.f32 \t%%f1, %%f1, 0f3F000000;\n"
                    "\tsetp.lt.u32 \t%%p2, %%r3, 4;\n\t@%%p2 bra \t$L_L%d;\n",
                u % 32, u, u, u, u);
    fprintf(fp, "\tcvta.to.global.u64 \t%%rd2, %%rd1;\n\tst.global.f32 \t[%%rd2], %%f1;\n"
                "\tret;\n}\n");
    return fclose(fp);
}

/* estimate on the generated kernel: load (parse, register allocation),
 * characterisation, the baseline design's estimate; best of 3. */
static int bench_big_estimate(void)
{
    char path[] = "/tmp/rfkit-bench-big-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return 1;
    close(fd);
    if (write_big_ptx(path, 2500)) {
        unlink(path);
        return 1;
    }
    rf_gpu gpu;
    rf_err err;
    if (rf_gpu_load("fermi-gtx480", &gpu, NULL, &err)) {
        fprintf(stderr, "bench_passes: %s\n", err.msg);
        unlink(path);
        return 1;
    }
    double best[3] = {1e30, 1e30, 1e30};
    int nblocks = 0;
    for (int rep = 0; rep < 3; rep++) {
        rf_kernel_opts ko;
        memset(&ko, 0, sizeof ko);
        ko.no_ptxas = true;
        ko.grid = "60";
        ko.block = "256";
        ko.regs = "16";
        rf_kernel *k;
        double t0 = now_us();
        if (rf_kernel_load(path, &ko, &k, &err)) {
            fprintf(stderr, "bench_passes: %s\n", err.msg);
            unlink(path);
            return 1;
        }
        double t1 = now_us();
        rf_ipc_kernel kc;
        rf_design d;
        rf_design_init(&d);
        rf_shape shape = {k->regs, rf_kernel_threads(k), k->smem_static + k->launch.smem,
                          rf_kernel_ctas(k), 0};
        rf_estimate e;
        int rc = rf_kchar_compute(&gpu, k, &kc, &err);
        if (!rc)
            rc = rf_extrap_estimate(&gpu, &d, &kc, &shape, NULL, &e, &err);
        double t2 = now_us();
        nblocks = k->func->nblocks;
        rf_kernel_destroy(k);
        if (rc) {
            fprintf(stderr, "bench_passes: big: %s\n", err.msg);
            unlink(path);
            return 1;
        }
        double dt[3] = {t1 - t0, t2 - t1, t2 - t0};
        for (int i = 0; i < 3; i++)
            best[i] = dt[i] < best[i] ? dt[i] : best[i];
    }
    unlink(path);
    printf("\nestimate, generated PTX of %d blocks (fermi-gtx480, baseline): load %.1f ms, "
           "model %.1f ms, total %.1f ms (target < 1000 ms)\n", nblocks, best[0] / 1e3,
           best[1] / 1e3, best[2] / 1e3);
    return 0;
}

/* calibrate (characterisation + rf_calib_run, seed 1, defaults) against a
 * full run of the default design on one SM (rfkit simulate --full). */
static int bench_calibrate_cost(const char *const *names, size_t nk)
{
    printf("\ncalibrate vs simulate --full (fermi-gtx480; wall and CPU ms; target ratio <= 0.10)\n");
    printf("%-8s %9s %9s %7s %9s %9s %7s\n", "kernel", "cal_wall", "sim_wall", "ratio",
           "cal_cpu", "sim_cpu", "ratio");
    rf_gpu gpu;
    rf_err err;
    if (rf_gpu_load("fermi-gtx480", &gpu, NULL, &err)) {
        fprintf(stderr, "bench_passes: %s\n", err.msg);
        return 1;
    }
    double sum_w = 0, sum_c = 0, max_w = 0;
    for (size_t i = 0; i < nk; i++) {
        char path[128];
        snprintf(path, sizeof path, "inputs/kernels/%s.spec", names[i]);
        rf_kernel_opts ko;
        memset(&ko, 0, sizeof ko);
        ko.no_ptxas = true;
        rf_kernel *k;
        if (rf_kernel_load(path, &ko, &k, &err)) {
            fprintf(stderr, "bench_passes: %s\n", err.msg);
            return 1;
        }
        rf_calib_report *rep = calloc(1, sizeof *rep);
        if (!rep) {
            rf_kernel_destroy(k);
            return 1;
        }
        rf_ipc_kernel kc;
        rf_calib cal;
        rf_calib_opts co = {0, 1, NULL, false, NULL, 1};
        double w0 = now_us(), c0 = cpu_us();
        int rc = rf_kchar_compute(&gpu, k, &kc, &err);
        if (!rc)
            rc = rf_calib_run(&gpu, "fermi-gtx480", k, &kc, &co, &cal, rep, &err);
        double w1 = now_us(), c1 = cpu_us();
        rf_design d;
        rf_design_init(&d);
        rf_sim_opts o;
        rf_sim_opts_init(&o);
        o.sms = 1;
        rf_sim_stats st;
        if (!rc)
            rc = rf_sim_run(&gpu, &d, k, &o, &st, &err);
        double w2 = now_us(), c2 = cpu_us();
        free(rep);
        rf_kernel_destroy(k);
        if (rc) {
            fprintf(stderr, "bench_passes: %s: %s\n", names[i], err.msg);
            return 1;
        }
        double rw = (w1 - w0) / (w2 - w1), rcpu = (c1 - c0) / (c2 - c1);
        sum_w += rw;
        sum_c += rcpu;
        max_w = rw > max_w ? rw : max_w;
        printf("%-8s %9.1f %9.1f %7.3f %9.1f %9.1f %7.3f\n", names[i], (w1 - w0) / 1e3,
               (w2 - w1) / 1e3, rw, (c1 - c0) / 1e3, (c2 - c1) / 1e3, rcpu);
    }
    printf("mean ratio: wall %.3f, CPU %.3f; worst wall %.3f\n", sum_w / nk, sum_c / nk, max_w);
    return 0;
}

int main(void)
{
    static const char *const names[] = {"sgemm", "hotspot", "libor", "bfs", "kmeans",
                                        "stream", "spmv", "sfu", "reduce"};
    printf("%-8s %6s %6s %9s %9s %9s %9s %9s %9s\n", "kernel", "blocks", "insts",
           "live_us", "freq_us", "iv_us", "strand_us", "reord_us", "dead_us");
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        char path[128];
        snprintf(path, sizeof path, "inputs/kernels/%s.spec", names[k]);
        rf_kernel_opts ko;
        memset(&ko, 0, sizeof ko);
        ko.no_ptxas = true;
        rf_kernel *kern;
        rf_err err;
        if (rf_kernel_load(path, &ko, &kern, &err)) {
            fprintf(stderr, "bench_passes: %s\n", err.msg);
            return 1;
        }
        const rf_func *f = kern->func;
        double best[6] = {1e30, 1e30, 1e30, 1e30, 1e30, 1e30};
        double fq[4096], ef[8192];
        for (int rep = 0; rep < REPS; rep++) {
            double t0 = now_us();
            rf_live l;
            rf_live_compute(f, &l, NULL);
            double t1 = now_us();
            rf_dst_block_freq(f, kern->profile.trip, kern->profile.taken, NULL, fq, ef, NULL);
            double t2 = now_us();
            rf_iv_opts o;
            rf_iv_opts_default(&o);
            rf_intervals iv;
            rf_iv_form(f, &o, &iv, NULL);
            double t3 = now_us();
            o.kind = RF_IV_STRAND;
            rf_intervals st;
            rf_iv_form(f, &o, &st, NULL);
            double t4 = now_us();
            int map[RF_MAX_GPR];
            rf_share_reach r;
            rf_reorder_first_use(f, l.nregs, map, NULL);
            rf_reorder_reach(f, map, l.nregs, 0.5, kern->profile.trip, kern->profile.taken, &r, NULL);
            double t5 = now_us();
            rf_deadreg d;
            rf_dead_compute(f, &l, 8, 0, &d, NULL);
            double t6 = now_us();
            double dt[6] = {t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4, t6 - t5};
            for (int i = 0; i < 6; i++)
                if (dt[i] < best[i])
                    best[i] = dt[i];
            rf_dead_free(&d);
            rf_iv_free(&st);
            rf_iv_free(&iv);
            rf_live_free(&l);
        }
        printf("%-8s %6d %6d %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f\n", names[k], f->nblocks,
               f->ninsts, best[0], best[1], best[2], best[3], best[4], best[5]);
        rf_kernel_destroy(kern);
    }
    if (bench_big_estimate())
        return 1;
    return bench_calibrate_cost(names, sizeof names / sizeof names[0]);
}
