/* bench_passes.c - time of the static register analyses on the bundled
 * kernels (microseconds per run, best of several). */
#include <stdio.h>
#include <string.h>
#include <time.h>

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

#define REPS 20

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
    return 0;
}
